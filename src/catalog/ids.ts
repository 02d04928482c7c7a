import type { Collection } from "./collections.ts";

// Default items share one id shape (`default-` + 11 hex), as the hosted service's do.
export const CATALOG_ID_PATTERN = /^default-[0-9a-f]{11}$/;

/**
 * The stable `_id` of a default item: the first 11 hex digits of SHA-256 over
 * "<collection>:<name>". Derived, never stored by hand, so an id survives any
 * re-ordering or correction of figures as long as the item keeps its name.
 */
export function catalogId(collection: Collection, name: string): string {
  const hex = new Bun.CryptoHasher("sha256").update(`${collection}:${name}`).digest("hex");
  return `default-${hex.slice(0, 11)}`;
}
