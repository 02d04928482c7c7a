import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, type Doc } from "../../src/lib/json.ts";
import type { Store, StoredJson } from "../../src/store/types.ts";
import { openTestStore, STORE_KINDS, type OpenedStore, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// Readings as rows (docs/decisions.md, "Readings"), the same assertions on SQLite and PostgreSQL. The
// model is what the store answered when it kept one array: the imported list sorted stably by
// Number(time) || 0, as canonical JSON text.
const model = (readings: Doc[]) => canonicalJson([...readings].sort((a, b) => (Number(a.time) || 0) - (Number(b.time) || 0)));
// A range with neither end is no range: the whole list.
const inRange = (r: Doc, since?: number, until?: number) =>
  (since === undefined && until === undefined) || (typeof r.time === "number" && (since === undefined || r.time >= since) && (until === undefined || r.time <= until));
const text = (v: StoredJson | undefined) => (v === undefined || typeof v === "string" ? v : new TextDecoder().decode(v));

for (const kind of STORE_KINDS) {
  describe(`${kind} store: readings as rows`, () => {
    let opened: OpenedStore;
    let store: Store;
    beforeAll(async () => {
      opened = await openTestStore(kind);
      store = opened.store;
      await store.createUser("ann", null);
    });
    afterAll(() => opened.close(), DROP_TIMEOUT_MS);

    // Equal times keep the order they came in; a reading without time sits at 0, before time 5.
    const imported: Doc[] = [
      { time: 30, sg: 1.03, id: "a" },
      { sg: 1.09, id: "no-time" },
      { time: 10, sg: 1.05, id: "b" },
      { time: 30, sg: 1.031, id: "c" },
      { time: 5, temp: 20.5, comment: "é \u2028 \"q\"", id: "d", z: { b: 1, a: [2, { y: 1, x: 0 }] } },
    ];

    test("an imported list reads back in today's order, byte for byte, as text and as bytes", async () => {
      await store.importAll("ann", { batches: [{ doc: { _id: "b1", name: "One" }, readings: imported }], docs: [] });
      expect(await store.readings("ann", "b1")).toBe(model(imported));
      expect(text(await store.readings("ann", "b1", "bytes"))).toBe(model(imported));
      // Of the two at the greatest time, the one that came last.
      expect(await store.lastReading("ann", "b1")).toBe('{"id":"c","sg":1.031,"time":30}');
    });

    test("a range answers the readings whose time is a number within it, inclusive, in the same order", async () => {
      const ids = async (since?: number, until?: number) => JSON.parse((await store.readings("ann", "b1", undefined, { since, until }))!).map((r: Doc) => r.id);
      expect(await ids(10, 30)).toEqual(["b", "a", "c"]);
      expect(await ids(11, 29)).toEqual([]);
      expect(await ids(undefined, 10)).toEqual(["d", "b"]);
      expect(await ids(30)).toEqual(["a", "c"]);
      // A reading without a time is in the whole list only, never in a range, even one holding 0.
      expect(await ids(-1, 1)).toEqual([]);
      expect(await ids()).toEqual(["no-time", "d", "b", "a", "c"]);
      expect(await store.readings("ann", "nope", undefined, { since: 0 })).toBeUndefined();
      expect(text(await store.readings("ann", "b1", "bytes", { since: 30, until: 30 }))).toBe('[{"id":"a","sg":1.03,"time":30},{"id":"c","sg":1.031,"time":30}]');
    });

    test("appendReading keeps time order, replaces the readings at its time, and is false without a batch", async () => {
      expect(await store.appendReading("ann", "b1", { time: 20, sg: 1.04 })).toBe(true);
      expect(await store.appendReading("ann", "b1", { time: 40, sg: 1.02 })).toBe(true);
      expect(await store.lastReading("ann", "b1")).toBe('{"sg":1.02,"time":40}');
      // A retried post at one time leaves one reading there; the two imported at 30 give way to it too.
      expect(await store.appendReading("ann", "b1", { time: 40, sg: 1.021 })).toBe(true);
      expect(await store.appendReading("ann", "b1", { time: 30, sg: 1.3 })).toBe(true);
      const all = JSON.parse((await store.readings("ann", "b1"))!) as Doc[];
      expect(all.map((r) => [r.time ?? null, r.sg ?? null])).toEqual([[null, 1.09], [5, null], [10, 1.05], [20, 1.04], [30, 1.3], [40, 1.021]]);
      expect(await store.appendReading("ann", "nope", { time: 1 })).toBe(false);
      expect(await store.readings("ann", "nope")).toBeUndefined();
      expect(await store.appendReading("bob", "b1", { time: 1 })).toBe(false);
      // A reading at 0 goes after the one without time (both sort at 0), which it does not replace.
      expect(await store.appendReading("ann", "b1", { time: 0, sg: 1.1 })).toBe(true);
      expect(JSON.parse((await store.readings("ann", "b1"))!).slice(0, 2)).toEqual([{ sg: 1.09, id: "no-time" }, { time: 0, sg: 1.1 }]);
      await expect(store.appendReading("ann", "b1", { time: Number.NaN })).rejects.toThrow("a reading to append needs a numeric time");
    });

    test("a batch without a list gets one at its first append; deleting its last reading leaves []", async () => {
      await store.insert("ann", "batch", { _id: "b2", name: "Two" });
      expect(await store.readings("ann", "b2")).toBeUndefined();
      expect(await store.lastReading("ann", "b2")).toBeUndefined();
      expect(await store.appendReading("ann", "b2", { time: 1_700_000_000_000, sg: 1.05, rssi: -75 })).toBe(true);
      expect(await store.readings("ann", "b2")).toBe('[{"rssi":-75,"sg":1.05,"time":1700000000000}]');
      expect(await store.deleteReading("ann", "b2", 1_700_000_000_001)).toBe(false);
      expect(await store.deleteReading("ann", "b2", 1_700_000_000_000)).toBe(true);
      expect(await store.deleteReading("ann", "b2", 1_700_000_000_000)).toBe(false);
      expect(await store.readings("ann", "b2")).toBe("[]");
      expect(await store.lastReading("ann", "b2")).toBeUndefined();
      expect(await store.deleteReading("ann", "nope", 1)).toBe(false);
    });

    test("concurrent appends of one time leave one reading; of distinct times, every one", async () => {
      await store.insert("ann", "batch", { _id: "b3" });
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.appendReading("ann", "b3", { time: 7, n: i })));
      expect(JSON.parse((await store.readings("ann", "b3"))!)).toHaveLength(1);
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.appendReading("ann", "b3", { time: 100 + i })));
      expect(JSON.parse((await store.readings("ann", "b3"))!).map((r: Doc) => r.time)).toEqual([7, ...Array.from({ length: 20 }, (_, i) => 100 + i)]);
    });

    test("removing a batch removes its readings; re-importing it without readings leaves no list", async () => {
      expect(await store.remove("ann", "batch", "b3")).toBe(true);
      expect(await store.lastReading("ann", "b3")).toBeUndefined();
      await store.insert("ann", "batch", { _id: "b3" });
      expect(await store.readings("ann", "b3")).toBeUndefined();
      await store.importAll("ann", { batches: [{ doc: { _id: "b1" } }], docs: [] });
      expect(await store.readings("ann", "b1")).toBeUndefined();
      expect(await store.lastReading("ann", "b1")).toBeUndefined();
    });

    test("property: for any readings and any bounds, a range is the whole list filtered", async () => {
      const reading = fc.record(
        { time: fc.oneof(fc.integer({ min: -5, max: 25 }), fc.constant(undefined)), sg: fc.double({ min: 1, max: 1.2, noNaN: true }) },
        { requiredKeys: ["sg"] },
      );
      const bound = fc.option(fc.integer({ min: -7, max: 27 }), { nil: undefined });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(reading, { maxLength: 30 }), bound, bound, async (readings, since, until) => {
          const id = `p${run++}`;
          await store.importAll("ann", { batches: [{ doc: { _id: id }, readings: readings as Doc[] }], docs: [] });
          const whole = JSON.parse((await store.readings("ann", id))!) as Doc[];
          expect(canonicalJson(whole)).toBe(model(readings as Doc[]));
          const range = await store.readings("ann", id, undefined, { since, until });
          expect(range).toBe(canonicalJson(whole.filter((r) => inRange(r, since, until))));
        }),
        { numRuns: kind === "postgres" ? 60 : 200 },
      );
    });
  });
}
