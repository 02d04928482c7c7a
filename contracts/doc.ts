// Facts of the API document the checks rely on, written once.

export const STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"] as const;
export const COLLECTIONS = ["fermentables", "hops", "miscs", "yeasts"] as const;
export type Collection = (typeof COLLECTIONS)[number];

export const TEXT = {
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  notFound: "Not Found",
  updated: "Updated",
  deleted: "Deleted",
  nothingToUpdate: "Nothing to update",
  invalidDirection: "Invalid order by direction",
  missingId: "Missing ID",
  missingBody: "Missing body",
  invalidStatus: "Invalid status",
  invalidInventory: "Invalid inventory",
  invalidInventoryAdjust: "Invalid inventory_adjust",
  invalidField: (f: string) => `Invalid ${f}`,
} as const;

/**
 * Every numeric bound the document states, inclusive at both ends (max undefined = no upper bound).
 * `field` is the batch PATCH field, or a dot path into a recipe (`fermentables.0.potential`: index 0
 * of an array). `step` is the precision the bound is written in: bound ± step is the first value
 * outside. Rows with a `collection` are ingredient fields, checked on inventory items of it too (the
 * path inside the item is `field` without `<collection>.0.`). `part` is where the document states it.
 */
export interface Bound { on: "batch" | "recipe"; field: string; min: number; max?: number; step: number; collection?: Collection; part: string }

const GRAVITY = 0.001;
const DEFAULT_STEP = 0.01;

/** Rows of one object kind: every path shares the range. */
function rows(part: string, paths: string[], min: number, max: number, step = DEFAULT_STEP, collection?: Collection): Bound[] {
  return paths.map((field) => ({ on: "recipe", field, min, max, step, part, ...(collection ? { collection } : {}) }));
}
const ingredient = (c: Collection, part: string, fields: string[], min: number, max: number, step = DEFAULT_STEP) =>
  rows(part, fields.map((f) => `${c}.0.${f}`), min, max, step, c);

const HOP_OILS = ["myrcene", "humulene", "caryophyllene", "farnesene", "geraniol", "linalool"];
const HOP_AROMAS = ["floral", "grassy", "herbal", "earthy", "woody", "onion", "citrus", "fruity"];

