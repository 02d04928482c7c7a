import { COLLECTIONS, type Collection } from "./collections.ts";
import { catalogId } from "./ids.ts";
import { fermentableFields, hopFields, miscFields, yeastFields, type Fields } from "./shape.ts";
import { HOPS } from "./tables/hops.ts";
import { CONTINENTAL_MALTS } from "./tables/malts-continental.ts";
import { UK_US_MALTS } from "./tables/malts-uk-us.ts";
import { MISCS } from "./tables/miscs.ts";
import { SUGARS_EXTRACTS } from "./tables/sugars-extracts.ts";
import { YEASTS } from "./tables/yeasts.ts";

// Generates src/catalog/<collection>.json from the tables in ./tables.
// Run `bun src/catalog/build.ts` after editing a table; a test fails while the JSON is stale.

export type CatalogItem = Record<string, string | number | boolean>;

function sourceFields(collection: Collection): Fields[] {
  switch (collection) {
    case "fermentables":
      return [...CONTINENTAL_MALTS, ...UK_US_MALTS, ...SUGARS_EXTRACTS].map(fermentableFields);
    case "hops":
      return HOPS.map(hopFields);
    case "miscs":
      return MISCS.map(miscFields);
    case "yeasts":
      return YEASTS.map(yeastFields);
  }
}

/** Adds `_id` and `hidden`, drops unset fields and orders keys alphabetically, as list responses are. */
function finish(collection: Collection, fields: Fields): CatalogItem {
  const all: Fields = { ...fields, _id: catalogId(collection, String(fields.name)), hidden: false };
  const item: CatalogItem = {};
  for (const key of Object.keys(all).sort()) {
    const value = all[key];
    if (value !== undefined) item[key] = value;
  }
  return item;
}

/** Every default item of one collection, sorted by `_id` (the API's default list order). */
export function buildCollection(collection: Collection): CatalogItem[] {
  const items = sourceFields(collection).map((fields) => finish(collection, fields));
  const seen = new Set<string>();
  for (const item of items) {
    // Ids derive from names, so a repeated name would silently merge two items.
    if (seen.has(String(item.name))) throw new Error(`duplicate ${collection} name: ${item.name}`);
    seen.add(String(item.name));
  }
  return items.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}

export function serializeCollection(items: readonly CatalogItem[]): string {
  return `${JSON.stringify(items, null, 2)}\n`;
}

export function catalogFile(collection: Collection): URL {
  return new URL(`./${collection}.json`, import.meta.url);
}

if (import.meta.main) {
  for (const collection of COLLECTIONS) {
    const items = buildCollection(collection);
    await Bun.write(catalogFile(collection), serializeCollection(items));
    console.log(`${collection}: ${items.length} items`);
  }
}
