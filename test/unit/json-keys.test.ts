// Keys that JavaScript objects treat specially must still come out of canonical JSON in alphabetical
// order and without loss (API document: "List endpoints return properties in alphabetical key order").
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, canonicalText, sameShapeText } from "../../src/lib/json.ts";

/** Canonical JSON written out key by key: what every faster path must give. */
function model(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(model).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${model((v as Record<string, unknown>)[k])}`).join(",")}}`;
}

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

  test("for any document, as parsed from JSON: the text written key by key", () => {
    fc.assert(
      fc.property(anyDoc, (doc) => {
        const parsed = JSON.parse(JSON.stringify(doc));
        expect(canonicalText(parsed).text).toBe(model(parsed));
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

describe("sameShapeText: documents sharing an order of keys, sorted once", () => {
  // Flat documents of few keys, so runs of the same shape come up; some nested, some integer-like keys.
  const key = fc.constantFrom("time", "sg", "temp", "angle", "id", "__proto__", "10", "9", "a1", "");
  const value = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null), fc.dictionary(key, fc.integer(), { maxKeys: 3 }));
  const doc = fc.array(fc.tuple(key, value), { maxLength: 6 }).map((members) => JSON.parse(`{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`));

  test("for any sequence of documents: each one's text written key by key", () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 20 }), (docs) => {
        const text = sameShapeText();
        // Each document twice in a row, so a run of one shape is seen at least once.
        for (const d of docs.flatMap((d) => [d, d])) expect(text(d)).toBe(model(d));
      }),
      { numRuns: 500 },
    );
  });

  test("a reading's keys in any order give one text", () => {
    const text = sameShapeText();
    expect(text({ time: 1, sg: 1.05, temp: 20 })).toBe('{"sg":1.05,"temp":20,"time":1}');
    expect(text({ time: 2, sg: 1.04, temp: 19 })).toBe('{"sg":1.04,"temp":19,"time":2}');
    expect(text({ sg: 1.03, time: 3 })).toBe('{"sg":1.03,"time":3}');
    expect(text({ time: 4, sg: null, nested: { b: 1, a: 2 } })).toBe('{"nested":{"a":2,"b":1},"sg":null,"time":4}');
    expect(text(JSON.parse('{"b":1,"10":2,"9":3}'))).toBe('{"10":2,"9":3,"b":1}');
  });
});
