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

/** Batch PATCH table [Batches]: numeric fields and their inclusive bounds (max undefined = no upper bound). */
export const PATCH_BOUNDS: { field: string; min: number; max?: number }[] = [
  { field: "measuredMashPh", min: 0, max: 14 },
  { field: "measuredBoilSize", min: 0 },
  { field: "measuredFirstWortGravity", min: 0.1, max: 1.9 },
  { field: "measuredPreBoilGravity", min: 0.1, max: 1.9 },
  { field: "measuredPostBoilGravity", min: 0.1, max: 1.9 },
  { field: "measuredKettleSize", min: 0 },
  { field: "measuredOg", min: 0.1, max: 1.9 },
  { field: "measuredFermenterTopUp", min: 0 },
  { field: "measuredBatchSize", min: 0 },
  { field: "measuredFg", min: 0.1, max: 1.9 },
  { field: "measuredBottlingSize", min: 0 },
  { field: "carbonationTemp", min: -50, max: 100 },
];
export const PATCH_FIELDS = ["status", ...PATCH_BOUNDS.map((b) => b.field)];

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
