// Keys that JavaScript objects treat specially must still come out of canonical JSON in alphabetical
// order and without loss (API document: "List endpoints return properties in alphabetical key order").
import { expect, test } from "bun:test";
import { canonicalJson } from "../../src/lib/json.ts";

test("integer-like keys are ordered alphabetically like any other key", () => {
  expect(canonicalJson(JSON.parse('{"b":1,"10":2,"9":3,"":4}'))).toBe('{"":4,"10":2,"9":3,"b":1}');
});

test("a __proto__ member of parsed JSON is kept as data", () => {
  expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
});
