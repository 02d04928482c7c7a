// v1 and v2 paging agree (API document, Versioning: v1 pages with `offset`, v2 with `start_after`, the
// last `_id` of the previous page; both default to `_id` order). For any records and any page size,
// walking v1 with offsets and v2 with start_after gives the same pages, and every record once.
import { beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { STATUSES, twins, type Doc } from "./data.ts";

beforeAll(() => twins(), 30_000);

const idArb = fc.string({ unit: fc.constantFrom(..."abAB09-_"), minLength: 1, maxLength: 5 });

const batchesArb = fc.uniqueArray(
  fc.record({ _id: idArb, name: fc.string({ maxLength: 4 }), status: fc.constantFrom(...STATUSES), batchNo: fc.nat(20) }),
  { selector: (b) => b._id, maxLength: 45 },
);
const recipesArb = fc.uniqueArray(fc.record({ _id: idArb, name: fc.string({ minLength: 1, maxLength: 4 }) }), { selector: (r) => r._id, maxLength: 45 });
const hopsArb = fc.uniqueArray(
  fc.record({ _id: idArb, name: fc.string({ minLength: 1, maxLength: 4 }), inventory: fc.integer({ min: -5, max: 5 }), alpha: fc.integer({ min: 1, max: 20 }) }),
  { selector: (h) => h._id, maxLength: 30 },
);

type Twins = Awaited<ReturnType<typeof twins>>;

/** Every page of a list, following v1 offsets. */
async function v1Pages(t: Twins, path: string, limit: number, max: number): Promise<Doc[][]> {
  const pages: Doc[][] = [];
  for (let offset = 0; pages.length <= max; offset += limit) {
    const res = await t.call("GET", `${path}${path.includes("?") ? "&" : "?"}limit=${limit}&offset=${offset}`, t.v1);
    expect(res.status).toBe(200);
    pages.push(res.json());
    if (pages[pages.length - 1].length < limit) break;
  }
  return pages;
}

/** Every page of a list, following v2 start_after. */
async function v2Pages(t: Twins, path: string, limit: number, max: number): Promise<Doc[][]> {
  const pages: Doc[][] = [];
  let after: string | undefined;
  while (pages.length <= max) {
    const cursor = after === undefined ? "" : `&start_after=${encodeURIComponent(after)}`;
    const res = await t.call("GET", `${path}${path.includes("?") ? "&" : "?"}limit=${limit}${cursor}`, t.v2);
    expect(res.status).toBe(200);
    const page = res.json() as Doc[];
    pages.push(page);
    if (page.length < limit) break;
    after = page[page.length - 1]._id as string;
  }
  return pages;
}

const sortedIds = (docs: Array<{ _id: string }>) => docs.map((d) => d._id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

test("batches: v1 offsets (default status Planning) and v2 start_after with status=Planning give the same pages", async () => {
  await fc.assert(
    fc.asyncProperty(batchesArb, fc.integer({ min: 1, max: 12 }), async (batches, limit) => {
      const t = await twins({ batches });
      const one = await v1Pages(t, "/v1/batches", limit, batches.length + 1);
      const two = await v2Pages(t, "/v2/batches?status=Planning", limit, batches.length + 1);
      expect(one).toEqual(two);
      expect(one.flat().map((b) => b._id)).toEqual(sortedIds(batches.filter((b) => b.status === "Planning")));
    }),
    { numRuns: 25 },
  );
}, 60_000);

test("recipes, complete documents: the same pages on both versions, every recipe once in _id order", async () => {
  await fc.assert(
    fc.asyncProperty(recipesArb, fc.integer({ min: 1, max: 50 }), async (recipes, limit) => {
      const t = await twins({ recipes });
      const one = await v1Pages(t, "/v1/recipes?complete=true", limit, recipes.length + 1);
      const two = await v2Pages(t, "/v2/recipes?complete=true", limit, recipes.length + 1);
      expect(one).toEqual(two);
      expect(one.flat().map((r) => r._id)).toEqual(sortedIds(recipes));
    }),
    { numRuns: 25 },
  );
}, 60_000);

test("hops: the same pages on both versions", async () => {
  await fc.assert(
    fc.asyncProperty(hopsArb, fc.integer({ min: 1, max: 10 }), async (hops, limit) => {
      const t = await twins({ hops: hops.map((h) => ({ ...h, type: "Pellet", use: "Boil" })) });
      const one = await v1Pages(t, "/v1/inventory/hops", limit, hops.length + 1);
      const two = await v2Pages(t, "/v2/inventory/hops", limit, hops.length + 1);
      expect(one).toEqual(two);
      expect(one.flat().map((h) => h._id)).toEqual(sortedIds(hops));
    }),
    { numRuns: 20 },
  );
}, 60_000);
