// Look-ups of the account's own data that several areas share, memoized per run.
import type { Account } from "./config.ts";
import type { Ctx } from "./engine.ts";
import { expectArray, fail } from "./expect.ts";

export type Entry = Record<string, unknown>;

export interface Listing { items: Entry[]; complete: boolean }

/** Pages through a v2 list with start_after until a short page, at most `maxPages` pages. */
export async function listAll(
  ctx: Ctx, account: Account, path: string, query: Record<string, string | number> = {}, pageSize = 50, maxPages = 4, essential = false,
): Promise<Listing> {
  const items: Entry[] = [];
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const ex = await ctx.client.call({ method: "GET", path, account, query: { ...query, limit: pageSize, start_after: after }, essential });
    const got = expectArray(ex);
    items.push(...got);
    if (got.length < pageSize) return { items, complete: true };
    const last = got[got.length - 1]?._id;
    if (typeof last !== "string") fail("list entry without a string _id", ex);
    after = last;
  }
  return { items, complete: false };
}

/** The main account's list in the given order, fetched once per run. */
export function reference(ctx: Ctx, path: string, query: Record<string, string> = {}): Promise<Listing> {
  const key = `ref ${path} ${JSON.stringify(query)}`;
  return ctx.once(key, () => listAll(ctx, ctx.main, path, query));
}

export async function firstId(ctx: Ctx, account: Account, path: string): Promise<string | undefined> {
  return ctx.once(`first ${account.label} ${path}`, async () => {
    const ex = await ctx.client.call({ method: "GET", path, account, query: { limit: 1 } });
    const id = expectArray(ex)[0]?._id;
    return typeof id === "string" ? id : undefined;
  });
}

/** An id no account has: unique to this run. */
export function missingId(ctx: Ctx): string {
  return `${ctx.runPrefix}missing`;
}

export function ids(items: Entry[]): string[] {
  return items.map((e) => String(e._id));
}

/** Repeated ids in a list, if any. */
export function repeats(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
}
