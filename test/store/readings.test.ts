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

    test("appendReading keeps time order, replaces its sender's readings at its time, and is false without a batch", async () => {
      expect(await store.appendReading("ann", "b1", { time: 20, sg: 1.04 })).toBe(true);
      expect(await store.appendReading("ann", "b1", { time: 40, sg: 1.02 })).toBe(true);
      expect(await store.lastReading("ann", "b1")).toBe('{"sg":1.02,"time":40}');
      // A retried post at one time leaves one reading there; of the two imported at 30, the one of the
      // same sender ("a") gives way to it, the other ("c") stays, and the new one comes after it.
      expect(await store.appendReading("ann", "b1", { time: 40, sg: 1.021 })).toBe(true);
      expect(await store.appendReading("ann", "b1", { time: 30, sg: 1.3, id: "a" })).toBe(true);
      const all = JSON.parse((await store.readings("ann", "b1"))!) as Doc[];
      expect(all.map((r) => [r.time ?? null, r.sg ?? null, r.id ?? null])).toEqual([
        [null, 1.09, "no-time"], [5, null, "d"], [10, 1.05, "b"], [20, 1.04, null], [30, 1.031, "c"], [30, 1.3, "a"], [40, 1.021, null],
      ]);
      expect(await store.appendReading("ann", "nope", { time: 1 })).toBe(false);
      expect(await store.readings("ann", "nope")).toBeUndefined();
      expect(await store.appendReading("bob", "b1", { time: 1 })).toBe(false);
      // A reading at 0 goes after the one without time (both sort at 0), which it does not replace.
      expect(await store.appendReading("ann", "b1", { time: 0, sg: 1.1 })).toBe(true);
      expect(JSON.parse((await store.readings("ann", "b1"))!).slice(0, 2)).toEqual([{ sg: 1.09, id: "no-time" }, { time: 0, sg: 1.1 }]);
      await expect(store.appendReading("ann", "b1", { time: Number.NaN })).rejects.toThrow("a reading to append needs a numeric time");
    });

    test("readings of several senders at one time are all kept; each sender's retry replaces its own alone", async () => {
      await store.insert("ann", "batch", { _id: "b4" });
      const at = 1_795_845_600_000;
      // Two Tilts of one batch posting one Timepoint, a reading posted without an id, and ids that are
      // equal only as text ("7" and 7) or only in another case ("orange").
      for (const r of [{ id: "ORANGE", sg: 1.048 }, { id: "PINK", sg: 1.05 }, { sg: 1.047 }, { id: 7, sg: 1.046 }, { id: "7", sg: 1.045 }, { id: "orange", sg: 1.044 }]) {
        expect(await store.appendReading("ann", "b4", { time: at, ...r })).toBe(true);
      }
      const sgs = async () => (JSON.parse((await store.readings("ann", "b4"))!) as Doc[]).map((r) => [r.id ?? null, r.sg]);
      expect(await sgs()).toEqual([["ORANGE", 1.048], ["PINK", 1.05], [null, 1.047], [7, 1.046], ["7", 1.045], ["orange", 1.044]]);
      // Retries: each replaces its own sender's reading and goes after the rest; an explicit null id is no id.
      expect(await store.appendReading("ann", "b4", { time: at, id: "PINK", sg: 1.051 })).toBe(true);
      expect(await store.appendReading("ann", "b4", { time: at, id: null, sg: 1.043 })).toBe(true);
      expect(await store.appendReading("ann", "b4", { time: at, id: 7, sg: 1.042 })).toBe(true);
      expect(await sgs()).toEqual([["ORANGE", 1.048], ["7", 1.045], ["orange", 1.044], ["PINK", 1.051], [null, 1.043], [7, 1.042]]);
      expect(await store.lastReading("ann", "b4")).toBe(`{"id":7,"sg":1.042,"time":${at}}`);
      // Deleting the reading at a time still deletes every reading there.
      expect(await store.deleteReading("ann", "b4", at)).toBe(true);
      expect(await store.readings("ann", "b4")).toBe("[]");
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
