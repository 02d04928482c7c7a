// checkBatchPatch: the Batch PATCH rules of the API document (Endpoints › Batches) and
// docs/decisions.md (Batches): inclusive bounds, `null` clears, numeric strings count, unknown fields
// are ignored, the first failing field in the table's order names the error.
import { describe, expect, test } from "bun:test";
import { checkBatchPatch } from "../../src/batches/service.ts";
import { justAbove, justBelow, PATCH_FIELDS, STATUSES } from "../http/patch-fields.ts";

type Outcome = { changes: Record<string, unknown> } | { error: string };

function outcome(input: Record<string, unknown>, measured = true): Outcome {
  const r = checkBatchPatch(input, measured);
  if ("error" in r) {
    expect(r.error.status).toBe(400);
    return { error: r.error.body };
  }
  return { changes: r.changes };
}

describe("status", () => {
  for (const status of STATUSES) {
    test(`${status} is accepted`, () => expect(outcome({ status })).toEqual({ changes: { status } }));
  }
  for (const status of ["planning", "PLANNING", "Done", "", " Planning", null, 1, true, ["Planning"]]) {
    test(`${JSON.stringify(status)} is Invalid status`, () => expect(outcome({ status })).toEqual({ error: "Invalid status" }));
  }
});

describe("measured values", () => {
  for (const { field, min, max } of PATCH_FIELDS) {
    const accept: unknown[][] = [[min, min], [String(min), min], [null, null]];
    const refuse: unknown[] = [justBelow(min), min - 1, "abc", "", "1.0x", true, {}, [1], "NaN", "Infinity"];
    if (max !== undefined) {
      accept.push([max, max], [`  ${max} `, max], [(min + max) / 2, (min + max) / 2]);
      refuse.push(justAbove(max), max + 1, String(justAbove(max)));
    } else {
      accept.push([1e6, 1e6], ["2.5e1", 25]);
    }
    for (const [input, stored] of accept) {
      test(`${field} ${JSON.stringify(input)} is stored as ${stored}`, () =>
        expect(outcome({ [field]: input })).toEqual({ changes: { [field]: stored } }));
    }
    for (const input of refuse) {
      test(`${field} ${typeof input === "number" ? input : JSON.stringify(input)} is Invalid ${field}`, () =>
        expect(outcome({ [field]: input })).toEqual({ error: `Invalid ${field}` }));
    }
  }
});

describe("the body as a whole", () => {
  test("an empty body changes nothing", () => expect(outcome({})).toEqual({ changes: {} }));
  test("unknown and server-managed fields are ignored", () =>
    expect(outcome({ name: "x", _id: "other", brewer: "B", measuredAbv: 5 })).toEqual({ changes: {} }));
  test("known fields are kept and unknown ones dropped", () =>
    expect(outcome({ status: "Brewing", foo: 1, measuredOg: "1.05" })).toEqual({ changes: { status: "Brewing", measuredOg: 1.05 } }));
  test("every field at once", () => {
    const input = Object.fromEntries(PATCH_FIELDS.map((f) => [f.field, f.min]));
    expect(outcome({ ...input, status: "Archived" })).toEqual({ changes: { ...input, status: "Archived" } });
  });
  test("status is checked before the measured values", () =>
    expect(outcome({ measuredOg: 9, status: "bad" })).toEqual({ error: "Invalid status" }));
  test("the first failing field in the document's order is named, whatever the body's order", () =>
    expect(outcome({ carbonationTemp: 500, measuredFg: 9, measuredOg: 9 })).toEqual({ error: "Invalid measuredOg" }));
  test("one bad field refuses the whole body", () =>
    expect(outcome({ status: "Brewing", measuredOg: 1.05, measuredFg: -1 })).toEqual({ error: "Invalid measuredFg" }));
  test("with measured values switched off (version 1: status only) they are ignored", () =>
    expect(outcome({ status: "Brewing", measuredOg: 99 }, false)).toEqual({ changes: { status: "Brewing" } }));
});
