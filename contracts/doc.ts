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
 * Every numeric bound the document states for a root field, inclusive at both ends (max undefined =
 * no upper bound). `step` is the precision the bound is written in: bound ± step is the first value
 * outside. Batch rows are the PATCH table [Batches, Limits]; recipe rows are [Recipe Object, Limits].
 */
export interface Bound { on: "batch" | "recipe"; field: string; min: number; max?: number; step: number }

export const BOUNDS: Bound[] = [
  { on: "batch", field: "measuredMashPh", min: 0, max: 14, step: 0.01 },
  { on: "batch", field: "measuredBoilSize", min: 0, step: 0.01 },
  { on: "batch", field: "measuredFirstWortGravity", min: 0.1, max: 1.9, step: 0.001 },
  { on: "batch", field: "measuredPreBoilGravity", min: 0.1, max: 1.9, step: 0.001 },
  { on: "batch", field: "measuredPostBoilGravity", min: 0.1, max: 1.9, step: 0.001 },
  { on: "batch", field: "measuredKettleSize", min: 0, step: 0.01 },
  { on: "batch", field: "measuredOg", min: 0.1, max: 1.9, step: 0.001 },
  { on: "batch", field: "measuredFermenterTopUp", min: 0, step: 0.01 },
  { on: "batch", field: "measuredBatchSize", min: 0, step: 0.01 },
  { on: "batch", field: "measuredFg", min: 0.1, max: 1.9, step: 0.001 },
  { on: "batch", field: "measuredBottlingSize", min: 0, step: 0.01 },
  { on: "batch", field: "carbonationTemp", min: -50, max: 100, step: 0.01 },
  { on: "recipe", field: "batchSize", min: 0.5, step: 0.01 },
  { on: "recipe", field: "efficiency", min: 35, max: 100, step: 0.01 },
  { on: "recipe", field: "mashEfficiency", min: 0, max: 100, step: 0.01 },
  { on: "recipe", field: "og", min: 1, max: 1.2, step: 0.001 },
  { on: "recipe", field: "color", min: 0, max: 100, step: 0.01 },
  { on: "recipe", field: "carbonation", min: 0, max: 5, step: 0.01 },
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
