import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, type Doc } from "../../src/lib/json.ts";
import type { ListQuery, Store } from "../../src/store/types.ts";
import { openTestStore, STORE_KINDS, type OpenedStore, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// docs/decisions.md (Lists): documents without the field sort first ascending, ties by `_id` in the same
// direction. Written out here as a model: missing or null, then numbers and booleans (true = 1) by value,
// then strings and the JSON text of objects and arrays by their UTF-8 bytes; ids by bytes too. Paging
// through any order with start_after must give the model's sequence exactly, on both stores.
type Value = unknown;

function rank(v: Value): number {
  if (v === undefined || v === null) return 0;
  return typeof v === "number" || typeof v === "boolean" ? 1 : 2;
}

const bytes = (s: string) => Buffer.from(s, "utf8");
function compareValues(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return Number(a) - Number(b);
  if (ra === 2) {
    const ta = typeof a === "string" ? a : canonicalJson(a);
    const tb = typeof b === "string" ? b : canonicalJson(b);
    return Buffer.compare(bytes(ta), bytes(tb));
  }
  return 0;
}

function at(doc: Doc, path: string): Value {
  let v: unknown = doc;
  for (const part of path.split(".")) v = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Doc)[part] : undefined;
  return v;
}

function modelOrder(docs: Doc[], orderBy: string, desc: boolean): string[] {
  const sign = desc ? -1 : 1;
  const sorted = [...docs].sort((a, b) => {
    const byValue = orderBy === "_id" ? 0 : compareValues(at(a, orderBy), at(b, orderBy));
    return sign * (byValue || Buffer.compare(bytes(String(a._id)), bytes(String(b._id))));
  });
  return sorted.map((d) => String(d._id));
}

const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  // Where a number's order rests on its sign, exponent or last bits.
  fc.constantFrom(-0, 0, 5e-324, -5e-324, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), Number.MAX_VALUE, -Number.MAX_VALUE),
  fc.boolean(),
  fc.constantFrom("", "a", "A", "ab", "b", "é", "Z", "a b", "ä", "日本", "😀", "\"q\"", "10", "9"),
  fc.constantFrom({ a: 1 }, [1, 2], { b: "x" }, []),
);
const id = fc.constantFrom("a", "b", "B", "c", "aa", "a-1", "é", "z9", "ZZ", "0", "m", "q");
const doc = fc.record({ _id: id, brewDate: value, name: value, x: fc.record({ y: value }, { requiredKeys: [] }) }, { requiredKeys: ["_id"] });
const docs = fc.uniqueArray(doc, { selector: (d) => d._id, minLength: 0, maxLength: 10 });
const order = fc.record({
  orderBy: fc.constantFrom("_id", "brewDate", "name", "x.y", "x"),
  desc: fc.boolean(),
  limit: fc.integer({ min: 1, max: 4 }),
});

async function pageThrough(store: Store, userId: string, o: { orderBy: string; desc: boolean; limit: number }): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    const query: ListQuery = { limit: o.limit, orderBy: o.orderBy, desc: o.desc, fields: "summary", ...(seen.length ? { startAfter: seen.at(-1) } : {}) };
    const page = await store.list(userId, "batch", query);
    if (page === "unknown-cursor") throw new Error("cursor of a listed record refused");
    seen.push(...page.map((t) => String(JSON.parse(t)._id)));
    if (page.length < o.limit) break;
  }
  return seen;
}

for (const kind of STORE_KINDS) {
  describe(`${kind} store`, () => {
    let opened: OpenedStore;
    beforeAll(async () => {
      opened = await openTestStore(kind);
    });
    afterAll(() => opened.close(), DROP_TIMEOUT_MS);

    test("keyset paging in any order over mixed-type values gives the model order, each record once", async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(docs, order, async (list, o) => {
          const userId = `u${run++}`;
          await opened.store.importAll(userId, { batches: list.map((d) => ({ doc: d as Doc })), docs: [] });
          expect(await pageThrough(opened.store, userId, o)).toEqual(modelOrder(list as Doc[], o.orderBy, o.desc));
        }),
        { numRuns: 60, verbose: 1 },
      );
    });
  });
}
