// The contract kit's bounds table and its sampling: pure functions, no server.
import { expect, test } from "bun:test";
import { BOUNDS, INVENTORY_BOUNDS, NESTED_BOUNDS, RECIPE_BOUNDS, boundCases, itemPath, setPath } from "../contracts/doc.ts";
import { sampleCases } from "../contracts/property.ts";

test("setPath makes the arrays and objects on a nested path and keeps what is there", () => {
  const body = setPath({ name: "r", fermentation: { name: "f" } }, "fermentation.steps.0.stepTemp", 18);
  setPath(body, "fermentation.steps.0.ramp", 2);
  setPath(body, "hops.0.aroma.floral", 100);
  expect(body).toEqual({ name: "r", fermentation: { name: "f", steps: [{ stepTemp: 18, ramp: 2 }] }, hops: [{ aroma: { floral: 100 } }] });
});

test("each nested bound has both edges and the first value outside each, one step of its precision away", () => {
  const potential = NESTED_BOUNDS.find((b) => b.field === "fermentables.0.potential")!;
  expect(boundCases(potential).map((c) => [c.value, c.accepted])).toEqual([[1, true], [0.999, false], [1.5, true], [1.501, false]]);
  expect(boundCases(NESTED_BOUNDS.find((b) => b.field === "fermentation.steps.0.stepTemp")!).map((c) => c.value)).toEqual([-100, -100.01, 100, 100.01]);
  for (const b of NESTED_BOUNDS) expect([b.field, b.max !== undefined]).toEqual([b.field, true]);
});

test("the table splits into batch PATCH, root recipe, nested recipe and inventory rows without losing one", () => {
  expect(BOUNDS.filter((b) => b.on === "batch").length + RECIPE_BOUNDS.length + NESTED_BOUNDS.length).toBe(BOUNDS.length);
  expect(RECIPE_BOUNDS.map((b) => b.field)).toEqual(["batchSize", "efficiency", "mashEfficiency", "og", "color", "carbonation"]);
  expect(NESTED_BOUNDS.length).toBe(40);
  expect(INVENTORY_BOUNDS.length).toBe(29);
  expect(new Set(BOUNDS.map((b) => `${b.on} ${b.field}`)).size).toBe(BOUNDS.length);
  expect(INVENTORY_BOUNDS.filter((b) => b.collection === "hops").map(itemPath)).toContain("aroma.citrus");
});

test("sampleCases takes every case when the calls allow, else an evenly spread deterministic sample of at least one", () => {
  const cases = Array.from({ length: 80 }, (_, i) => i);
  expect(sampleCases(cases, 80, 5)).toEqual(cases);
  expect(sampleCases(cases, 500, 5)).toEqual(cases);
  expect(sampleCases(cases, 0, 5)).toHaveLength(1);
  expect(sampleCases(cases, -10, 5)).toHaveLength(1);
  const ten = sampleCases(cases, 10, 13);
  expect(ten).toEqual(sampleCases(cases, 10, 13));
  expect(ten).toEqual([5, 13, 21, 29, 37, 45, 53, 61, 69, 77]);
  expect(sampleCases(cases, 10, 14)).not.toEqual(ten);
});
