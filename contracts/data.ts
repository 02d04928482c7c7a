// Look-ups of the account's own data that several areas share, memoized per run.
import type { Account } from "./config.ts";
import type { Ctx } from "./engine.ts";
import { expectArray, fail } from "./expect.ts";
import type { Exchange } from "./client.ts";

export type Entry = Record<string, unknown>;

/** A list read in pages; `pages` holds each page's exchange, to show with a failure. */
export interface Listing { items: Entry[]; complete: boolean; pages: Exchange[]; pageSize: number }

/** The exchange whose page held the entry (the first page when the entry is not found). */
export function pageOf(listing: Listing, entry?: Entry): Exchange | undefined {
  const i = entry ? listing.items.indexOf(entry) : 0;
  return listing.pages[Math.floor(Math.max(0, i) / listing.pageSize)] ?? listing.pages[0];
}

/** Pages through a v2 list with start_after until a short page, at most `maxPages` pages. */
export async function listAll(
  ctx: Ctx, account: Account, path: string, query: Record<string, string | number> = {}, pageSize = 50, maxPages = 4, essential = false,
): Promise<Listing> {
  const items: Entry[] = [];
  const pages: Exchange[] = [];
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const ex = await ctx.client.call({ method: "GET", path, account, query: { ...query, limit: pageSize, start_after: after }, essential });
    const got = expectArray(ex);
    items.push(...got);
    pages.push(ex);
    if (got.length < pageSize) return { items, complete: true, pages, pageSize };
    const last = got[got.length - 1]?._id;
    if (typeof last !== "string") fail("list entry without a string _id", ex);
    after = last;
  }
  return { items, complete: false, pages, pageSize };
}

/** The main account's list in the given order, fetched once per run. */
export function reference(ctx: Ctx, path: string, query: Record<string, string> = {}): Promise<Listing> {
  const key = `ref ${path} ${JSON.stringify(query)}`;
  return ctx.once(key, () => listAll(ctx, ctx.main, path, query));
}

/**
 * The account's first `_id` in `path`; with `own`, the first that is its own record, not a shared
 * catalog item (`default-…`) that every account may read, also when it changed its copy.
 */
export async function firstId(ctx: Ctx, account: Account, path: string, own = false): Promise<string | undefined> {
  return ctx.once(`first ${account.label} ${path}${own ? " own" : ""}`, async () => {
    const ex = await ctx.client.call({ method: "GET", path, account, query: { limit: own ? 50 : 1 } });
    const id = expectArray(ex).map((e) => e._id).find((i) => typeof i === "string" && !(own && i.startsWith("default-")));
    return id as string | undefined;
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
