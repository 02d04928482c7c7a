// Property of batch PATCH (API document, Endpoints › Batches, PATCH table; docs/decisions.md, Batches):
// for every measured field and any double, sent as a JSON number or as a numeric string, the value is
// accepted exactly when it lies within the field's inclusive bounds; an accepted value reads back equal
// and nothing else changes; a refused one leaves the stored document byte-for-byte unchanged.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { openApp } from "./harness.ts";
import { ownerImport } from "./fixtures.ts";
import { justAbove, justBelow, PATCH_FIELDS, withinBounds } from "./patch-fields.ts";

const EDGES = PATCH_FIELDS.flatMap(({ min, max }) => [min, justBelow(min), justAbove(min), ...(max === undefined ? [] : [max, justBelow(max), justAbove(max)])]);

const value = fc.oneof(
  fc.double(),
  fc.double({ min: -60, max: 110, noNaN: true }),
  fc.constantFrom(...EDGES),
);

test("PATCH accepts a measured value exactly when it is within its inclusive bounds", async () => {
  // One app for every run; each run compares against what was stored just before it.
  const h = await openApp({ rateLimitV2PerHour: 1_000_000 });
  const alice = await h.account("alice");
  await h.load("alice", ownerImport());
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...PATCH_FIELDS), value, fc.boolean(), async (f, v, asString) => {
      // NaN and the infinities have no JSON number form: they are sent as text.
      const sent = asString || !Number.isFinite(v) ? String(v) : v;
      const before = await h.call("GET", "/v2/batches/b-pale", alice);
      const res = await h.call("PATCH", "/v2/batches/b-pale", alice, { body: { [f.field]: sent } });
      const after = await h.call("GET", "/v2/batches/b-pale", alice);
      if (Number.isFinite(v) && withinBounds(f, v)) {
        expect([res.status, res.text]).toEqual([200, "Updated"]);
        // JSON has one zero: -0 reads back as 0.
        expect(after.json()).toEqual({ ...before.json(), [f.field]: v === 0 ? 0 : v });
        expect(Object.is(after.json()[f.field], v === 0 ? 0 : v)).toBe(true);
      } else {
        expect([res.status, res.text]).toEqual([400, `Invalid ${f.field}`]);
        expect(after.text).toBe(before.text);
      }
    }),
    { numRuns: 600 },
  );
});
