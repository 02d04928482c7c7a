import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { catalogId, catalogItem, catalogItems, COLLECTIONS, isCollection, type Collection } from "../../src/catalog/index.ts";

describe("catalogItem and catalogItems", () => {
  test("COLLECTIONS names the four inventory collections of the document", () => {
    expect([...COLLECTIONS]).toEqual(["fermentables", "hops", "miscs", "yeasts"]);
    expect(Object.isFrozen(COLLECTIONS)).toBe(true);
  });

  test("isCollection accepts exactly the four names", () => {
    for (const collection of COLLECTIONS) expect(isCollection(collection)).toBe(true);
    for (const name of ["fermentable", "Hops", "", "constructor", "__proto__", "misc"]) expect(isCollection(name)).toBe(false);
  });

  test("every listed item is found by its _id in its own collection and no other", () => {
    for (const collection of COLLECTIONS) {
      for (const item of catalogItems(collection)) {
        expect(catalogItem(collection, item._id as string)).toBe(item);
        for (const other of COLLECTIONS.filter((c) => c !== collection)) expect(catalogItem(other, item._id as string)).toBeUndefined();
      }
    }
  });

  test("a well-formed id of a name not in the catalog is not found", () => {
    expect(catalogItem("hops", catalogId("hops", "Not A Hop Variety"))).toBeUndefined();
    expect(catalogItem("hops", "default-0aa30343c0c")).toBeUndefined();
  });

  test("arbitrary strings are never found, including prototype keys", () => {
    const ids = new Set(COLLECTIONS.flatMap((c) => catalogItems(c).map((item) => item._id)));
    const arbitraryId = fc.oneof(fc.string(), fc.constantFrom("constructor", "__proto__", "toString", "hasOwnProperty"));
    fc.assert(
      fc.property(fc.constantFrom(...COLLECTIONS), arbitraryId, (collection, id) => {
        fc.pre(!ids.has(id));
        expect(catalogItem(collection, id)).toBeUndefined();
      }),
    );
  });

  test("an unknown collection name gives nothing rather than throwing", () => {
    for (const name of ["constructor", "__proto__", "recipes"]) {
      expect(catalogItem(name as Collection, "default-00000000000")).toBeUndefined();
      expect(catalogItems(name as Collection)).toEqual([]);
    }
  });

  test("callers cannot change the catalog: lists and items are frozen", () => {
    const list = catalogItems("yeasts") as Record<string, unknown>[];
    const item = list[0]!;
    const before = JSON.stringify(item);
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(item)).toBe(true);
    expect(() => {
      item.name = "changed";
    }).toThrow(TypeError);
    expect(() => {
      list.push({});
    }).toThrow(TypeError);
    expect(() => {
      delete item.hidden;
    }).toThrow(TypeError);
    expect(JSON.stringify(catalogItem("yeasts", item._id as string))).toBe(before);
  });

  test("a copy made with structuredClone is independent and mutable", () => {
    const original = catalogItems("hops")[0]!;
    const copy = structuredClone(original) as Record<string, unknown>;
    copy.inventory = 100;
    expect(original).not.toHaveProperty("inventory");
    expect(copy.inventory).toBe(100);
  });
});
