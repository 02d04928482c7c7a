// [Common list query parameters] limit, complete, include, default fields and key order on the
// batch, recipe and inventory lists. Paging and ordering live in paging.ts.
import type { Area, Check, Ctx } from "../engine.ts";
import { INVENTORY_METADATA, LISTS, STATUSES, allowedRoots, type ListResource } from "../doc.ts";
import { assert, atPath, deepEqual, expectArray, expectObject, expectStatus, fail, show } from "../expect.ts";
import { ids, pageOf, reference, type Entry } from "../data.ts";
import type { Exchange } from "../client.ts";
import { pagingChecks } from "./paging.ts";

async function page(ctx: Ctx, r: ListResource, query: Record<string, string | number>): Promise<Entry[]> {
  return expectArray(await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query }));
}

/** Pages several checks read; fetched once per run to spare the call budget. */
async function shared(ctx: Ctx, r: ListResource, query: Record<string, string | number>): Promise<{ items: Entry[]; ex: Exchange }> {
  return ctx.once(`page ${r.path} ${JSON.stringify(query)}`, async () => {
    const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query });
    return { items: expectArray(ex), ex };
  });
}

/** Total count when the reference listing reached its end, else a lower bound. */
async function total(ctx: Ctx, r: ListResource): Promise<{ n: number; exact: boolean }> {
  const ref = await reference(ctx, r.path);
  return { n: ref.items.length, exact: ref.complete };
}

function keysSorted(e: Entry): boolean {
  const keys = Object.keys(e);
  return keys.every((k, i) => i === 0 || keys[i - 1]! < k);
}

/** Keys outside the default fields (dot paths checked one level deep). */
function extraFields(e: Entry, defaults: string[], include: string[] = []): string[] {
  const roots = allowedRoots(defaults, include);
  const out = Object.keys(e).filter((k) => !roots.has(k));
  for (const root of roots) {
    const subs = [...defaults, ...include].filter((p) => p.startsWith(root + ".")).map((p) => p.split(".")[1]!);
    const whole = [...defaults, ...include].includes(root);
    const v = e[root];
    if (subs.length && !whole && v && typeof v === "object" && !Array.isArray(v)) {
      out.push(...Object.keys(v).filter((k) => !subs.includes(k)).map((k) => `${root}.${k}`));
    }
  }
  return out;
}

