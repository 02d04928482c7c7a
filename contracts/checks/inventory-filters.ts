// [Inventory] inventory_exists and inventory_negative: which items they keep and in which order.
import type { Check, Ctx } from "../engine.ts";
import { COLLECTIONS } from "../doc.ts";
import { assert, fail, show } from "../expect.ts";
import { listAll, type Entry } from "../data.ts";
import { makeItem, type Made } from "./inventory-items.ts";

const FILTERS = [
  { param: "inventory_exists", keep: (n: number) => n > 0, what: "> 0" },
  { param: "inventory_negative", keep: (n: number) => n < 0, what: "< 0" },
] as const;

async function filtered(ctx: Ctx, path: string, param: string): Promise<Entry[]> {
  const listing = await listAll(ctx, ctx.main, path, { [param]: "True", include: "inventory" });
  return listing.items;
}

function problem(items: Entry[], keep: (n: number) => boolean, what: string): string | undefined {
  const bad = items.find((e) => typeof e.inventory !== "number" || !keep(e.inventory));
  if (bad) return `${String(bad._id)} has inventory ${show(bad.inventory)}, not ${what}`;
  for (let i = 1; i < items.length; i++) {
    if ((items[i - 1]!.inventory as number) > (items[i]!.inventory as number)) {
      return `not ascending by inventory: ${show(items[i - 1]!.inventory)} before ${show(items[i]!.inventory)}`;
    }
  }
  return undefined;
}

export function filterChecks(made: Made): Check[] {
  const onData = COLLECTIONS.flatMap((c) => FILTERS.map((f): Check => ({
    name: `GET /v2/inventory/${c}?${f.param}=True keeps only items with inventory ${f.what}, ascending by inventory [Inventory]`,
    async run(ctx) {
      const items = await filtered(ctx, `/v2/inventory/${c}`, f.param);
      const p = problem(items, f.keep, f.what);
      if (p) fail(p, ctx.client.log.at(-1));
    },
  })));
  const stocks = [3, 1, 0, -2, -5];
  let ids: Promise<Map<number, string>> | undefined;
  const seeded = (ctx: Ctx) => (ids ??= (async () => {
    const m = new Map<number, string>();
    for (const n of stocks) m.set(n, await makeItem(ctx, made, "hops", `stock${n}`, { inventory: n }));
    return m;
  })());
  const withItems = FILTERS.map((f): Check => ({
    name: `GET /v2/inventory/hops?${f.param}=True lists new items with inventory ${f.what} in ascending order and leaves out the others [Inventory]`,
    needs: ["main", "creates"],
    async run(ctx) {
      const m = await seeded(ctx);
      const items = await filtered(ctx, "/v2/inventory/hops", f.param);
      const p = problem(items, f.keep, f.what);
      if (p) fail(p, ctx.client.log.at(-1));
      const seen = items.map((e) => String(e._id)).filter((id) => [...m.values()].includes(id));
      const want = stocks.filter(f.keep).sort((a, b) => a - b).map((n) => m.get(n)!);
      assert(show(seen) === show(want), `created items listed as ${show(seen)}, expected ${show(want)}`, ctx.client.log.at(-1));
    },
  }));
  return [...onData, ...withItems];
}
