import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { CATALOG_ID_PATTERN, catalogId, catalogItems, COLLECTIONS } from "../../src/catalog/index.ts";

const everyItem = COLLECTIONS.flatMap((collection) => catalogItems(collection).map((item) => ({ collection, item })));

describe("catalog ids", () => {
  test("every _id is `default-` followed by 11 lowercase hex digits", () => {
    const bad = everyItem.filter(({ item }) => !CATALOG_ID_PATTERN.test(String(item._id)));
    expect(bad.map(({ item }) => item._id)).toEqual([]);
  });

  test("no _id repeats anywhere in the catalog, across collections", () => {
    const ids = everyItem.map(({ item }) => item._id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("every stored _id is the one derived from its collection and name", () => {
    const drifted = everyItem.filter(({ collection, item }) => item._id !== catalogId(collection, String(item.name)));
    expect(drifted.map(({ item }) => item.name)).toEqual([]);
  });

  // Pinned values: changing the derivation would orphan every user's edited copy of a default.
  test.each([
    ["fermentables", "Maris Otter", "default-6a992118250"],
    ["hops", "Cascade", "default-8cd173a97cc"],
    ["yeasts", "SafAle US-05", "default-fd3343e4560"],
    ["miscs", "Irish Moss", "default-cab82686f7e"],
  ] as const)("%s %s keeps the id %s", (collection, name, id) => {
    expect(catalogId(collection, name)).toBe(id);
    expect(catalogItems(collection).some((item) => item._id === id && item.name === name)).toBe(true);
  });

  test("the id is the SHA-256 prefix of `<collection>:<name>`", () => {
    // Independent digest through node:crypto, so the test does not restate the implementation.
    fc.assert(
      fc.property(fc.constantFrom(...COLLECTIONS), fc.string({ unit: "grapheme", maxLength: 40 }), (collection, name) => {
        const hex = createHash("sha256").update(`${collection}:${name}`, "utf8").digest("hex");
        expect(catalogId(collection, name)).toBe(`default-${hex.slice(0, 11)}`);
        expect(catalogId(collection, name)).toMatch(CATALOG_ID_PATTERN);
      }),
    );
  });

  test("the same name in two collections gets two different ids", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (name) => {
        const ids = COLLECTIONS.map((collection) => catalogId(collection, name));
        expect(new Set(ids).size).toBe(COLLECTIONS.length);
      }),
    );
  });
});
