// The kinds of stored document and the API's default list fields for each.
export type IngredientCollection = "fermentables" | "hops" | "miscs" | "yeasts";
export type Kind = "batch" | "recipe" | IngredientCollection;

export const INGREDIENT_COLLECTIONS: readonly IngredientCollection[] = ["fermentables", "hops", "miscs", "yeasts"];

export function isIngredientCollection(value: string): value is IngredientCollection {
  return (INGREDIENT_COLLECTIONS as readonly string[]).includes(value);
}

// Batch Object / Recipe Object: "Default fields of a … list entry when complete is false".
// Inventory: the document lists one set for fermentables and hops; the same set serves miscs and
// yeasts (docs/decisions.md), so every collection's entry carries the same keys when present.
const INVENTORY_DEFAULTS = ["_id", "name", "inventory", "alpha", "supplier", "type", "attenuation", "use"];

export const DEFAULT_FIELDS: Record<Kind, readonly string[]> = {
  batch: ["_id", "name", "batchNo", "status", "brewer", "brewDate", "recipe.name"],
  recipe: ["_id", "name", "author", "type", "equipment.name", "style.name"],
  fermentables: INVENTORY_DEFAULTS,
  hops: INVENTORY_DEFAULTS,
  miscs: INVENTORY_DEFAULTS,
  yeasts: INVENTORY_DEFAULTS,
};

export const BATCH_STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export function isBatchStatus(value: unknown): value is BatchStatus {
  return typeof value === "string" && (BATCH_STATUSES as readonly string[]).includes(value);
}
