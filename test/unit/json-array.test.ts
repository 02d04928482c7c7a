import { expect, test } from "bun:test";
import fc from "fast-check";
import { jsonArray } from "../../src/http/documents.ts";

test("jsonArray splices JSON texts into the array text JSON.stringify gives for their values", () => {
  expect(jsonArray([])).toBe("[]");
  expect(jsonArray(['{"a":1}'])).toBe('[{"a":1}]');
  fc.assert(
    fc.property(fc.array(fc.jsonValue()), (values) => {
      expect(jsonArray(values.map((v) => JSON.stringify(v)))).toBe(JSON.stringify(values));
    }),
  );
});
