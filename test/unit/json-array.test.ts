import { expect, test } from "bun:test";
import fc from "fast-check";
import { jsonArray } from "../../src/http/documents.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

test("jsonArray splices JSON texts into the array text JSON.stringify gives for their values", () => {
  expect(jsonArray([])).toBe("[]");
  expect(jsonArray(['{"a":1}'])).toBe('[{"a":1}]');
  fc.assert(
    fc.property(fc.array(fc.jsonValue()), (values) => {
      expect(jsonArray(values.map((v) => JSON.stringify(v)))).toBe(JSON.stringify(values));
    }),
  );
});

test("jsonArray splices UTF-8 bytes, alone or mixed with texts, into the UTF-8 of that same array text", () => {
  const one = jsonArray([encoder.encode('{"a":"é"}')]);
  expect(one).toBeInstanceOf(Uint8Array);
  expect(decoder.decode(one as Uint8Array)).toBe('[{"a":"é"}]');
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.jsonValue(), fc.boolean()), { minLength: 1 }), (items) => {
      const parts = items.map(([v, asBytes]) => (asBytes ? encoder.encode(JSON.stringify(v)) : JSON.stringify(v)));
      const out = jsonArray(parts);
      const text = typeof out === "string" ? out : decoder.decode(out);
      expect(text).toBe(JSON.stringify(items.map(([v]) => v)));
      // Bytes are returned as bytes: exactly the encoding of the text, nothing decoded on the way.
      if (items.some(([, asBytes]) => asBytes)) expect(out).toEqual(encoder.encode(text));
    }),
  );
});
