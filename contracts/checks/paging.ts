// [Common list query parameters] start_after paging and ordering: the pages of any order_by and
// direction, concatenated, are the full ordered set with no repeats.
import fc from "fast-check";
import type { Check, Ctx } from "../engine.ts";
import type { ListResource } from "../doc.ts";
import { assert, deepEqual, expectArray, fail, show } from "../expect.ts";
import { ids, listAll, pageOf, reference, repeats, type Entry, type Listing } from "../data.ts";
import { property } from "../property.ts";

interface Order { by: string; dir: "asc" | "desc" }

function orderQuery(o: Order): Record<string, string> {
  return o.by === "_id" && o.dir === "asc" ? {} : { order_by: o.by, order_by_direction: o.dir, include: o.by };
}

function ordered(ctx: Ctx, r: ListResource, o: Order): Promise<Listing> {
  return o.by === "_id" && o.dir === "asc" ? reference(ctx, r.path) : ctx.once(`order ${r.path} ${o.by} ${o.dir}`, () => listAll(ctx, ctx.main, r.path, orderQuery(o)));
}

/** Pages with start_after at `limit` until a short page; returns every id seen, in order. */
async function walk(ctx: Ctx, r: ListResource, o: Order, limit: number, maxPages: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { ...orderQuery(o), limit, start_after: after } });
    const got = expectArray(ex);
    assert(got.length <= limit, `page of ${got.length} entries with limit=${limit}`, ex);
    seen.push(...ids(got));
    const rep = repeats(seen);
    if (rep.length) fail(`start_after=${after} repeated ${rep.join(", ")} (pages so far: ${show(seen)})`, ex);
    if (got.length < limit) return seen;
    after = String(got[got.length - 1]!._id);
  }
  fail(`more than ${maxPages} pages of ${limit} (seen ${seen.length} ids): paging does not end`, ctx.client.log.at(-1));
}

async function checkPaging(ctx: Ctx, r: ListResource, o: Order, limit: number): Promise<void> {
  const ref = await ordered(ctx, r, o);
  if (!ref.complete) return ctx.skip(`more than 200 entries in ${r.path}: the full set is not known`);
  const want = ids(ref.items);
  const got = await walk(ctx, r, o, limit, Math.ceil(want.length / limit) + 2);
  if (!deepEqual(got, want)) {
    fail(`order_by=${o.by} ${o.dir}, limit=${limit}: pages give ${show(got)}, the full list is ${show(want)}`, ctx.client.log.at(-1));
  }
}

// The document does not say how text is ordered ("not shown"): by code unit, as JavaScript and a "C"
// collation sort, or by a language's rules, as a database's default collation may (`amber` before
// `Cascade`; punctuation ignored at first). Two strings are out of order only when every one of these
// orders puts them so.
const COLLATIONS = [new Intl.Collator("en", { sensitivity: "variant" }), new Intl.Collator("en", { sensitivity: "variant", ignorePunctuation: true })];

function compareText(a: string, b: string): number[] {
  return [a < b ? -1 : a > b ? 1 : 0, ...COLLATIONS.map((c) => c.compare(a, b))];
}

/** Numbers by value; text by each order a server may use (compareText); anything else is not compared. */
function compare(a: unknown, b: unknown): number[] | undefined {
  if (typeof a === "number" && typeof b === "number") return [a - b];
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  return undefined;
}

export function outOfOrder(items: Entry[], field: string, dir: "asc" | "desc"): { text: string; entry: Entry } | undefined {
  for (let i = 1; i < items.length; i++) {
    const c = compare(items[i - 1]![field], items[i]![field]);
    if (c !== undefined && c.every((x) => (dir === "asc" ? x > 0 : x < 0))) {
      return { entry: items[i]!, text: `${String(items[i - 1]!._id)} (${show(items[i - 1]![field])}) before ${String(items[i]!._id)} (${show(items[i]![field])})` };
    }
  }
  return undefined;
}

/** The first entry whose order value the next entry shares, in the listing ordered by one of `fields`. */
async function tiedEntry(ctx: Ctx, r: ListResource, dir: "asc" | "desc"): Promise<{ o: Order; items: Entry[]; i: number } | undefined> {
  for (const by of r.orderFields) {
    const o = { by, dir };
    const { items } = await ordered(ctx, r, o);
    const i = items.findIndex((e, k) => k + 1 < items.length && e[by] !== undefined && deepEqual(e[by], items[k + 1]![by]));
    if (i >= 0) return { o, items, i };
  }
  return undefined;
}

