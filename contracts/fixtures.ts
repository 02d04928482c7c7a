// The data the kit makes before its checks, where the API lets it: recipes and inventory items, so
// the list, paging and tie checks run on any account, an empty one included. Each record is named
// with the run prefix and deleted by that prefix after the run (cleanup.ts), also after a failure.
// Batches, readings, trackers and version 1 data cannot be made through the API: checks that need
// them skip and the run ends with a list of that data (report.ts).
import type { Ctx } from "./engine.ts";
import { LISTS, type ListResource } from "./doc.ts";
import { expectArray, expectCreated, madeId } from "./expect.ts";
import { INVENTORY_BODIES, recipeBody } from "./records.ts";
import type { Entry } from "./data.ts";

/** The kinds the API can create, and the page size that shows more than 50 records. */
const CREATABLE = LISTS.filter((r) => r.key !== "batches");
const OVER_LIMIT = 51;
/** Records of one kind that give ties on every order field: two names twice, one stock value thrice. */
const TIES = [{ tie: "a", stock: 2 }, { tie: "a", stock: 2 }, { tie: "b", stock: 2 }, { tie: "b", stock: -1 }];

function body(ctx: Ctx, r: ListResource, suffix: string, stock: number): Record<string, unknown> {
  if (r.key === "recipes") return recipeBody(ctx.runPrefix, suffix);
  return { name: `${ctx.runPrefix}${suffix}`, ...INVENTORY_BODIES[r.key as keyof typeof INVENTORY_BODIES], inventory: stock };
}

async function create(ctx: Ctx, r: ListResource, suffix: string, stock: number): Promise<void> {
  // The delete at the end of the run is counted now, so the checks never spend it.
  ctx.budget.reserve("main", 1);
  const ex = await ctx.client.call({ method: "POST", path: r.path, account: ctx.main, json: body(ctx, r, suffix, stock) });
  // Made with another success status, the record serves the checks all the same (a check of its own
  // fails the status); anything else stops the kit's preparation, naming the answer.
  if (!madeId(ex)) expectCreated(ex);
}

/** Whether some order field of the resource holds the same value twice. */
export function hasTies(items: Entry[], fields: string[]): boolean {
  return fields.some((f) => {
    const seen = new Set<string>();
    return items.some((e) => {
      if (e[f] === undefined) return false;
      const k = JSON.stringify(e[f]);
      return seen.has(k) || (seen.add(k), false);
    });
  });
}

async function firstPage(ctx: Ctx, r: ListResource): Promise<Entry[]> {
  const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { limit: 50, include: r.orderFields.join(",") } });
  return expectArray(ex);
}

/** What the planner should know: whether the main account has batches, whether another account is set. */
export async function survey(ctx: Ctx): Promise<void> {
  ctx.facts.hasOther = ctx.config.accounts.other !== undefined;
  if (!ctx.config.accounts.main) return;
  const ex = await ctx.client.call({ method: "GET", path: "/v2/batches", account: ctx.main, query: { limit: 1 } });
  ctx.facts.mainHasBatches = expectArray(ex).length > 0;
}

/** Makes ties in every creatable kind that lacks them, and one kind of more than 50 records. */
export async function makeData(ctx: Ctx): Promise<void> {
  if (!ctx.config.areas.includes("lists") || !ctx.config.accounts.main || !ctx.config.allowWrites || !ctx.config.allowDeletes) return;
  const counts = new Map<ListResource, number>();
  for (const r of CREATABLE) {
    const items = await firstPage(ctx, r);
    let n = items.length;
    if (n === 50) {
      const after = String(items.at(-1)!._id);
      n += expectArray(await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { limit: 1, start_after: after } })).length;
    }
    if (n < 50 && !hasTies(items, r.orderFields)) {
      for (const [i, t] of TIES.entries()) await create(ctx, r, `tie-${t.tie}-${i}`, t.stock);
      n += TIES.length;
    }
    counts.set(r, n);
  }
  if ([...counts.values()].some((n) => n >= OVER_LIMIT)) return;
  // The inventory kind closest to the limit, so the fewest records are made.
  const [kind, n] = [...counts].filter(([r]) => r.key !== "recipes").sort((a, b) => b[1] - a[1])[0]!;
  const needed = OVER_LIMIT - n;
  // Creating and deleting them must leave most of the budget to the checks.
  if (needed * 2 > ctx.budget.remaining("main") / 3) return;
  for (let i = 0; i < needed; i++) await create(ctx, kind, `page-${String(i).padStart(2, "0")}`, 1);
}
