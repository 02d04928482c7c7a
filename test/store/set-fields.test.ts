// Fields set from stored text and columns (records.ts setFields) must give exactly the record that
// encoding the parsed document with those fields assigned gives: body, summary, status, stock, sort
// keys and whether the body parses in order.
import { expect, test } from "bun:test";
import fc from "fast-check";
import type { Doc } from "../../src/lib/json.ts";
import type { Kind } from "../../src/resources.ts";
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

test("for any stored record and any scalar fields: what encoding the assigned document gives", () => {
  let fast = 0;
  fc.assert(
    fc.property(fc.constantFrom(...KINDS), doc, fc.dictionary(key, scalar, { minKeys: 1, maxKeys: 4 }), (kind, d, fields) => {
      // As a client sends it: JSON (no -0, whose text is 0 and whose sort key would differ from 0's).
      const source = JSON.parse(JSON.stringify({ ...d.members, _id: d._id, ...(d.recipe ? { recipe: d.recipe } : {}) })) as Doc;
      const stored = encodeRecord(kind, source);
      const expected = encodeRecord(kind, Object.assign(JSON.parse(stored.body) as Doc, fields));
      const got = setFields(kind, stored, fields);
      // Undefined only where the parsing way is needed: an integer-like key.
      if (got === undefined) expect(Object.keys(fields).some((k) => /^(?:0|[1-9][0-9]*)$/.test(k))).toBe(true);
      else {
        fast++;
        // "Parses in order" may stay unknown (false) where encoding found it anew; never the reverse.
        expect({ ...got, ordered: expected.ordered }).toEqual(expected);
        if (got.ordered) expect(expected.ordered).toBe(true);
      }
    }),
    { numRuns: 3000 },
  );
  expect(fast).toBeGreaterThan(2000);
});

test("values that are not JSON scalars, _id, and members the summary copies in part take the parsing way", () => {
  const stored = encodeRecord("batch", { _id: "b1", name: "A", recipe: { name: "R" } });
  expect(setFields("batch", stored, { notes: { a: 1 } })).toBeUndefined();
  expect(setFields("batch", stored, { notes: [1] })).toBeUndefined();
  expect(setFields("batch", stored, { _id: "b2" })).toBeUndefined();
  expect(setFields("batch", stored, { recipe: null })).toBeUndefined();
  expect(setFields("batch", stored, { 7: 1 })).toBeUndefined();
  expect(setFields("batch", stored, { measuredOg: 1.05 })?.body).toBe('{"_id":"b1","measuredOg":1.05,"name":"A","recipe":{"name":"R"}}');
});
