// Paging property (API document, Common list query parameters: `limit`, `start_after` is "the _id of
// the last item of the previous response", `order_by`, `order_by_direction`; docs/decisions.md, Lists:
// documents without the field sort first ascending and last descending, ties by _id in the same
// direction). Following start_after page by page yields every batch once, in order.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { openApp } from "./harness.ts";
import { listEntry } from "./endpoints.ts";
import { T0, type Doc } from "./fixtures.ts";
import { STATUSES } from "./patch-fields.ts";

const ORDER_FIELDS = ["_id", "brewDate", "name", "batchNo"] as const;
const DAY = 86_400_000;
const chars = (s: string, maxLength: number, minLength = 0) => fc.string({ unit: fc.constantFrom(...s), minLength, maxLength });
// undefined: the field is absent; null: present as null (name and batchNo are nullable).
const absentOrNull = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.option(arb, { nil: null }), { nil: undefined });

const batchArb = fc.record({
  _id: chars("aAbBzZ09-_", 6, 1),
  status: fc.constantFrom(...STATUSES),
  // Few distinct values, so ties are common.
  brewDate: fc.option(fc.integer({ min: 0, max: 4 }).map((d) => T0 + d * DAY), { nil: undefined }),
  name: absentOrNull(chars("aAbB z0", 3)),
  batchNo: absentOrNull(fc.integer({ min: 1, max: 4 })),
});

const batchesArb = fc
  .uniqueArray(batchArb, { selector: (b) => b._id, maxLength: 40 })
  .map((bs) => bs.map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as Doc));

/** The expected order, computed here: absent and null first ascending; ties by _id, same direction. */
function expectedOrder(docs: Doc[], field: string, desc: boolean): Doc[] {
  const key = (d: Doc) => (d[field] === undefined || d[field] === null ? undefined : (d[field] as string | number));
  const cmp = (a: Doc, b: Doc) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === undefined) return -1;
      if (kb === undefined) return 1;
      return ka < kb ? -1 : 1;
    }
    return (a._id as string) < (b._id as string) ? -1 : (a._id as string) > (b._id as string) ? 1 : 0;
  };
  const sorted = [...docs].sort(cmp);
  return desc ? sorted.reverse() : sorted;
}

test("following start_after yields every batch exactly once in the requested order", async () => {
  await fc.assert(
    fc.asyncProperty(
      batchesArb,
      fc.integer({ min: 1, max: 50 }),
      fc.constantFrom(...ORDER_FIELDS),
      fc.boolean(),
      async (docs, limit, orderBy, desc) => {
        const h = await openApp();
        const alice = await h.account("alice");
        await h.load("alice", { batches: docs });
        const base = `/v2/batches?limit=${limit}&order_by=${orderBy}&order_by_direction=${desc ? "desc" : "asc"}`;
        const seen: Doc[] = [];
        let after: string | undefined;
        for (let pages = 0; pages <= docs.length + 1; pages++) {
          const url = after === undefined ? base : `${base}&start_after=${encodeURIComponent(after)}`;
          const res = await h.call("GET", url, alice);
          expect([url, res.status]).toEqual([url, 200]);
          const page = res.json() as Doc[];
          expect(page.length).toBeLessThanOrEqual(limit);
          seen.push(...page);
          if (page.length < limit) break;
          after = page[page.length - 1]._id as string;
        }
        expect(seen).toEqual(expectedOrder(docs, orderBy, desc).map(listEntry));
      },
    ),
    { numRuns: 150 },
  );
});