export const BOUNDS: Bound[] = [
  // [Batches] PATCH table, and [Limits] "Batch PATCH bounds".
  { on: "batch", field: "measuredMashPh", min: 0, max: 14, step: DEFAULT_STEP, part: "Batches" },
  { on: "batch", field: "measuredBoilSize", min: 0, step: DEFAULT_STEP, part: "Batches" },
  { on: "batch", field: "measuredFirstWortGravity", min: 0.1, max: 1.9, step: GRAVITY, part: "Batches" },
  { on: "batch", field: "measuredPreBoilGravity", min: 0.1, max: 1.9, step: GRAVITY, part: "Batches" },
  { on: "batch", field: "measuredPostBoilGravity", min: 0.1, max: 1.9, step: GRAVITY, part: "Batches" },
  { on: "batch", field: "measuredKettleSize", min: 0, step: DEFAULT_STEP, part: "Batches" },
  { on: "batch", field: "measuredOg", min: 0.1, max: 1.9, step: GRAVITY, part: "Batches" },
  { on: "batch", field: "measuredFermenterTopUp", min: 0, step: DEFAULT_STEP, part: "Batches" },
  { on: "batch", field: "measuredBatchSize", min: 0, step: DEFAULT_STEP, part: "Batches" },
  { on: "batch", field: "measuredFg", min: 0.1, max: 1.9, step: GRAVITY, part: "Batches" },
  { on: "batch", field: "measuredBottlingSize", min: 0, step: DEFAULT_STEP, part: "Batches" },
  { on: "batch", field: "carbonationTemp", min: -50, max: 100, step: DEFAULT_STEP, part: "Batches" },
  // [Recipe Object] root fields, and [Limits] "Recipe bounds".
  { on: "recipe", field: "batchSize", min: 0.5, step: DEFAULT_STEP, part: "Recipes, Limits" },
  { on: "recipe", field: "efficiency", min: 35, max: 100, step: DEFAULT_STEP, part: "Recipes, Limits" },
  { on: "recipe", field: "mashEfficiency", min: 0, max: 100, step: DEFAULT_STEP, part: "Recipes, Limits" },
  { on: "recipe", field: "og", min: 1, max: 1.2, step: GRAVITY, part: "Recipes, Limits" },
  { on: "recipe", field: "color", min: 0, max: 100, step: DEFAULT_STEP, part: "Recipes, Limits" },
  { on: "recipe", field: "carbonation", min: 0, max: 5, step: DEFAULT_STEP, part: "Recipes, Limits" },
  // Nested recipe objects; the ingredient objects are also the inventory items [Inventory].
  ...ingredient("fermentables", "Fermentable Object", ["percentage"], 0, 100),
  ...ingredient("fermentables", "Fermentable Object", ["potential"], 1, 1.5, GRAVITY),
  ...ingredient("fermentables", "Fermentable Object", ["moisture", "protein", "attenuation"], 0, 100),
  ...ingredient("hops", "Hop Object", ["time"], 0, 365),
  ...ingredient("hops", "Hop Object", ["beta"], 0, 20),
  ...ingredient("hops", "Hop Object", ["hsi", "temp", ...HOP_OILS], 0, 100),
  ...ingredient("hops", "Hop Object", ["oil"], 0, 10),
  ...ingredient("hops", "Hop Aroma Object", HOP_AROMAS.map((a) => `aroma.${a}`), 0, 100),
  ...ingredient("yeasts", "Yeast Object", ["attenuation", "minAttenuation", "maxAttenuation"], 0, 100),
  ...ingredient("yeasts", "Yeast Object", ["maxAbv"], 0, 30),
  ...ingredient("miscs", "Misc Object", ["concentration"], 0, 100),
  ...rows("Fermentation Step Object", ["fermentation.steps.0.stepTemp", "fermentation.steps.0.pressure"], -100, 100),
  ...rows("Fermentation Step Object", ["fermentation.steps.0.stepTime", "fermentation.steps.0.ramp"], 0, 365),
  ...rows("Water Object", ["water.dilutionPercentage"], 0, 100),
  ...rows("Water Object", ["water.mashPh", "water.mashPhDistilled", "water.spargeWaterPh", "water.spargeWaterTargetPh"], 0, 14),
  // One profile and one salt stand for their objects: every Water Profile and Water Ingredient is the same object.
  ...rows("Water Profile Object", ["water.source.ph"], 0, 14),
  ...rows("Water Ingredient Object", ["water.settings.calciumChloride.concentration"], 0, 100),
];

/** One value to try against a bound: the edges are accepted, the first values outside refused. */
export interface BoundCase { bound: Bound; value: number; accepted: boolean; what: string }

export function boundCases(b: Bound): BoundCase[] {
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const out: BoundCase[] = [
    { bound: b, value: b.min, accepted: true, what: "lower edge, inclusive" },
    { bound: b, value: round(b.min - b.step), accepted: false, what: "first value below" },
  ];
  if (b.max !== undefined) {
    out.push(
      { bound: b, value: b.max, accepted: true, what: "upper edge, inclusive" },
      { bound: b, value: round(b.max + b.step), accepted: false, what: "first value above" },
    );
  }
  return out;
}

/** Batch PATCH table [Batches]: its numeric rows. */
export const PATCH_BOUNDS = BOUNDS.filter((b) => b.on === "batch");
/** Root recipe fields [Recipe Object, Limits]. */
export const RECIPE_BOUNDS = BOUNDS.filter((b) => b.on === "recipe" && !b.field.includes("."));
/** Fields of objects nested in a recipe. */
export const NESTED_BOUNDS = BOUNDS.filter((b) => b.on === "recipe" && b.field.includes("."));
/** Ingredient fields, as inventory items of their collection carry them. */
export const INVENTORY_BOUNDS = NESTED_BOUNDS.filter((b) => b.collection);

/** The path of an ingredient row inside an inventory item of its collection. */
export const itemPath = (b: Bound) => (b.collection ? b.field.slice(`${b.collection}.0.`.length) : b.field);

