import { ebc, grain, lov, other, type FermentableRow } from "./fermentable-row.ts";

// Flaked grains and adjuncts, malt extracts and sugars. Extract potentials are per kilogram
// of product as sold (liquid extract carries about 20% water).
const BR = "Briess";
const US = "US";
const BE = "Belgium";

export const SUGARS_EXTRACTS: readonly FermentableRow[] = [
  grain("Flaked Oats", undefined, undefined, "Other", lov(1), 1.033, 0.7, { notes: "Body and silky mouthfeel; needs a mash." }),
  grain("Flaked Wheat", undefined, undefined, "Other", lov(2), 1.035, 0.75),
  grain("Flaked Barley", undefined, undefined, "Other", lov(1.7), 1.032, 0.7, { notes: "Head retention and body; common in dry stouts." }),
  grain("Flaked Corn", undefined, undefined, "Other", lov(1), 1.037, 0.8, { notes: "Lightens body and colour; needs a mash." }),
  grain("Flaked Rice", undefined, undefined, "Other", lov(1), 1.032, 0.8),
  grain("Flaked Rye", undefined, undefined, "Other", lov(2), 1.036, 0.75),
  grain("Torrified Wheat", undefined, undefined, "Other", lov(1.5), 1.036, 0.75),
  other("Adjunct", "Corn Grits", undefined, undefined, lov(1), 1.037, 0.8, { notes: "Needs a cereal mash (boiling) before the main mash." }),
  other("Adjunct", "Rice Hulls", BR, US, ebc(0), 1, 0, { notFermentable: true, notes: "Lautering aid; no extract." }),

  other("Dry Extract", "Pilsen Light DME", BR, US, lov(2.3), 1.044, 0.75),
  other("Dry Extract", "Golden Light DME", BR, US, lov(4), 1.044, 0.75),
  other("Dry Extract", "Bavarian Wheat DME", BR, US, lov(3), 1.044, 0.75, { notes: "65% wheat and 35% barley malt." }),
  other("Dry Extract", "Sparkling Amber DME", BR, US, lov(10), 1.044, 0.72),
  other("Dry Extract", "Traditional Dark DME", BR, US, lov(30), 1.044, 0.7),
  other("Liquid Extract", "Pilsen Light LME", BR, US, lov(2.3), 1.036, 0.75),
  other("Liquid Extract", "Golden Light LME", BR, US, lov(4), 1.036, 0.75),
  other("Liquid Extract", "Munich LME", BR, US, lov(8), 1.036, 0.73),
  other("Liquid Extract", "Bavarian Wheat LME", BR, US, lov(3), 1.036, 0.75),
  other("Liquid Extract", "Traditional Dark LME", BR, US, lov(30), 1.036, 0.7),

  other("Sugar", "Table Sugar (Sucrose)", undefined, undefined, ebc(0), 1.046, 1, { notes: "Dries out the finish; fully fermentable." }),
  other("Sugar", "Corn Sugar (Dextrose)", undefined, undefined, ebc(0), 1.042, 1, { notes: "Dextrose monohydrate; also used for priming." }),
  other("Sugar", "Demerara Sugar", undefined, undefined, lov(2), 1.046, 1),
  other("Sugar", "Turbinado Sugar", undefined, undefined, lov(10), 1.044, 1),
  other("Sugar", "Light Brown Sugar", undefined, undefined, lov(8), 1.046, 1),
  other("Sugar", "Dark Brown Sugar", undefined, undefined, lov(50), 1.046, 1),
  other("Sugar", "Honey", undefined, undefined, lov(2), 1.035, 0.95, { notes: "Add after the boil to keep the aroma." }),
  other("Sugar", "Maple Syrup", undefined, undefined, lov(35), 1.03, 1),
  other("Sugar", "Molasses", undefined, undefined, lov(80), 1.036, 0.85),
  other("Sugar", "Belgian Candi Sugar, Clear", undefined, BE, ebc(1), 1.036, 1),
  other("Sugar", "Belgian Candi Sugar, Amber", undefined, BE, lov(75), 1.036, 1),
  other("Sugar", "Belgian Candi Sugar, Dark", undefined, BE, lov(275), 1.036, 1),
  other("Sugar", "Candi Syrup D-45", "Dark Candi", US, lov(45), 1.032, 1),
  other("Sugar", "Candi Syrup D-90", "Dark Candi", US, lov(90), 1.032, 1),
  other("Sugar", "Candi Syrup D-180", "Dark Candi", US, lov(180), 1.032, 1, { notes: "Dark fruit and toffee for dubbels and quads." }),
  other("Sugar", "Candi Syrup D-240", "Dark Candi", US, lov(240), 1.032, 1),
  other("Sugar", "Lactose", undefined, undefined, ebc(0), 1.035, 0, { notFermentable: true, notes: "Milk sugar: brewer's yeast leaves it as residual sweetness." }),
  other("Sugar", "Maltodextrin", undefined, undefined, ebc(0), 1.04, 0, { notFermentable: true, notes: "Unfermentable dextrins for body." }),
];
