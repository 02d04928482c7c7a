import { describe, expect, test } from "bun:test";
import { catalogItems, COLLECTIONS, type Collection } from "../../src/catalog/index.ts";

// Field lists of the API document's Fermentable, Hop, Yeast and Misc Objects: a default item
// may carry only these.
const DOCUMENT_FIELDS: Record<Collection, readonly string[]> = {
  fermentables: ["_id", "name", "type", "grainCategory", "amount", "percentage", "color", "lovibond", "use", "time", "timeUnit", "origin", "supplier", "potential", "moisture", "diastaticPower", "protein", "attenuation", "notFermentable", "inventory", "costPerAmount", "notes", "hidden"],
  hops: ["_id", "name", "alpha", "amount", "use", "time", "timeUnit", "type", "ibu", "beta", "hsi", "origin", "usage", "temp", "year", "oil", "myrcene", "humulene", "caryophyllene", "farnesene", "geraniol", "linalool", "aroma", "inventory", "costPerAmount", "notes", "hidden"],
  miscs: ["_id", "name", "type", "use", "time", "timeUnit", "amount", "unit", "amountPerL", "concentration", "waterAdjustment", "inventory", "costPerAmount", "notes", "hidden"],
  yeasts: ["_id", "name", "type", "form", "amount", "unit", "laboratory", "productId", "flocculation", "attenuation", "minAttenuation", "maxAttenuation", "minTemp", "maxTemp", "maxAbv", "notes", "bestFor", "starter", "starterSize", "inventory", "costPerAmount", "hidden"],
};

const REQUIRED: Record<Collection, readonly string[]> = {
  fermentables: ["_id", "name", "type", "color", "lovibond", "potential", "notFermentable", "hidden"],
  hops: ["_id", "name", "alpha", "type", "use", "time", "ibu", "origin", "usage", "hidden"],
  miscs: ["_id", "name", "type", "use", "time", "timeUnit", "amount", "unit", "waterAdjustment", "hidden"],
  yeasts: ["_id", "name", "type", "form", "amount", "unit", "laboratory", "productId", "flocculation", "minTemp", "maxTemp", "bestFor", "hidden"],
};

const MINIMUM_COUNT: Record<Collection, number> = { fermentables: 110, hops: 110, miscs: 35, yeasts: 55 };

describe.each(COLLECTIONS.map((c) => [c] as const))("%s", (collection) => {
  const items = catalogItems(collection);

  test(`holds at least ${MINIMUM_COUNT[collection]} items`, () => {
    expect(items.length).toBeGreaterThanOrEqual(MINIMUM_COUNT[collection]);
  });

  test("items carry only the document's fields for this collection", () => {
    const allowed = new Set(DOCUMENT_FIELDS[collection]);
    const extra = items.flatMap((item) => Object.keys(item).filter((key) => !allowed.has(key)).map((key) => `${item.name}.${key}`));
    expect(extra).toEqual([]);
  });

  test("items carry every field a default needs", () => {
    const missing = items.flatMap((item) => REQUIRED[collection].filter((key) => !(key in item)).map((key) => `${item.name}.${key}`));
    expect(missing).toEqual([]);
  });

  test("no item has stock or a null field: stock belongs to a user's copy, unset fields are omitted", () => {
    expect(items.filter((item) => "inventory" in item).map((item) => item.name)).toEqual([]);
    expect(items.filter((item) => Object.values(item).some((v) => v === null)).map((item) => item.name)).toEqual([]);
  });

  test("every item is visible (hidden: false)", () => {
    expect(items.every((item) => item.hidden === false)).toBe(true);
  });

  test("keys are in alphabetical order within each item", () => {
    const unordered = items.filter((item) => Object.keys(item).join() !== Object.keys(item).sort().join());
    expect(unordered.map((item) => item.name)).toEqual([]);
  });

  test("items are sorted by _id, strictly ascending", () => {
    const ids = items.map((item) => String(item._id));
    expect(ids.every((id, i) => i === 0 || ids[i - 1]! < id)).toBe(true);
  });

  test("no two items share a name", () => {
    const names = items.map((item) => String(item.name).toLowerCase());
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  test("names and notes are trimmed, non-empty strings", () => {
    for (const item of items) {
      for (const key of ["name", "notes", "bestFor", "supplier", "origin"]) {
        if (!(key in item)) continue;
        const value = item[key];
        expect(typeof value).toBe("string");
        expect((value as string).length).toBeGreaterThan(0);
        expect(value).toBe((value as string).trim());
      }
    }
  });
});
