import { ebc, grain, lov, type FermentableRow } from "./fermentable-row.ts";

// British maltings publish EBC; Briess publishes degrees Lovibond and diastatic power in Lintner.
const CR = "Crisp";
const S = "Simpsons";
const TF = "Thomas Fawcett";
const BR = "Briess";
const UK = "UK";
const US = "US";

export const UK_US_MALTS: readonly FermentableRow[] = [
  grain("Maris Otter", CR, UK, "Base (Maris Otter)", ebc(6), 1.038, 0.81, { protein: 9.5, moisture: 3.5, notes: "Floor- or drum-malted heritage barley for British ales." }),
  grain("Extra Pale Maris Otter", CR, UK, "Base (Maris Otter)", ebc(3), 1.038, 0.81, { protein: 9.5, moisture: 4 }),
  grain("Chevallier Heritage Malt", CR, UK, "Base", ebc(6), 1.037, 0.8, { notes: "Nineteenth-century barley variety revived for porters and ales." }),
  grain("Pale Chocolate Malt", CR, UK, "Roasted", ebc(600), 1.033, 0.25),
  grain("Brown Malt", CR, UK, "Other", ebc(140), 1.032, 0.5, { notes: "Dry, coffee-like; traditional in porters." }),

  grain("Golden Promise", S, UK, "Base", ebc(5.5), 1.038, 0.81, { protein: 9.5, moisture: 3.5, notes: "Scottish barley variety; soft, sweet malt character." }),
  grain("Simpsons Maris Otter", S, UK, "Base (Maris Otter)", ebc(5.5), 1.038, 0.81, { protein: 9.5, moisture: 3.5 }),
  grain("Simpsons Best Pale Ale", S, UK, "Base", ebc(5.5), 1.038, 0.81, { protein: 9.5, moisture: 3.5 }),
  grain("Simpsons Finest Lager Malt", S, UK, "Base (Pilsner)", ebc(3), 1.037, 0.81, { protein: 10, moisture: 4 }),
  grain("Simpsons Caramalt", S, UK, "Crystal/Caramel", ebc(30), 1.034, 0.6),
  grain("Simpsons Crystal Light", S, UK, "Crystal/Caramel", ebc(100), 1.034, 0.55),
  grain("Simpsons Crystal Medium", S, UK, "Crystal/Caramel", ebc(160), 1.034, 0.52),
  grain("Simpsons Crystal Dark", S, UK, "Crystal/Caramel", ebc(240), 1.033, 0.5),
  grain("Simpsons Crystal Extra Dark", S, UK, "Crystal/Caramel", ebc(400), 1.033, 0.45),
  grain("Simpsons Double Roasted Crystal", S, UK, "Crystal/Caramel", ebc(300), 1.033, 0.45, { notes: "Raisin and toffee notes." }),
  grain("Golden Naked Oats", S, UK, "Crystal/Caramel", ebc(15), 1.032, 0.6, { notes: "Huskless caramelised oat malt; nutty, silky body." }),
  grain("Simpsons Amber Malt", S, UK, "Other", ebc(50), 1.032, 0.6),
  grain("Simpsons Coffee Malt", S, UK, "Roasted", ebc(450), 1.032, 0.25),
  grain("Simpsons Chocolate Malt", S, UK, "Roasted", ebc(1100), 1.032, 0.2),
  grain("Simpsons Black Malt", S, UK, "Roasted", ebc(1400), 1.03, 0.15),
  grain("Simpsons Roasted Barley", S, UK, "Roasted", ebc(1300), 1.03, 0.15, { notes: "Unmalted; the dry roast of Irish stouts." }),

  grain("Pale Malt, Maris Otter", TF, UK, "Base (Maris Otter)", ebc(5), 1.038, 0.81, { protein: 9.4, moisture: 3 }),
  grain("Halcyon Pale Ale Malt", TF, UK, "Base", ebc(5.5), 1.038, 0.81, { moisture: 3 }),
  grain("Mild Ale Malt", TF, UK, "Base", ebc(7.5), 1.037, 0.8, { moisture: 3 }),
  grain("Pale Crystal Malt", TF, UK, "Crystal/Caramel", ebc(70), 1.034, 0.58),
  grain("Oat Malt", TF, UK, "Other", ebc(5), 1.032, 0.7, { notes: "Malted oats with husk; smooth body, eases lautering." }),

  grain("2-Row Brewers Malt", BR, US, "Base", lov(1.8), 1.037, 0.8, { diastaticPower: 140, protein: 12, moisture: 4 }),
  grain("6-Row Brewers Malt", BR, US, "Base (6-Row)", lov(1.8), 1.035, 0.79, { diastaticPower: 160, protein: 12.5, moisture: 4, notes: "High enzyme content for grists with unmalted adjuncts." }),
  grain("Pilsen Malt", BR, US, "Base (Pilsner)", lov(1.2), 1.037, 0.81, { diastaticPower: 140, protein: 11.5, moisture: 4 }),
  grain("Briess Pale Ale Malt", BR, US, "Base", lov(3.5), 1.037, 0.8, { diastaticPower: 85, protein: 11.5, moisture: 4 }),
  grain("Ashburne Mild Malt", BR, US, "Base", lov(5.3), 1.037, 0.79, { diastaticPower: 65, moisture: 4 }),
  grain("Goldpils Vienna", BR, US, "Base (Vienna)", lov(3.5), 1.037, 0.79, { diastaticPower: 80, moisture: 4 }),
  grain("Bonlander Munich", BR, US, "Base (Munich)", lov(10), 1.036, 0.77, { diastaticPower: 40, moisture: 3.3 }),
  grain("Aromatic Munich 20L", BR, US, "Base (Munich)", lov(20), 1.035, 0.75, { diastaticPower: 20, moisture: 3.3 }),
  grain("Red Wheat Malt", BR, US, "Base (Wheat)", lov(2.3), 1.038, 0.8, { diastaticPower: 180, protein: 13, moisture: 4.5 }),
  grain("White Wheat Malt", BR, US, "Base (Wheat)", lov(2.5), 1.039, 0.8, { diastaticPower: 160, protein: 12.5, moisture: 4.5 }),
  grain("Briess Rye Malt", BR, US, "Base", lov(3.7), 1.036, 0.74, { diastaticPower: 105, moisture: 4.5 }),
  grain("Cherrywood Smoked Malt", BR, US, "Base", lov(5), 1.037, 0.78, { notes: "Smooth, sweet smoke; up to 100% of the grist." }),
  grain("Victory Malt", BR, US, "Other", lov(28), 1.034, 0.7, { notes: "Toasted, biscuity; up to 15%." }),
  grain("Special Roast", BR, US, "Other", lov(50), 1.033, 0.65),
  grain("Carapils", BR, US, "Crystal/Caramel", lov(1.5), 1.033, 0.45, { notes: "Dextrin malt for body and head retention; up to 5%." }),
  grain("Caramel 10L", BR, US, "Crystal/Caramel", lov(10), 1.035, 0.6),
  grain("Caramel 20L", BR, US, "Crystal/Caramel", lov(20), 1.035, 0.58),
  grain("Caramel 40L", BR, US, "Crystal/Caramel", lov(40), 1.034, 0.55),
  grain("Caramel 60L", BR, US, "Crystal/Caramel", lov(60), 1.034, 0.52),
  grain("Caramel 80L", BR, US, "Crystal/Caramel", lov(80), 1.034, 0.5),
  grain("Caramel 120L", BR, US, "Crystal/Caramel", lov(120), 1.033, 0.45),
  grain("Extra Special Malt", BR, US, "Crystal/Caramel", lov(130), 1.033, 0.45),
  grain("Chocolate Malt", BR, US, "Roasted", lov(350), 1.03, 0.25),
  grain("Dark Chocolate Malt", BR, US, "Roasted", lov(420), 1.03, 0.2),
  grain("Black Malt", BR, US, "Roasted", lov(500), 1.025, 0.15),
  grain("Blackprinz Malt", BR, US, "Roasted", lov(500), 1.03, 0.15, { notes: "Dehusked black malt: colour without harsh bitterness." }),
  grain("Midnight Wheat Malt", BR, US, "Roasted", lov(550), 1.03, 0.15),
  grain("Roasted Barley", BR, US, "Roasted", lov(300), 1.025, 0.15),
];
