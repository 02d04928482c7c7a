// Fields set from stored text and columns (records.ts setFields) must give exactly the record that
// encoding the parsed document with those fields assigned gives: body, summary, status, stock, sort
// keys and whether the body parses in order.
import { expect, test } from "bun:test";
import fc from "fast-check";
import type { Doc } from "../../src/lib/json.ts";
import type { Kind } from "../../src/resources.ts";
import { stamp, stampMembers } from "../../src/lib/stamps.ts";
import { encodeRecord, setFields } from "../../src/store/records.ts";

const KINDS: Kind[] = ["batch", "recipe", "hops", "yeasts"];
// Default fields of batches, recipes and ingredients, measured fields, and any other key.
const key = fc.oneof(
  fc.constantFrom("name", "status", "brewDate", "batchNo", "brewer", "inventory", "amount", "type", "author", "measuredOg", "measuredFg", "notes", "10"),
  fc.string({ maxLength: 5 }),
);
const scalar = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null));
const doc = fc.record({
  _id: fc.string({ minLength: 1, maxLength: 6 }),
  members: fc.dictionary(key, fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 8 }),
  recipe: fc.option(fc.record({ name: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)), "9": fc.integer() }), { nil: undefined }),
});

/** Whether JSON.parse of `text` enumerates every object's keys in code unit order (the ground truth of `ordered`). */
function parsesInCanonicalOrder(text: string): boolean {
  const inOrder = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(inOrder);
    if (v === null || typeof v !== "object") return true;
    const keys = Object.keys(v);
    return keys.every((k, i) => i === 0 || keys[i - 1] < k) && Object.values(v).every(inOrder);
  };
  return inOrder(JSON.parse(text));
}

test("for any stored record and any JSON fields: what encoding the assigned document gives", () => {
  let fast = 0;
  const value = fc.oneof({ weight: 3, arbitrary: scalar }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
  fc.assert(
    fc.property(fc.constantFrom(...KINDS), doc, fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (kind, d, fields) => {
      // As a client sends it: JSON (no -0, whose text is 0 and whose sort key would differ from 0's).
      const source = JSON.parse(JSON.stringify({ ...d.members, _id: d._id, ...(d.recipe ? { recipe: d.recipe } : {}) })) as Doc;
      const stored = encodeRecord(kind, source);
      const expected = encodeRecord(kind, Object.assign(JSON.parse(stored.body) as Doc, fields));
      const got = setFields(kind, stored, fields);
      // Undefined only where the parsing way is needed: an integer-like key.
      if (got === undefined) expect(Object.keys(fields).some((k) => /^(?:0|[1-9][0-9]*)$/.test(k))).toBe(true);
      else {
        fast++;
        // "Parses in order" may stay unknown (false); when it is claimed, parsing the body must bear it out.
        expect({ ...got, ordered: expected.ordered }).toEqual(expected);
        if (got.ordered) expect(parsesInCanonicalOrder(got.body)).toBe(true);
      }
    }),
    { numRuns: 3000 },
  );
  expect(fast).toBeGreaterThan(2000);
});

test("with a stamp's members: what encoding the assigned and then stamped document gives", () => {
  const value = fc.oneof({ weight: 3, arbitrary: scalar }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
  // Fields a client could name as well as the stamp's own (which the stamp overrides).
  const stampKey = fc.oneof(key, fc.constantFrom("_rev", "_timestamp", "updatedAt", "_timestamp_ms", "_created", "createdAt"));
  fc.assert(
    fc.property(fc.constantFrom(...KINDS), doc, fc.dictionary(stampKey, value, { maxKeys: 4 }), fc.integer({ min: 0, max: 8e12 }), (kind, d, fields, now) => {
      const source = JSON.parse(JSON.stringify({ ...d.members, _id: d._id })) as Doc;
      const stored = encodeRecord(kind, source);
      const expected = encodeRecord(kind, stamp(Object.assign(JSON.parse(stored.body) as Doc, fields), now, false, "R".repeat(20)));
      const got = setFields(kind, stored, fields, stampMembers(now, false, "R".repeat(20)));
      if (got === undefined) expect(Object.keys(fields).some((k) => /^(?:0|[1-9][0-9]*)$/.test(k))).toBe(true);
      else {
        expect({ ...got, ordered: expected.ordered }).toEqual(expected);
        if (got.ordered) expect(parsesInCanonicalOrder(got.body)).toBe(true);
      }
    }),
    { numRuns: 2000 },
  );
});

test("values that are not JSON, _id, and members the summary copies in part take the parsing way", () => {
  const stored = encodeRecord("batch", { _id: "b1", name: "A", recipe: { name: "R" } });
  expect(setFields("batch", stored, { notes: undefined })).toBeUndefined();
  expect(setFields("batch", stored, { notes: Number.NaN })).toBeUndefined();
  expect(setFields("batch", stored, { notes: () => 1 })).toBeUndefined();
  expect(setFields("batch", stored, { _id: "b2" })).toBeUndefined();
  expect(setFields("batch", stored, { recipe: null })).toBeUndefined();
  expect(setFields("batch", stored, { 7: 1 })).toBeUndefined();
  expect(setFields("batch", stored, { measuredOg: 1.05 })?.body).toBe('{"_id":"b1","measuredOg":1.05,"name":"A","recipe":{"name":"R"}}');
});

test("objects and arrays are set as canonical text; an integer-like key inside leaves the body not known to parse in order", () => {
  const stored = encodeRecord("hops", { _id: "h1", name: "Saaz", inventory: 2 });
  const set = setFields("hops", stored, { _timestamp: { _seconds: 2, _nanoseconds: 1 }, tags: [{ b: 1, a: 2 }] });
  expect(set?.body).toBe('{"_id":"h1","_timestamp":{"_nanoseconds":1,"_seconds":2},"inventory":2,"name":"Saaz","tags":[{"a":2,"b":1}]}');
  expect(set?.ordered).toBe(true);
  const numbered = setFields("hops", stored, { extra: { b: 1, 10: "x", 9: "y" } });
  expect(numbered?.body).toBe('{"_id":"h1","extra":{"10":"x","9":"y","b":1},"inventory":2,"name":"Saaz"}');
  expect(numbered?.ordered).toBe(false);
});
