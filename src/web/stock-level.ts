import type { IngredientCollection } from "../resources.ts";

// How the inventory pages mark stock (docs/decisions.md, Pages): below zero more was used than was
// kept; at zero none is left; below a collection's threshold it is running low. Miscellaneous items
// come in many units (g, ml, items), so no one threshold fits them: they are marked out or negative only.

export type StockLevel = "negative" | "out" | "low" | "ok" | "unknown";

export const LOW_STOCK: Record<IngredientCollection, number | undefined> = {
  fermentables: 1, // kg: less than most grists need of a base malt
  hops: 50, // g: less than one batch's additions
  yeasts: 1, // packages: part of one
  miscs: undefined,
};

export const COLLECTION_LABEL: Record<IngredientCollection, string> = {
  fermentables: "Fermentables",
  hops: "Hops",
  miscs: "Other ingredients",
  yeasts: "Yeasts",
};

/** The unit a collection's stock is counted in; miscs and yeasts name their own. */
export function stockUnit(c: IngredientCollection, item: { unit?: unknown }): string {
  if (c === "fermentables") return "kg";
  if (c === "hops") return "g";
  if (typeof item.unit === "string" && item.unit.trim() !== "") return item.unit;
  return c === "yeasts" ? "pkg" : "";
}

export function stockLevel(c: IngredientCollection, stock: unknown): StockLevel {
  if (typeof stock !== "number" || !Number.isFinite(stock)) return "unknown";
  if (stock < 0) return "negative";
  if (stock === 0) return "out";
  const low = LOW_STOCK[c];
  return low !== undefined && stock < low ? "low" : "ok";
}

export const LEVEL_TEXT: Record<StockLevel, string> = { negative: "Negative", out: "Out of stock", low: "Low", ok: "", unknown: "Not counted" };
