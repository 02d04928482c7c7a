import type { Collection } from "./collections.ts";
import fermentables from "./fermentables.json";
import hops from "./hops.json";
import miscs from "./miscs.json";
import yeasts from "./yeasts.json";

// The default ingredient catalog every account can read by `_id` (API document, "Inventory":
// the list holds only items a user added, edited from defaults or stocked; the rest are defaults).
// Items are deep-frozen once at load, so callers share them without being able to corrupt them.

export { COLLECTIONS, isCollection, type Collection } from "./collections.ts";
export { CATALOG_ID_PATTERN, catalogId } from "./ids.ts";

type Item = Record<string, unknown>;

function freezeAll(items: readonly Item[]): readonly Item[] {
  for (const item of items) Object.freeze(item);
  return Object.freeze(items);
}

// Maps, not plain objects: a collection name from a request such as "constructor" must miss.
const ITEMS: ReadonlyMap<Collection, readonly Item[]> = new Map<Collection, readonly Item[]>([
  ["fermentables", freezeAll(fermentables as Item[])],
  ["hops", freezeAll(hops as Item[])],
  ["miscs", freezeAll(miscs as Item[])],
  ["yeasts", freezeAll(yeasts as Item[])],
]);

const BY_ID: ReadonlyMap<Collection, ReadonlyMap<string, Item>> = new Map(
  [...ITEMS].map(([collection, items]) => [collection, new Map(items.map((item) => [item._id as string, item]))]),
);

const NONE: readonly Item[] = Object.freeze([]);

/** One default item by `_id`, or undefined when the collection has no such default. O(1). */
export function catalogItem(collection: Collection, id: string): Record<string, unknown> | undefined {
  return BY_ID.get(collection)?.get(id);
}

/** Every default item of a collection, ordered by `_id`. The array and its items are frozen. */
export function catalogItems(collection: Collection): readonly Record<string, unknown>[] {
  return ITEMS.get(collection) ?? NONE;
}
