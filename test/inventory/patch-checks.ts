// What a PATCH left behind, checked on the stored item: exactly the sent changes plus fresh
// service metadata, or not one byte changed.
import { expect } from "bun:test";
import { ITEMS, withoutStamps, type Doc } from "./fixtures.ts";
import { text, type Scenario, type World } from "./harness.ts";
import type { IngredientCollection } from "../../src/resources.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The item now reads as the fixture with exactly these changes (undefined deletes), re-stamped. */
export const stored = (c: IngredientCollection, changes: Doc) => async (w: World) => {
  const item = ITEMS[c];
  const now = (await w.read("alice", c, String(item._id)))!;
  const expected: Doc = { ...item, ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete expected[k];
  expect(withoutStamps(now)).toEqual(withoutStamps(expected));
  // Inventory metadata fields: a write sets a new revision and update time, creation stays.
  expect(now._rev).not.toBe(item._rev);
  expect(now.updatedAt).toMatch(ISO);
  expect(now.updatedAt).not.toBe(item.updatedAt);
  expect(now._timestamp_ms as number).toBeGreaterThan(item._timestamp_ms as number);
  expect(now.updatedAt).toBe(new Date(now._timestamp_ms as number).toISOString());
};

/** Not one byte of the item changed. */
export const unchanged = (c: IngredientCollection) => async (w: World) => {
  const item = ITEMS[c];
  expect(await w.readText("alice", c, String(item._id))).toBe(text(item));
};

/** A PATCH of alice's fixture item of the collection. */
export function patchOf(c: IngredientCollection) {
  const url = `/v2/inventory/${c}/${String(ITEMS[c]._id)}`;
  return (name: string, body: unknown, status: number, answer: string | unknown[], after: Scenario["after"]): Scenario => ({
    name,
    method: "PATCH",
    url,
    as: "alice",
    body,
    status,
    ...(typeof answer === "string" ? { text: answer } : { json: answer }),
    after,
  });
}

/** Values rule 3 refuses: partial numeric strings, empty, NaN, Infinity, hex, booleans, objects. */
export const NOT_NUMBERS: readonly unknown[] = [
  "12abc", "", " ", "NaN", "Infinity", "-Infinity", "0x10", "0b1", "1e", ".", "-", "1,5", "1 000", "½",
  true, false, null, {}, [], [1], { value: 1 },
];

/** Numeric strings and numbers rule 3 accepts, with the number each stands for. */
export const NUMBERS: ReadonlyArray<[unknown, number]> = [
  [7, 7], [0, 0], [-3.5, -3.5], ["7.25", 7.25], [" -3 ", -3], ["+4", 4], ["1e2", 100], ["2.5E-1", 0.25],
  [".5", 0.5], ["5.", 5], ["\t12\n", 12], ["-0", 0], ["007", 7],
];

export const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));