function resourceChecks(r: ListResource): Check[] {
  const checks: Check[] = [
    {
      name: `GET ${r.path} without limit returns min(10, total) entries [Common list query parameters]`,
      async run(ctx) {
        const t = await total(ctx, r);
        const { items: got, ex } = await shared(ctx, r, {});
        const want = t.exact ? Math.min(10, t.n) : 10;
        assert(got.length === want, `expected ${want} entries (total ${t.exact ? t.n : `>= ${t.n}`}), got ${got.length}`, ex);
      },
    },
    {
      name: `GET ${r.path}?limit=50 returns min(50, total) entries [Common list query parameters]`,
      async run(ctx) {
        // The reference listing is read in pages of 50: its first page is the answer to limit=50.
        const ref = await reference(ctx, r.path);
        const first = ref.items.slice(0, 50);
        const t = await total(ctx, r);
        assert(first.length === Math.min(50, t.n), `expected ${Math.min(50, t.n)} entries, got ${first.length}`, pageOf(ref));
      },
    },
    {
      name: `GET ${r.path}?limit=51 answers 200 with at most 50 entries, or 400 [Limits]`,
      async run(ctx) {
        const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { limit: 51 } });
        // The answer to a limit above 50 is not shown: served with at most 50, or refused.
        expectStatus(ex, [200, 400]);
        const n = ex.status === 200 ? expectArray(ex).length : 0;
        assert(n <= 50, `${n} entries`, ex);
      },
    },
    {
      name: `GET ${r.path} entries list their properties in alphabetical key order [Resources and their fields]`,
      async run(ctx) {
        const ref = await reference(ctx, r.path);
        const bad = ref.items.find((e) => !keysSorted(e));
        if (bad) fail(`keys out of order in ${String(bad._id)}: ${Object.keys(bad).join(", ")}`, pageOf(ref, bad));
        const full = await shared(ctx, r, { complete: "True", limit: 10 });
        const badFull = full.items.find((e) => !keysSorted(e));
        if (badFull) fail(`complete=True: keys out of order in ${String(badFull._id)}: ${Object.keys(badFull).join(", ")}`, full.ex);
      },
    },
    {
      name: `GET ${r.path}?complete=False answers the same as no complete parameter [Common list query parameters]`,
      async run(ctx) {
        const plain = (await shared(ctx, r, {})).items;
        const explicit = await page(ctx, r, { complete: "False" });
        assert(deepEqual(plain, explicit), `complete=False differs: ${show(explicit)} vs ${show(plain)}`, ctx.client.log.at(-1));
      },
    },
    {
      name: `GET ${r.path}?complete=True entries carry every field of the record read alone [Common list query parameters]`,
      async run(ctx) {
        const full = await shared(ctx, r, { complete: "True", limit: 10 });
        const entry = full.items[0];
        if (!entry) return ctx.needData(`a record in ${r.path} of the main account`);
        const one = expectObject(await ctx.client.call({ method: "GET", path: `${r.path}/${String(entry._id)}`, account: ctx.main }));
        const missing = Object.keys(one).filter((k) => !INVENTORY_METADATA.includes(k) && !deepEqual(entry[k], one[k]));
        if (missing.length) fail(`fields differing from GET ${r.path}/${String(entry._id)}: ${missing.slice(0, 8).join(", ")}`, full.ex);
      },
    },
    {
      name: `GET ${r.path}?include=${r.include} adds exactly those fields to the defaults [Common list query parameters]`,
      async run(ctx) {
        const include = r.include.split(",");
        const got = await page(ctx, r, { include: r.include, limit: 5 });
        if (!got.length) return ctx.needData(`a record in ${r.path} of the main account`);
        const listEx = ctx.client.log.at(-1);
        if (r.defaults) {
          const bad = got.map((e) => extraFields(e, r.defaults!, include)).find((x) => x.length);
          if (bad) fail(`fields outside defaults and include: ${bad.join(", ")}`, listEx);
        }
        const entry = got[0]!;
        const one = expectObject(await ctx.client.call({ method: "GET", path: `${r.path}/${String(entry._id)}`, account: ctx.main }));
        for (const p of [...include, ...(r.defaults ?? [])]) {
          const want = atPath(one, p);
          if (want !== undefined && !deepEqual(atPath(entry, p), want)) fail(`${p}: list has ${show(atPath(entry, p))}, record has ${show(want)}`, listEx);
        }
      },
    },
  ];
  if (r.defaults) {
    checks.splice(4, 0, {
      name: `GET ${r.path} entries carry the default fields (${r.defaults.join(", ")}) the record holds, as it holds them, and no others [Resources and their fields]`,
      async run(ctx) {
        const ref = await reference(ctx, r.path);
        const bad = ref.items.map((e) => ({ e, extra: extraFields(e, r.defaults!) })).find((x) => x.extra.length);
        if (bad) fail(`${String(bad.e._id)} has fields beyond the defaults: ${bad.extra.join(", ")}`, pageOf(ref, bad.e));
        const noId = ref.items.find((e) => typeof e._id !== "string");
        if (noId) fail(`an entry without a string _id: ${show(noId)}`, pageOf(ref, noId));
        // The whole records of the first page (the same call as the complete list's check): each default
        // field a record holds is in its plain entry, with the same value.
        const whole = await shared(ctx, r, { complete: "True", limit: 10 });
        for (const record of whole.items) {
          const entry = ref.items.find((e) => e._id === record._id);
          if (!entry) continue;
          for (const p of r.defaults!) {
            const want = atPath(record, p);
            if (want !== undefined && !deepEqual(atPath(entry, p), want)) {
              fail(`${String(record._id)}: default field ${p} is ${show(atPath(entry, p))} in the list, ${show(want)} in the record`, pageOf(ref, entry));
            }
          }
        }
      },
    });
  }
  return checks;
}

/** The maximum only shows on a list longer than it: on each such list, limit=51 and limit=100 give 50 at most. */
const overLimit: Check = {
  name: "GET of a list of more than 50 records with limit=51 or limit=100 answers 200 with at most 50 entries, or 400 [Limits, Common list query parameters]",
  async run(ctx) {
    let seen = 0;
    for (const r of LISTS) {
      const ref = await reference(ctx, r.path);
      if (ref.items.length <= 50) continue;
      seen++;
      for (const limit of [51, 100]) {
        const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { limit } });
        expectStatus(ex, [200, 400]);
        if (ex.status === 200) {
          const got = expectArray(ex);
          assert(got.length <= 50, `${r.path}?limit=${limit} gave ${got.length} entries`, ex);
        }
      }
    }
    if (!seen) return ctx.needData("more than 50 records of one kind (the kit makes them with CONTRACTS_ALLOW_WRITES=1 and CONTRACTS_ALLOW_DELETES=1 when the budget allows)");
  },
};

const statusFilter: Check = {
  name: "GET /v2/batches?status=<s> returns exactly the batches of that status, in _id order [Batches]",
  async run(ctx) {
    const ref = await reference(ctx, "/v2/batches");
    if (!ref.complete) return ctx.skip("more than 200 batches: the full set is not known");
    for (const s of STATUSES) {
      const want = ids(ref.items.filter((e) => e.status === s)).slice(0, 50);
      const got = expectArray(await ctx.client.call({ method: "GET", path: "/v2/batches", account: ctx.main, query: { status: s, limit: 50 } }));
      assert(deepEqual(ids(got), want), `status=${s}: expected ${show(want)}, got ${show(ids(got))}`, ctx.client.log.at(-1));
    }
  },
};

export function listsArea(): Area {
  return {
    name: "lists",
    checks: [...LISTS.flatMap((r) => [...resourceChecks(r), ...pagingChecks(r)]), overLimit, statusFilter].map((c) => ({
      ...c,
      needs: ["main", ...(c.needs ?? [])],
    })),
  };
}
