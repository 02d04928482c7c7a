// Keys that JavaScript objects treat specially must still come out of canonical JSON in alphabetical
// order and without loss (API document: "List endpoints return properties in alphabetical key order").
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, canonicalText } from "../../src/lib/json.ts";

test("integer-like keys are ordered alphabetically like any other key", () => {
  expect(canonicalJson(JSON.parse('{"b":1,"10":2,"9":3,"":4}'))).toBe('{"":4,"10":2,"9":3,"b":1}');
});

test("a __proto__ member of parsed JSON is kept as data", () => {
  expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
});

describe("canonicalText: whether stored text parses back in order, and re-checking only what changed", () => {
  // Any keys at all, integer-like and __proto__ included.
  const anyDoc = fc.object({
    key: fc.oneof(fc.string(), fc.nat({ max: 200 }).map(String)),
    values: [fc.integer(), fc.string(), fc.constant(null)],
    maxDepth: 3,
  });
  /** Every object's keys as JavaScript enumerates them are in canonical order. */
  const enumeratesInOrder = (v: unknown): boolean =>
    v === null || typeof v !== "object"
      ? true
      : Array.isArray(v)
        ? v.every(enumeratesInOrder)
        : Object.keys(v).every((k, i, keys) => i === 0 || keys[i - 1] < k) && Object.values(v).every(enumeratesInOrder);

  test("text with an integer-like key somewhere is not known to parse in order; text without one is", () => {
    expect(canonicalText(JSON.parse('{"a":{"b":[{"c":1}]}}'))).toEqual({ text: '{"a":{"b":[{"c":1}]}}', parsesInOrder: true });
    expect(canonicalText(JSON.parse('{"a":{"10":1,"9":2}}'))).toEqual({ text: '{"a":{"10":1,"9":2}}', parsesInOrder: false });
    // A key that only looks like one inside a string value is no key.
    expect(canonicalText({ b: 'x,"1":y', a: 1 })).toEqual({ text: '{"a":1,"b":"x,\\"1\\":y"}', parsesInOrder: true });
  });

  test("for any document: canonical text, and a text said to parse in order does", () => {
    fc.assert(
      fc.property(anyDoc, (doc) => {
        const out = canonicalText(doc);
        expect(out.text).toBe(canonicalJson(doc));
        if (out.parsesInOrder) expect(enumeratesInOrder(JSON.parse(out.text))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test("a stored document with members changed gives the same text whether only those are re-checked or all", () => {
    fc.assert(
      fc.property(anyDoc, anyDoc, (stored, changes) => {
        const before = canonicalText(stored);
        fc.pre(before.parsesInOrder);
        // As the rules do: the parsed copy changed in place, new members at its end, unsorted.
        const merged = Object.assign(JSON.parse(before.text), changes);
        const after = canonicalText(merged, Object.keys(changes));
        expect(after.text).toBe(canonicalJson(merged));
        if (after.parsesInOrder) expect(enumeratesInOrder(JSON.parse(after.text))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
