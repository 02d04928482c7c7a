// Inventory items of this suite, one realistic item per collection (shapes as the hosted service's
// inventory objects carry them: unset figures omitted, metadata beside the fields) and a ladder of
// stock amounts for the list orders. Written for these tests, not copied from any recording.
import type { IngredientCollection } from "../../src/resources.ts";

export type Doc = Record<string, unknown>;

export const COLLECTIONS: readonly IngredientCollection[] = ["fermentables", "hops", "miscs", "yeasts"];

/** Short id prefix per collection, so ids read well in failure messages. */
export const PREFIX: Record<IngredientCollection, string> = { fermentables: "f", hops: "h", miscs: "m", yeasts: "y" };

const META = {
  _created: { _nanoseconds: 0, _seconds: 1700000000 },
  _rev: "rev-original",
  _timestamp: { _nanoseconds: 0, _seconds: 1700000000 },
  _timestamp_ms: 1700000000000,
  createdAt: "2023-11-14T22:13:20.000Z",
  updatedAt: "2023-11-14T22:13:20.000Z",
};

/** One stocked item per collection, every default list field it can have present. */
export const ITEMS: Record<IngredientCollection, Doc> = {
  fermentables: {
    ...META,
    _id: "f-pale",
    name: "Maris Otter Pale",
    type: "Grain",
    grainCategory: "Base (Maris Otter)",
    color: 3,
    lovibond: 2.8,
    potential: 1.038,
    attenuation: 0.81,
    supplier: "Crisp",
    origin: "United Kingdom",
    moisture: 3.5,
    protein: 9.8,
    diastaticPower: 50,
    notFermentable: false,
    use: "Mash",
    inventory: 25,
    costPerAmount: 2.4,
    notes: "Floor malted",
    hidden: false,
  },
  hops: {
    ...META,
    _id: "h-citra",
    name: "Citra",
    alpha: 12.5,
    beta: 4,
    type: "Pellet",
    use: "Boil",
    time: 60,
    ibu: 0,
    amount: null,
    origin: "US",
    usage: "Aroma",
    year: 2023,
    oil: 2.5,
    myrcene: 65,
    inventory: 450,
    costPerAmount: 0.08,
    notes: "Grapefruit and lime",
    hidden: false,
  },
  miscs: {
    ...META,
    _id: "m-gypsum",
    name: "Gypsum (CaSO4)",
    type: "Water Agent",
    use: "Mash",
    time: 60,
    timeUnit: "min",
    amount: 5,
    unit: "g",
    waterAdjustment: true,
    inventory: 250,
    notes: "",
    hidden: false,
  },
  yeasts: {
    ...META,
    _id: "y-us05",
    name: "Safale American",
    type: "Ale",
    form: "Dry",
    amount: 1,
    unit: "pkg",
    laboratory: "Fermentis",
    productId: "US-05",
    flocculation: "Medium",
    attenuation: 81,
    minAttenuation: 78,
    maxAttenuation: 82,
    minTemp: 18,
    maxTemp: 26,
    bestFor: "American ales",
    inventory: 3,
    hidden: false,
  },
};

/** A field each collection's schema accepts, with a valid value, and one value it refuses. */
export const FIELD: Record<IngredientCollection, { field: string; good: unknown; bad: unknown; issue: Doc }> = {
  fermentables: { field: "potential", good: 1.037, bad: 1.6, issue: { path: "potential", rule: "maximum", message: "potential must be <= 1.5" } },
  hops: { field: "beta", good: 5.5, bad: 21, issue: { path: "beta", rule: "maximum", message: "beta must be <= 20" } },
  miscs: { field: "timeUnit", good: "days", bad: "weeks", issue: { path: "timeUnit", rule: "enum", message: 'timeUnit must be one of "min", "day", "days" or null' } },
  yeasts: { field: "maxAbv", good: 12, bad: 31, issue: { path: "maxAbv", rule: "maximum", message: "maxAbv must be <= 30" } },
};

/**
 * Stock ladder: ids sort a < b < … so `_id` order differs from stock order; two ties (50 and -5)
 * prove ties are broken by `_id`; null and missing stock belong to neither filter.
 */
export const LADDER: ReadonlyArray<{ suffix: string; inventory?: number | null }> = [
  { suffix: "a", inventory: 50 },
  { suffix: "b", inventory: 0 },
  { suffix: "c", inventory: -5 },
  { suffix: "d", inventory: 50 },
  { suffix: "e" },
  { suffix: "f", inventory: 12.5 },
  { suffix: "g", inventory: null },
  { suffix: "h", inventory: -20 },
  { suffix: "i", inventory: 0.001 },
  { suffix: "j", inventory: -5 },
];

export function ladderItems(c: IngredientCollection): Doc[] {
  const p = PREFIX[c];
  return LADDER.map(({ suffix, inventory }) => {
    const doc: Doc = { _id: `${p}-${suffix}`, name: `${c} ${suffix.toUpperCase()}`, type: c === "hops" ? "Pellet" : "Other" };
    if (inventory !== undefined) doc.inventory = inventory;
    return doc;
  });
}

/** Ladder ids in the order each filter must give them (ascending; ties by `_id`). */
export const EXISTS_ORDER = ["i", "f", "a", "d"];
export const NEGATIVE_ORDER = ["h", "c", "j"];

// API document, Endpoints › Inventory: "Default fields of a fermentables or hops list entry";
// docs/decisions.md: the same set for miscs and yeasts, each field only when the item has it.
export const DEFAULT_LIST_FIELDS = ["_id", "name", "inventory", "alpha", "supplier", "type", "attenuation", "use"];

/** The same value with keys in alphabetical order at every level, written here independently of src/. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const src = value as Doc;
  return Object.fromEntries(Object.keys(src).sort().map((k) => [k, canonical(src[k])]));
}

/** A list entry when `complete` is false: the default fields the item has, plus `include` roots. */
export function listEntry(doc: Doc, include: readonly string[] = []): Doc {
  const out: Doc = {};
  for (const k of [...DEFAULT_LIST_FIELDS, ...include]) if (k in doc) out[k] = doc[k];
  return canonical(out) as Doc;
}

/** The fields the service sets on every write (Inventory metadata fields). */
export const STAMP_FIELDS = ["_rev", "_timestamp", "_timestamp_ms", "updatedAt"];

export function withoutStamps(doc: Doc): Doc {
  const out: Doc = { ...doc };
  for (const k of STAMP_FIELDS) delete out[k];
  return out;
}
