// Inventory items: `name` is the only required field on create; a PATCH (partial) requires
// nothing; metadata fields take the forms real items carry.
import { describe, expect, test } from "bun:test";
import { validateIngredient, type IngredientCollection } from "../../src/schema";
import * as samples from "./samples";

const SAMPLES: Record<IngredientCollection, () => Record<string, unknown>> = {
  fermentables: samples.fermentable,
  hops: samples.hop,
  miscs: samples.misc,
  yeasts: samples.yeast,
};

for (const c of Object.keys(SAMPLES) as IngredientCollection[]) {
  describe(`inventory ${c}`, () => {
    test("the sample item is valid on create", () => {
      expect(validateIngredient(c, SAMPLES[c]())).toEqual([]);
    });
    test("{ name: \"x\" } is valid on create", () => {
      expect(validateIngredient(c, { name: "x" })).toEqual([]);
    });
    test("{} is invalid on create with rule required at path name", () => {
      expect(validateIngredient(c, {})).toEqual([{ path: "name", rule: "required", message: "name is required" }]);
    });
    test("name \"\" is invalid on create with rule minLength", () => {
      expect(validateIngredient(c, { name: "" })).toEqual([{ path: "name", rule: "minLength", message: "name must not be empty" }]);
    });
    test("{} is valid as a partial update", () => {
      expect(validateIngredient(c, {}, { partial: true })).toEqual([]);
    });
    test("name \"\" is invalid as a partial update too", () => {
      expect(validateIngredient(c, { name: "" }, { partial: true }).map((i) => i.rule)).toEqual(["minLength"]);
    });
    test("a partial update validates the fields it sends: inventory \"lots\" is a type issue", () => {
      expect(validateIngredient(c, { inventory: "lots" }, { partial: true })).toEqual([
        { path: "inventory", rule: "type", message: "inventory must be number or null" },
      ]);
    });
    test("unknown fields are accepted", () => {
      expect(validateIngredient(c, { name: "x", userNotes: "", substitutes: "", fan: null, lotNumber: "L1" })).toEqual([]);
    });
    test("metadata in real forms is valid: _timestamp object, _timestamp_ms number or string, ISO createdAt", () => {
      const meta = {
        _rev: "mvNyk7rdJz8iu9jWpJi3hoWMAiREuJ",
        _data_rev: null,
        _timestamp: { _seconds: 1742576518, _nanoseconds: 155000000 },
        _created: { _seconds: 1696159317, _nanoseconds: 352000000 },
        createdAt: "2024-03-21T17:01:58.155Z",
        updatedAt: "2024-03-21T17:01:58.155Z",
      };
      expect(validateIngredient(c, { name: "x", ...meta, _timestamp_ms: 1742576518155 })).toEqual([]);
      expect(validateIngredient(c, { name: "x", ...meta, _timestamp_ms: "1742576518155" })).toEqual([]);
    });
    test("createdAt 5 is invalid with rule type", () => {
      expect(validateIngredient(c, { name: "x", createdAt: 5 }).map((i) => [i.path, i.rule])).toEqual([["createdAt", "type"]]);
    });
    test("inventory may be negative, zero or null", () => {
      for (const inventory of [-3, 0, null]) expect(validateIngredient(c, { name: "x", inventory })).toEqual([]);
    });
  });
}

describe("documented types against real data", () => {
  test("fermentable attenuation as a fraction (0.81) and as a percent (81) are both valid", () => {
    expect(validateIngredient("fermentables", { name: "x", attenuation: 0.81 })).toEqual([]);
    expect(validateIngredient("fermentables", { name: "x", attenuation: 81 })).toEqual([]);
  });
  test("hop amount null (as real inventory hops carry it) is valid", () => {
    expect(validateIngredient("hops", { name: "Citra", amount: null })).toEqual([]);
  });
  test("misc time null and ingredient notes null are valid", () => {
    expect(validateIngredient("miscs", { name: "Irish moss", time: null, notes: null })).toEqual([]);
    expect(validateIngredient("hops", { name: "Citra", notes: null })).toEqual([]);
  });
  test("yeast maxAbv 30 is valid and 30.5 is invalid with rule maximum", () => {
    expect(validateIngredient("yeasts", { name: "x", maxAbv: 30 })).toEqual([]);
    expect(validateIngredient("yeasts", { name: "x", maxAbv: 30.5 })).toEqual([{ path: "maxAbv", rule: "maximum", message: "maxAbv must be <= 30" }]);
  });
  test("an unknown collection is refused with a RangeError", () => {
    expect(() => validateIngredient("grains" as IngredientCollection, { name: "x" })).toThrow(RangeError);
  });
});
