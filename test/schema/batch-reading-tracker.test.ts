// Batches (loose, for imports), readings and brew trackers: documented types, stated sets and
// the forms real objects take.
import { describe, expect, test } from "bun:test";
import { validateBatch, validateBrewTracker, validateReading } from "../../src/schema";
import * as samples from "./samples";

const rulesAt = (issues: { path: string; rule: string }[]) => issues.map((i) => [i.path, i.rule]);

describe("batch", () => {
  test("the sample batch and an empty object are valid", () => {
    expect(validateBatch(samples.batch())).toEqual([]);
    expect(validateBatch({})).toEqual([]);
  });
  test("a batch's recipe needs no name", () => {
    expect(validateBatch({ recipe: { og: 1.05 } })).toEqual([]);
  });
  test("measured values may be null", () => {
    expect(validateBatch({ measuredOg: null, measuredFg: null, measuredMashPh: null, tasteRating: null, carbonationForce: null })).toEqual([]);
  });
  test("checked is a number or a boolean; \"yes\" is invalid with rule type", () => {
    for (const checked of [0, 1, true, false]) {
      expect(validateBatch({ batchHops: [{ name: "Citra", checked }] })).toEqual([]);
    }
    expect(validateBatch({ batchHops: [{ name: "Citra", checked: "yes" }] })).toEqual([
      { path: "batchHops.0.checked", rule: "type", message: "batchHops.0.checked must be number or boolean" },
    ]);
  });
  test("inventory-tracking fields are typed on every batch ingredient array", () => {
    const bad = { removedFromInventory: "no", removedAmount: "1", removedUnit: 1, inventoryUnit: 2, notInRecipe: 0 };
    const doc = { batchFermentables: [bad], batchHopsLocal: [bad], batchMiscs: [bad], batchYeastsLocal: [bad] };
    const issues = validateBatch(doc);
    expect(issues).toHaveLength(20);
    expect(issues.every((i) => i.rule === "type")).toBe(true);
    expect(validateBatch({ batchMiscs: [{ inventoryUnit: null, removedUnit: "g", removedAmount: 3.5 }] })).toEqual([]);
  });
  test("notes, taste logs, measurements and events are arrays of objects", () => {
    expect(rulesAt(validateBatch({ notes: "x", tasteLogs: {}, measurements: 1, events: null }))).toEqual([
      ["events", "type"], ["measurements", "type"], ["notes", "type"], ["tasteLogs", "type"],
    ]);
  });
  test("a measurement value may be anything", () => {
    for (const value of [1.05, "20 L", null, { a: 1 }]) expect(validateBatch({ measurements: [{ value }] })).toEqual([]);
  });
  test("brewDate as an ISO string is invalid with rule type", () => {
    expect(rulesAt(validateBatch({ brewDate: "2023-07-12" }))).toEqual([["brewDate", "type"]]);
  });
});

describe("reading", () => {
  test("the sample device reading is valid", () => {
    expect(validateReading(samples.reading())).toEqual([]);
  });
  test("a manual reading with sg null is valid", () => {
    expect(validateReading({ temp: 22, sg: null, comment: "", time: 1689162288098, id: "manual", type: "manual" })).toEqual([]);
  });
  test("sg \"1.012\" is invalid with rule type", () => {
    expect(validateReading({ sg: "1.012" })).toEqual([{ path: "sg", rule: "type", message: "sg must be number or null" }]);
  });
  test("time null is invalid with rule type", () => {
    expect(rulesAt(validateReading({ time: null }))).toEqual([["time", "type"]]);
  });
});

describe("brew tracker", () => {
  test("an empty object (tracker not active) is valid", () => {
    expect(validateBrewTracker({})).toEqual([]);
  });
  test("the sample running tracker is valid, with endTime null on a step", () => {
    expect(validateBrewTracker(samples.brewTracker())).toEqual([]);
  });
  test("the root fields real trackers carry are typed: active \"yes\" is invalid with rule type", () => {
    expect(rulesAt(validateBrewTracker({ active: "yes" }))).toEqual([["active", "type"]]);
  });
  test("a stage's paused and a step's pauseBefore are booleans", () => {
    const doc = samples.brewTracker();
    doc.stages[0]!.paused = "no" as unknown as boolean;
    doc.stages[0]!.steps[0]!.pauseBefore = 0 as unknown as boolean;
    expect(rulesAt(validateBrewTracker(doc))).toEqual([["stages.0.paused", "type"], ["stages.0.steps.0.pauseBefore", "type"]]);
  });
});
