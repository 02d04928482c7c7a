import { round } from "./random.ts";

// Recipe ingredient entries are copies of inventory items with the amounts of
// one recipe; the service keeps the item's identity fields and drops stock data.

type Obj = Record<string, unknown>;

function pick(item: Obj, keys: readonly string[]): Obj {
  const out: Obj = {};
  for (const key of keys) if (key in item) out[key] = item[key];
  return out;
}

const FERMENTABLE_FIELDS = [
  "_id", "name", "type", "grainCategory", "color", "lovibond", "potential", "potentialPercentage",
  "attenuation", "diastaticPower", "notFermentable", "origin", "supplier",
] as const;
const HOP_FIELDS = ["_id", "name", "type", "alpha", "beta", "origin", "usage", "year"] as const;
const MISC_FIELDS = ["_id", "name", "type", "unit", "waterAdjustment", "concentration"] as const;
const YEAST_FIELDS = [
  "_id", "name", "type", "form", "laboratory", "productId", "flocculation", "attenuation",
  "minTemp", "maxTemp", "description",
] as const;

/** Percentages of the grain bill are filled in by `withPercentages`. */
export function fermentable(item: Obj, amount: number): Obj {
  return { ...pick(item, FERMENTABLE_FIELDS), amount, use: "Mash" };
}

export function withPercentages(fermentables: Obj[]): Obj[] {
  const total = totalAmount(fermentables);
  return fermentables.map((f) => ({ ...f, percentage: round(((f.amount as number) / total) * 100, 2) }));
}

export function boilHop(item: Obj, amount: number, time: number, ibu: number): Obj {
  return { ...pick(item, HOP_FIELDS), amount, use: "Boil", time, timeUnit: null, ibu };
}

/** A hop stand at `temp` °C for `time` minutes after flame-out. */
export function hopStand(item: Obj, amount: number, time: number, temp: number, ibu: number): Obj {
  return { ...pick(item, HOP_FIELDS), amount, use: "Aroma", time, timeUnit: null, temp, ibu };
}

/** Dry hop added on fermentation day `day` for `time` days. */
export function dryHop(item: Obj, amount: number, day: number, time: number): Obj {
  return { ...pick(item, HOP_FIELDS), amount, use: "Dry Hop", time, timeUnit: "days", day, ibu: 0 };
}

export function miscAddition(item: Obj, amount: number): Obj {
  return { ...pick(item, MISC_FIELDS), amount, use: item.use, time: item.time, timeIsDays: false };
}

export function yeastPitch(item: Obj, amount: number): Obj {
  return { ...pick(item, YEAST_FIELDS), amount, unit: item.unit };
}

export function totalAmount(items: Obj[]): number {
  return round(items.reduce((sum, item) => sum + (item.amount as number), 0), 3);
}

/** Grist-weighted diastatic power in Lintner, over the items that state one. */
export function diastaticPower(fermentables: Obj[]): number {
  const total = totalAmount(fermentables);
  const lintner = fermentables.reduce(
    (sum, f) => sum + (f.amount as number) * ((f.diastaticPower as number | undefined) ?? 0), 0);
  return round(lintner / total, 1);
}
