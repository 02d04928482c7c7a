import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decide, digest, mergeReadings, readingsAdded, stampOf, type Side } from "../../src/pull/changes.ts";

// What a pull does with each document (docs/decisions.md, Pull) and how readings merge by `time`.

const side = (text: string, stamp?: number): Side => ({ text, stamp });

describe("decide", () => {
  const remote = side('{"name":"there"}', 200);
  const table: Array<{ name: string; local?: Side; pulled?: string; change: string; conflict?: RegExp }> = [
    { name: "absent here: new", change: "new" },
    { name: "the same text here: unchanged", local: side('{"name":"there"}', 200), change: "unchanged" },
    { name: "there as last pulled, changed here: kept, no conflict", local: side('{"name":"here"}', 300), pulled: digest(remote.text), change: "kept" },
    { name: "here as last pulled, changed there: updated, whatever the stamps", local: side('{"name":"old"}', 900), pulled: digest('{"name":"old"}'), change: "updated" },
    // A change here may leave the stamp as it was (a batch PATCH): a newer stamp there orders nothing.
    { name: "both changed, newer stamp there: kept as a conflict", local: side('{"name":"here"}', 150), pulled: digest("{}"), change: "kept", conflict: /^changed on both sides since the last pull; the copy here is kept \(_timestamp_ms here 150, there 200\)$/ },
    { name: "both changed, newer stamp here: kept as a conflict", local: side('{"name":"here"}', 250), pulled: digest("{}"), change: "kept", conflict: /\(_timestamp_ms here 250, there 200\)$/ },
    { name: "both changed, equal stamps: kept as a conflict", local: side('{"name":"here"}', 200), pulled: digest("{}"), change: "kept", conflict: /^changed on both sides since the last pull; the copy here is kept/ },
    { name: "both changed, no stamp here: kept as a conflict, no stamps named", local: side('{"name":"here"}'), pulled: digest("{}"), change: "kept", conflict: /^changed on both sides since the last pull; the copy here is kept$/ },
    { name: "no earlier pull, newer stamp here: kept", local: side('{"name":"here"}', 201), change: "kept", conflict: /newer/ },
    { name: "no earlier pull, older stamp here: updated", local: side('{"name":"here"}', 199), change: "updated" },
    { name: "no earlier pull, no stamps to compare: updated (the pull was asked for)", local: side('{"name":"here"}'), change: "updated" },
  ];
  for (const row of table) {
    test(row.name, () => {
      const d = decide(remote, row.local, row.pulled);
      expect(d.change).toBe(row.change as never);
      if (row.conflict) expect(d.conflict).toMatch(row.conflict);
      else expect(d.conflict).toBeUndefined();
    });
  }
});

describe("stampOf", () => {
  test("a number or a numeric string; anything else is no stamp", () => {
    expect(stampOf({ _timestamp_ms: 1757843412305 })).toBe(1757843412305);
    expect(stampOf({ _timestamp_ms: "1757843412305" })).toBe(1757843412305);
    expect(stampOf({ _timestamp_ms: "" })).toBeUndefined();
    expect(stampOf({ _timestamp_ms: "soon" })).toBeUndefined();
    expect(stampOf({ _timestamp_ms: null })).toBeUndefined();
    expect(stampOf({})).toBeUndefined();
  });
});

describe("digest", () => {
  test("22 base64url characters, the same for the same text, different for another", () => {
    expect(digest("abc")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(digest("abc")).toBe(digest("abc"));
    expect(digest("abc")).not.toBe(digest("abd"));
  });
});

describe("mergeReadings", () => {
  test("a remote reading replaces the local one at the same time; local readings at other times stay", () => {
    const local = [{ time: 1, sg: 1.05 }, { time: 2, sg: 1.04, comment: "here" }];
    const remote = [{ time: 2, sg: 1.039 }, { time: 3, sg: 1.03 }];
    expect(mergeReadings(local, remote, false)).toEqual([{ time: 1, sg: 1.05 }, { time: 2, sg: 1.039 }, { time: 3, sg: 1.03 }]);
    expect(readingsAdded(local, mergeReadings(local, remote, false))).toBe(1);
  });

  test("mirroring (--prune) keeps the remote's readings alone", () => {
    expect(mergeReadings([{ time: 1 }], [{ time: 3 }], true)).toEqual([{ time: 3 }]);
  });

  const reading = fc.record({ time: fc.integer({ min: 0, max: 40 }), sg: fc.double({ min: 1, max: 1.2, noNaN: true }) });

  test("merged: every remote reading, the local ones at times the remote lacks, in time order (property)", () => {
    fc.assert(
      fc.property(fc.array(reading, { maxLength: 20 }), fc.array(reading, { maxLength: 20 }), (local, remote) => {
        const merged = mergeReadings(local, remote, false) as typeof local;
        const remoteTimes = new Set(remote.map((r) => r.time));
        const expected = [...remote, ...local.filter((r) => !remoteTimes.has(r.time))];
        expect(merged).toHaveLength(expected.length);
        for (const r of expected) expect(merged).toContain(r);
        for (let i = 1; i < merged.length; i++) expect(merged[i]!.time).toBeGreaterThanOrEqual(merged[i - 1]!.time);
        // Readings at equal times keep the remote's order.
        const sameTime = (t: number) => remote.filter((r) => r.time === t);
        for (const t of remoteTimes) expect(merged.filter((r) => r.time === t)).toEqual(sameTime(t));
        // Merging again what was merged brings nothing new.
        expect(mergeReadings(merged, remote, false)).toEqual(merged);
      }),
    );
  });
});
