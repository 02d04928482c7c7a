import { describe, expect, test } from "bun:test";
import { buildCollection, catalogFile, serializeCollection } from "../../src/catalog/build.ts";
import { COLLECTIONS } from "../../src/catalog/index.ts";
import { colourFields } from "../../src/catalog/shape.ts";

describe("catalog build", () => {
  test.each(COLLECTIONS.map((c) => [c] as const))("committed %s.json equals what build.ts produces", async (collection) => {
    const committed = await Bun.file(catalogFile(collection)).text();
    expect(committed).toBe(serializeCollection(buildCollection(collection)));
  });

  test("building twice gives identical output", () => {
    for (const collection of COLLECTIONS) {
      expect(serializeCollection(buildCollection(collection))).toBe(serializeCollection(buildCollection(collection)));
    }
  });

  test("serialised JSON parses back to the same items", () => {
    const items = buildCollection("miscs");
    expect(JSON.parse(serializeCollection(items))).toEqual(items);
  });
});

// Pairs taken from the hosted service's own default objects: 6 EBC is stored as
// color 3.045685 and lovibond 2.8; 70 EBC as 35.532995 and 26.8; 7 EBC as 3.553299 and 3.2.
describe("colour conversion", () => {
  test.each([
    [6, 3.05, 2.8],
    [70, 35.53, 26.8],
    [7, 3.55, 3.2],
    [5, 2.54, 2.4],
    [3, 1.52, 1.7],
  ])("%d EBC is %d SRM and %d degrees Lovibond", (ebc, srm, lovibond) => {
    expect(colourFields({ ebc })).toEqual({ color: srm, lovibond });
  });

  test.each([
    [60, 80.52],
    [1.8, 1.68],
    [500, 676.54],
  ])("%d degrees Lovibond keeps its figure and is %d SRM", (lovibond, srm) => {
    expect(colourFields({ lovibond })).toEqual({ color: srm, lovibond });
  });

  test("colourless sugars stay at zero on both scales", () => {
    expect(colourFields({ ebc: 0 })).toEqual({ color: 0, lovibond: 0 });
    expect(colourFields({ lovibond: 0.5 })).toEqual({ color: 0, lovibond: 0.5 });
  });
});
