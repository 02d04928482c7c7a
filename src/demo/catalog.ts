import { FERMENTABLE_IDS as F, HOP_IDS as H, MISC_IDS as M, YEAST_IDS as Y } from "./ids.ts";
import { round } from "./random.ts";

// The demo account's ingredient stock, as the inventory endpoints return it
// (metadata is added in inventory.ts). Real facts kept: fermentable
// `attenuation` is a fraction while yeast `attenuation` is a percent, and a
// field the item does not have is left out rather than sent as null.

type Item = Record<string, unknown>;

function grain(
  _id: string, name: string, supplier: string, origin: string, grainCategory: string,
  lovibond: number, potential: number, extra: Item,
): Item {
  return {
    _id, name, type: "Grain", grainCategory, supplier, origin, lovibond,
    // The service stores colour in SRM beside the Lovibond figure.
    color: round(Math.max(1.3546 * lovibond - 0.76, 1), 2),
    potential, potentialPercentage: round((potential - 1) / 0.00046, 1),
    notFermentable: false, hidden: false, notes: "", userNotes: "", substitutes: "", usedIn: "",
    bestBeforeDate: null, manufacturingDate: null,
    ...extra,
  };
}

export const FERMENTABLES = {
  paleAleMalt: grain(F.paleAleMalt, "Pale Ale Malt", "Briess", "US", "Base", 3.5, 1.037,
    { attenuation: 0.8, diastaticPower: 85, protein: 11.7, moisture: 4, maxInBatch: 100, inventory: 12.5, costPerAmount: 1.9 }),
  pilsnerMalt: grain(F.pilsnerMalt, "Pilsner Malt", "Weyermann", "Germany", "Base (Pilsner)", 1.7, 1.037,
    { attenuation: 0.82, diastaticPower: 110, protein: 10.5, moisture: 4.5, maxInBatch: 100, inventory: 18, costPerAmount: 1.8 }),
  marisOtter: grain(F.marisOtter, "Pale Malt, Maris Otter", "Thomas Fawcett", "United Kingdom", "Base (Maris Otter)", 2.4, 1.038,
    { attenuation: 0.81, diastaticPower: 120, protein: 9.4, moisture: 3, maxInBatch: 100, inventory: 6.8, costPerAmount: 2.2 }),
  munich: grain(F.munich, "Munich I", "Weyermann", "Germany", "Base (Munich)", 7.1, 1.037,
    { diastaticPower: 70, moisture: 4.5, maxInBatch: 100, inventory: 1.2, costPerAmount: 2.1 }),
  crystal40: grain(F.crystal40, "Caramel/Crystal Malt - 40L", "Briess", "US", "Crystal/Caramel", 40, 1.034,
    { diastaticPower: 0, maxInBatch: 15, inventory: 0.65, costPerAmount: 2.6 }),
  carapils: grain(F.carapils, "Carapils", "Weyermann", "Germany", "Crystal/Caramel", 1.5, 1.033,
    { diastaticPower: 0, maxInBatch: 10, inventory: 0.8, costPerAmount: 2.8 }),
  acidulated: grain(F.acidulated, "Acidulated Malt", "Weyermann", "Germany", "Acidulated", 1.8, 1.027,
    { maxInBatch: 10, inventory: 0.25, costPerAmount: 3.2, userNotes: "Lowers mash pH by about 0.1 per 1 % of the grist" }),
  // Used up by the last stout: stock zero, still listed.
  flakedBarley: grain(F.flakedBarley, "Flaked Barley", "Briess", "US", "Other", 1.7, 1.032,
    { diastaticPower: 0, maxInBatch: 20, inventory: 0, costPerAmount: 2.4 }),
  roastedBarley: grain(F.roastedBarley, "Roasted Barley", "Simpsons", "United Kingdom", "Roasted", 500, 1.025,
    { diastaticPower: 0, maxInBatch: 10, inventory: 0.45, costPerAmount: 3 }),
} satisfies Record<keyof typeof F, Item>;

function hop(_id: string, name: string, origin: string, alpha: number, usage: string, extra: Item): Item {
  return {
    _id, name, type: "Pellet", origin, alpha, usage, use: "Boil", time: 60, ibu: 0, amount: null,
    temp: null, oil: null, myrcene: null, humulene: null, caryophyllene: null, farnesene: null,
    hsi: null, cohumulone: null, hidden: false, notes: "", userNotes: "", substitutes: "", usedIn: "",
    bestBeforeDate: null, manufacturingDate: null,
    ...extra,
  };
}

