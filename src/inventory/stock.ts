import { badRequest, ERRORS } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { parseNumeric } from "../lib/numeric.ts";

// Inventory PATCH modes (API document, Inventory, rules 1–4), as a pure function of the body.

/**
 * Stock amounts are rounded to 6 decimals after every change, so +0.1 ten times is exactly 1.
 * Past 2^53 millionths a double holds no sixth decimal to round, and scaling could overflow to
 * Infinity (stored as null): such amounts are kept as they are.
 */
export function roundStock(n: number): number {
  if (Math.abs(n) * 1e6 > Number.MAX_SAFE_INTEGER) return n;
  const r = Math.round(n * 1e6) / 1e6;
  return Object.is(r, -0) ? 0 : r;
}

export type StockChange = { set: number } | { adjust: number } | undefined;

export interface InventoryPatch {
  mode: "inventory-only" | "partial";
  /** Fields to write as sent (partial mode), `_` fields and createdAt/updatedAt removed. */
  fields: Doc;
  stock: StockChange;
}

/**
 * Splits a PATCH body into its mode, the fields to validate and write, and the stock change.
 * `inventory` wins over `inventory_adjust`; both must be finite numbers or numeric strings.
 */
export function planInventoryPatch(body: Doc, serverManaged: readonly string[]): InventoryPatch {
  const { inventory, inventory_adjust: adjust, ...rest } = body;
  const fields: Doc = {};
  for (const [k, v] of Object.entries(rest)) if (!k.startsWith("_") && !serverManaged.includes(k)) fields[k] = v;
  const partial = Object.keys(rest).length > 0;
  let setTo: number | undefined;
  if ("inventory" in body) {
    setTo = parseNumeric(inventory);
    if (setTo === undefined) {
      // Partial mode validates `inventory` with the collection's schema, like any other sent field.
      if (!partial) throw badRequest(ERRORS.invalidInventory);
      fields.inventory = inventory;
    }
  }
  let adjustBy: number | undefined;
  if ("inventory_adjust" in body) {
    adjustBy = parseNumeric(adjust);
    if (adjustBy === undefined) throw badRequest(ERRORS.invalidInventoryAdjust);
  }
  const stock: StockChange = setTo !== undefined ? { set: setTo } : adjustBy !== undefined && !("inventory" in fields) ? { adjust: adjustBy } : undefined;
  return { mode: partial ? "partial" : "inventory-only", fields, stock };
}

/** The new stock, or undefined when it does not change. An adjustment past the largest double is refused. */
export function applyStock(current: unknown, change: StockChange): number | undefined {
  if (!change) return undefined;
  if ("set" in change) return roundStock(change.set);
  const base = typeof current === "number" && Number.isFinite(current) ? current : 0;
  const next = base + change.adjust;
  if (!Number.isFinite(next)) throw badRequest(ERRORS.invalidInventoryAdjust);
  return roundStock(next);
}
