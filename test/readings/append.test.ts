// The one check every appended reading passes (src/readings/append.ts; API document, Reading Object).
import { describe, expect, test } from "bun:test";
import { HttpError } from "../../src/http/errors.ts";
import { appendReading, readingToAppend } from "../../src/readings/append.ts";
import { openTestStore, STORE_KINDS } from "../helpers/stores.ts";

const NOW = 1_700_000_000_000;

describe("readingToAppend", () => {
  test("keeps the documented fields, turns numeric strings into numbers and drops the rest", () => {
    expect(readingToAppend({ time: "1700000000001", sg: "1.050", temp: 19, comment: null, type: "manual", rssi: "-70", extra: 1 }, NOW)).toEqual({ time: 1700000000001, sg: 1.05, temp: 19, comment: null, type: "manual", rssi: -70 });
  });
  test("a reading without time is at the time given as now", () => {
    expect(readingToAppend({ sg: 1.01 }, NOW)).toEqual({ time: NOW, sg: 1.01 });
  });
  for (const [name, input, field] of [
    ["a fractional time", { time: 1.5 }, "time"],
    ["a negative time", { time: -1 }, "time"],
    ["a non-numeric sg", { sg: "thick" }, "sg"],
    ["a null temp (typed as a number)", { temp: null }, "temp"],
    ["a pH of 14.5", { ph: 14.5 }, "ph"],
    ["a comment that is a number", { comment: 5 }, "comment"],
  ] as const) {
    test(`${name} is 400 Invalid ${field}`, () => {
      let caught: unknown;
      try {
        readingToAppend(input, NOW);
      } catch (e) {
        caught = e;
      }
      expect([(caught as HttpError).status, (caught as HttpError).body]).toEqual([400, `Invalid ${field}`]);
    });
  }
});

for (const kind of STORE_KINDS) {
  test(`appendReading adds to the batch's readings in time order, 404 for a batch not there (${kind})`, async () => {
    const { store, close } = await openTestStore(kind);
    try {
      await store.createUser("u", null);
      await store.importAll("u", { batches: [{ doc: { _id: "b", name: "b" }, readings: [{ time: 10, sg: 1.05, temp: 20, type: "manual" }] }], docs: [] });
      await appendReading(store, "u", "b", { time: 5, sg: "1.060", temp: 21 }, NOW);
      expect(JSON.parse((await store.readings("u", "b"))!)).toEqual([{ time: 5, sg: 1.06, temp: 21 }, { time: 10, sg: 1.05, temp: 20, type: "manual" }]);
      let caught: unknown;
      await appendReading(store, "u", "nope", { sg: 1 }, NOW).catch((e) => (caught = e));
      expect((caught as HttpError).status).toBe(404);
    } finally {
      await close();
    }
  });
}