export const HOPS = {
  magnum: hop(H.magnum, "Hallertau Magnum", "DE", 14, "Bittering", { beta: 6.5, year: 2023, inventory: 85, costPerAmount: 0.05 }),
  cascade: hop(H.cascade, "Cascade", "US", 5.5, "Both",
    { beta: 6, year: 2023, oil: 1.2, myrcene: 50, humulene: 12, caryophyllene: 5, farnesene: 6, inventory: 120, costPerAmount: 0.06 }),
  // Dry-hopped more than was in stock: the stock went negative.
  centennial: hop(H.centennial, "Centennial", "US", 10, "Both", { beta: 4, year: 2023, inventory: -10, costPerAmount: 0.07 }),
  mittelfrueh: hop(H.mittelfrueh, "Hallertauer Mittelfrüh", "DE", 4, "Aroma", { beta: 4.5, year: 2023, inventory: 60, costPerAmount: 0.08 }),
  tettnang: hop(H.tettnang, "Tettnanger", "DE", 4.5, "Aroma", { beta: 4, year: 2022, inventory: 45, costPerAmount: 0.07 }),
  goldings: hop(H.goldings, "East Kent Goldings (EKG)", "UK", 5.5, "Both", { beta: 2.5, year: 2023, inventory: 70, costPerAmount: 0.06 }),
} satisfies Record<keyof typeof H, Item>;

function misc(_id: string, name: string, type: string, use: string, unit: string, extra: Item): Item {
  return {
    _id, name, type, use, unit, time: null, timeIsDays: false, amountPerL: null,
    waterAdjustment: type === "Water Agent", hidden: false, notes: "", userNotes: "", substitutes: "",
    bestBeforeDate: null, manufacturingDate: null,
    ...extra,
  };
}

export const MISCS = {
  gypsum: misc(M.gypsum, "Gypsum (CaSO4)", "Water Agent", "Mash", "g", { inventory: 180, costPerAmount: 0.02 }),
  calciumChloride: misc(M.calciumChloride, "Calcium Chloride (CaCl2)", "Water Agent", "Mash", "g", { inventory: 150, costPerAmount: 0.03 }),
  lacticAcid: misc(M.lacticAcid, "Lactic Acid", "Water Agent", "Mash", "ml", { concentration: 80, inventory: 45, costPerAmount: 0.05 }),
  whirlfloc: misc(M.whirlfloc, "Whirlfloc Tablet", "Fining", "Boil", "items", { time: 15, inventory: 9, costPerAmount: 0.3 }),
  yeastNutrient: misc(M.yeastNutrient, "Yeast Nutrient", "Other", "Boil", "g", { time: 10, inventory: 40, costPerAmount: 0.1 }),
} satisfies Record<keyof typeof M, Item>;

function yeast(
  _id: string, name: string, laboratory: string, productId: string, type: string,
  flocculation: string, attenuation: number, minTemp: number, maxTemp: number, extra: Item,
): Item {
  return {
    _id, name, laboratory, productId, type, form: "Dry", flocculation, attenuation,
    minAttenuation: null, maxAttenuation: null, minTemp, maxTemp, maxAbv: null,
    amount: 1, unit: "pkg", fermentsAll: false, hidden: false, userNotes: "",
    bestBeforeDate: null, manufacturingDate: null,
    ...extra,
  };
}

export const YEASTS = {
  us05: yeast(Y.us05, "SafAle American", "Fermentis", "US-05", "Ale", "Medium", 81, 18, 26,
    { inventory: 3, costPerAmount: 4.5, description: "Clean American ale strain with low diacetyl and a crisp finish." }),
  w3470: yeast(Y.w3470, "SafLager German Lager", "Fermentis", "W-34/70", "Lager", "High", 83, 12, 18,
    { inventory: 2, costPerAmount: 5.2, description: "Weihenstephan lager strain: malty, clean, ferments well cold." }),
  s04: yeast(Y.s04, "SafAle English Ale", "Fermentis", "S-04", "Ale", "High", 75, 15, 20,
    { inventory: 2, costPerAmount: 4.2, description: "Fast English ale strain that settles into a compact sediment." }),
  nottingham: yeast(Y.nottingham, "LalBrew Nottingham", "Lallemand", "Nottingham", "Ale", "High", 77, 10, 22,
    { inventory: 1, costPerAmount: 4.8, description: "Neutral, highly flocculent English ale strain." }),
} satisfies Record<keyof typeof Y, Item>;