/**
 * One page after an entry that shares its order value with the next: it must start with that next
 * entry. A fixed case of two calls, so ties are tried at any call budget.
 */
async function checkTieStep(ctx: Ctx, r: ListResource, dir: "asc" | "desc"): Promise<void> {
  const tie = await tiedEntry(ctx, r, dir);
  if (!tie) return ctx.needData(`two records in ${r.path} of the main account sharing a value of ${r.orderFields.join(" or ")}`);
  const { o, items, i } = tie;
  const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { ...orderQuery(o), limit: 3, start_after: String(items[i]!._id) } });
  const got = ids(expectArray(ex));
  const want = ids(items.slice(i + 1, i + 4));
  assert(deepEqual(got, want), `order_by=${o.by} ${dir} after ${String(items[i]!._id)} (${o.by} ${show(items[i]![o.by])}): got ${show(got)}, the full list continues ${show(want)}`, ex);
}

export function pagingChecks(r: ListResource): Check[] {
  const field = r.orderFields[0]!;
  return [
    {
      name: `GET ${r.path} is ordered by ascending _id by default [What the service does, rule 2]`,
      async run(ctx) {
        const ref = await reference(ctx, r.path);
        const bad = outOfOrder(ref.items, "_id", "asc");
        if (bad) fail(`not in ascending _id order: ${bad.text}`, pageOf(ref, bad.entry));
      },
    },
    {
      name: `GET ${r.path}?order_by_direction=desc lists the _ids in reverse [Common list query parameters]`,
      async run(ctx) {
        const ref = await reference(ctx, r.path);
        if (!ref.complete) return ctx.skip("more than 200 entries: the full set is not known");
        const got = expectArray(await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { order_by_direction: "desc", limit: 50 } }));
        const want = ids(ref.items).reverse().slice(0, 50);
        assert(deepEqual(ids(got), want), `expected ${show(want)}, got ${show(ids(got))}`, ctx.client.log.at(-1));
      },
    },
    ...(["asc", "desc"] as const).map((dir): Check => ({
      name: `GET ${r.path}?order_by=${field}&order_by_direction=${dir} sorts entries by ${field} [Common list query parameters]`,
      async run(ctx) {
        const ref = await ordered(ctx, r, { by: field, dir });
        const bad = outOfOrder(ref.items, field, dir);
        if (bad) fail(`not sorted by ${field} ${dir}: ${bad.text}`, pageOf(ref, bad.entry));
      },
    })),
    {
      name: `GET ${r.path} pages of limit=3 (a sixth of the list on longer ones) joined with start_after are the full list, no repeats [Common list query parameters]`,
      async run(ctx) {
        const n = (await reference(ctx, r.path)).items.length;
        await checkPaging(ctx, r, { by: "_id", dir: "asc" }, Math.max(3, Math.ceil(n / 6)));
      },
    },
    ...(["asc", "desc"] as const).map((dir): Check => ({
      name: `GET ${r.path}?order_by=<a field with ties>&order_by_direction=${dir}&start_after=<a tied entry> continues with the entries after it, tied ones included [Common list query parameters]`,
      tags: ["always"],
      async run(ctx) { await checkTieStep(ctx, r, dir); },
    })),
    {
      name: `GET ${r.path} pages with any order_by, direction and limit are the full ordered list (property) [Common list query parameters]`,
      tags: ["property"],
      async run(ctx) {
        const ref = await reference(ctx, r.path);
        if (!ref.complete) return ctx.skip("more than 200 entries: the full set is not known");
        // Small limits on a long list cost many calls: keep every run within about 5 pages.
        const minLimit = Math.max(1, Math.ceil(ref.items.length / 4));
        const arb = fc.record({
          by: fc.constantFrom("_id", ...r.orderFields),
          dir: fc.constantFrom("asc" as const, "desc" as const),
          limit: fc.integer({ min: minLimit, max: Math.max(minLimit, 10) }),
        });
        await property(ctx, `${r.path} paging`, arb, (v) => checkPaging(ctx, r, v, v.limit), { costPerRun: 6, maxRuns: 8, share: 0.03 });
      },
    },
  ];
}
