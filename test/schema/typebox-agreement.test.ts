// The schemas are plain TypeBox, so TypeBox's own checker (used by Elysia routes) and the ajv
// validators must agree on what is valid.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { Batch, BrewTracker, InventoryCreate, Reading, Recipe, validateBatch, validateBrewTracker, validateIngredient, validateReading, validateRecipe } from "../../src/schema";
import * as samples from "./samples";

const CASES: [string, TSchema, (d: unknown) => unknown[], unknown[]][] = [
  ["Recipe", Recipe, validateRecipe, [
    samples.recipe(), { name: "x" }, {}, { name: "" }, { name: "x", og: 1.3 }, { name: "x", type: "BIAB" },
    { name: "x", style: null }, { name: "x", tags: null }, { name: "x", water: { source: { ph: "6.3" } } },
    { name: "x", water: { source: { ph: "acid" } } }, { name: "x", hops: [{ usage: "" }] }, { name: "x", hops: [{ beta: null }] },
  ]],
  ["Batch", Batch, validateBatch, [samples.batch(), {}, { status: "Done" }, { batchHops: [{ checked: 1 }] }, { tasteRating: 0 }]],
  ["Reading", Reading, validateReading, [samples.reading(), { sg: null }, { sg: "1" }, { ph: 15 }]],
  ["BrewTracker", BrewTracker, validateBrewTracker, [samples.brewTracker(), {}, { stages: [{ type: "timer" }] }]],
  ["InventoryCreate.hops", InventoryCreate.hops, (d) => validateIngredient("hops", d), [samples.hop(), {}, { name: "" }, { name: "x", amount: null }]],
];

describe("TypeBox Value.Check agrees with the ajv validators", () => {
  for (const [name, schema, validate, docs] of CASES) {
    test(`${name}: ${docs.length} documents judged alike`, () => {
      for (const doc of docs) expect([JSON.stringify(doc).slice(0, 80), Value.Check(schema, doc)]).toEqual([JSON.stringify(doc).slice(0, 80), validate(doc).length === 0]);
    });
  }
});