/**
 * Sets `path` (dot separated; a numeric segment is an array index) in `target`, making the objects
 * and arrays on the way. Returns `target`.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const keys = path.split(".");
  let at: any = target;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) { at[k] = value; return; }
    at[k] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
    at = at[k];
  });
  return target;
}
export const PATCH_FIELDS = ["status", ...PATCH_BOUNDS.map((b) => b.field)];

/**
 * Server-managed recipe fields [Recipe Object]: every root field starting with `_`, the named ones,
 * `createdAt`, `updatedAt` and `data`. `_kitExtra` stands for "any other `_` field".
 */
export const RECIPE_MANAGED = [
  "_id", "_uid", "_rev", "_type", "_init", "_public", "_origin", "_timestamp", "_created", "_timestamp_ms",
  "_app_metadata", "_share", "_ev", "_ev_updated", "_versionId", "_versionNumber", "_kitExtra",
  "createdAt", "updatedAt", "data",
];

/** Inventory create [Inventory]: root `_` fields and `createdAt` are ignored; `updatedAt` and revision fields are set by the service. */
export const INVENTORY_CREATE_MANAGED = ["_id", "_rev", "_data_rev", "_timestamp", "_created", "_timestamp_ms", "_kitExtra", "createdAt", "updatedAt"];
/** Inventory partial PATCH [Inventory, rule 2]: fields starting with `_` and `createdAt` are ignored. */
export const INVENTORY_PATCH_MANAGED = ["_id", "_rev", "_data_rev", "_timestamp", "_created", "_timestamp_ms", "_kitExtra", "createdAt"];

/**
 * A value for each managed field that no conforming service would produce itself: a marker string
 * unique to the run and field (`_public: true`, since it defaults to false and is not the client's).
 */
export function managedValues(fields: string[], marker: string): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, f === "_public" ? true : f === "data" ? { kitMarker: `${marker}${f}` } : `${marker}${f}`]));
}

/** Fields whose read-back value still carries what the client sent. */
export function keptManaged(record: Record<string, unknown>, sent: Record<string, unknown>): string[] {
  const markerOf = (v: unknown) => (typeof v === "string" ? v : (v as { kitMarker?: string }).kitMarker ?? "");
  return Object.entries(sent)
    .filter(([k, v]) => k in record && (v === true ? record[k] === true : JSON.stringify(record[k]).includes(markerOf(v))))
    .map(([k]) => k);
}

/** A list resource: its path, the default fields of a list entry (undefined = not shown), order_by candidates. */
export interface ListResource {
  key: string;
  path: string;
  scope: string;
  defaults?: string[];
  /** Fields usable with order_by that are also default fields, so their order can be seen. */
  orderFields: string[];
  include: string;
}

export const LISTS: ListResource[] = [
  { key: "batches", path: "/v2/batches", scope: "batches.read", defaults: ["_id", "name", "batchNo", "status", "brewer", "brewDate", "recipe.name"], orderFields: ["name", "batchNo", "brewDate", "status"], include: "recipe.fermentation,recipe.mash" },
  { key: "recipes", path: "/v2/recipes", scope: "recipes.read", defaults: ["_id", "name", "author", "type", "equipment.name", "style.name"], orderFields: ["name", "author", "type"], include: "fermentation,mash" },
  ...COLLECTIONS.map((c): ListResource => ({
    key: c,
    path: `/v2/inventory/${c}`,
    scope: "inventory.read",
    defaults: c === "fermentables" || c === "hops" ? ["_id", "name", "inventory", "alpha", "supplier", "type", "attenuation", "use"] : undefined,
    orderFields: ["name", "inventory"],
    include: "notes",
  })),
];

/** Fields a complete inventory response may add [Inventory metadata fields]. */
export const INVENTORY_METADATA = ["_rev", "_data_rev", "createdAt", "updatedAt", "_timestamp", "_created", "_timestamp_ms"];

/** Top-level keys allowed by a default-field list plus extra include paths. */
export function allowedRoots(defaults: string[], include: string[] = []): Set<string> {
  return new Set([...defaults, ...include].map((p) => p.split(".")[0]));
}
