// The revision stamp as values (stamp) and as canonical member text (stampMembers) must agree, for
// any time, whether the stamp is a creation's or an update's, and whichever order they are asked in.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, type Doc } from "../../src/lib/json.ts";
import { stamp, stampMembers, STAMP_MEMBERS } from "../../src/lib/stamps.ts";
import { DEFAULT_FIELDS, type Kind } from "../../src/resources.ts";
import { SORTED_FIELDS } from "../../src/store/records.ts";

/** What canonical text of a stamped empty document holds for the stamp's members, in key order. */
const expected = (now: number, created: boolean, rev: string) => {
  const doc = stamp({}, now, created, rev);
  return Object.keys(doc).sort().map((key) => [key, canonicalJson(doc[key])] as const);
};

describe("stampMembers", () => {
  test("for any time, creation or update, and revision: the canonical text of what stamp sets", () => {
    // Times from 1970 to past 2200, and runs of calls in one millisecond (as under load).
    const call = fc.record({ now: fc.oneof(fc.integer({ min: 0, max: 8e12 }), fc.constantFrom(0, 999, 1000, 1_764_072_000_345)), created: fc.boolean(), rev: fc.stringMatching(/^[A-Za-z0-9]{20}$/) });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 6 }), (calls) => {
        for (const { now, created, rev } of calls) expect(stampMembers(now, created, rev)).toEqual(expected(now, created, rev));
      }),
      { numRuns: 500 },
    );
  });

  test("one millisecond's stamps share the time and each has its own revision", () => {
    const a = stampMembers(1_700_000_123_456, false);
    const b = stampMembers(1_700_000_123_456, false);
    expect(a.map((m) => m[0])).toEqual(["_rev", "_timestamp", "_timestamp_ms", "updatedAt"]);
    expect(a.slice(1)).toEqual(b.slice(1));
    expect(a[0][1]).toMatch(/^"[A-Za-z0-9]{20}"$/);
    expect(a[0][1]).not.toBe(b[0][1]);
    // A member handed out before is not changed by the next call.
    expect(a[0][1]).not.toBe(stampMembers(1_700_000_123_456, false)[0][1]);
    expect(stampMembers(1_700_000_123_456, true).map((m) => m[0])).toEqual(["_created", "_rev", "_timestamp", "_timestamp_ms", "createdAt", "updatedAt"]);
    expect(Object.fromEntries(stampMembers(1_700_000_123_456, false, "r"))).toEqual({
      _rev: '"r"', _timestamp: '{"_nanoseconds":456000000,"_seconds":1700000123}', _timestamp_ms: "1700000123456", updatedAt: '"2023-11-14T22:15:23.456Z"',
    });
  });

  // What Store.setFields relies on when it sets them in stored text (src/store/records.ts setFields).
  test("the members are none that the stored columns or a summary's part depend on, and sort after every digit", () => {
    const kinds = Object.keys(DEFAULT_FIELDS) as Kind[];
    const columns = new Set<string>(["_id", "status", "inventory", ...SORTED_FIELDS]);
    for (const key of STAMP_MEMBERS) {
      expect(columns.has(key)).toBe(false);
      expect(key >= ":").toBe(true);
      expect(/^(?:0|[1-9][0-9]*)$/.test(key)).toBe(false);
      for (const kind of kinds) expect(DEFAULT_FIELDS[kind].some((f) => f.startsWith(`${key}.`))).toBe(false);
    }
    // Values parse back in key order: JSON.parse of each gives the same canonical text.
    for (const [, text] of stampMembers(Date.now(), true)) expect(canonicalJson(JSON.parse(text) as Doc)).toBe(text);
  });
});
