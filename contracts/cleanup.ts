// Deletes what earlier or current runs left behind, found by the kit's name prefix only:
// nothing whose name does not start with the prefix is ever deleted here.
import type { Account } from "./config.ts";
import { KIT_PREFIX, unmetNeed, type Ctx } from "./engine.ts";
import { COLLECTIONS } from "./doc.ts";
import { listAll } from "./data.ts";

const CREATABLE = ["/v2/recipes", ...COLLECTIONS.map((c) => `/v2/inventory/${c}`)];
/** Batches are made only by the extensions area (POST /v2/batches is an addition beyond the document). */
const CREATABLE_WITH_EXTENSIONS = ["/v2/batches", ...CREATABLE];

export async function deleteLeftovers(ctx: Ctx, account: Account): Promise<string[]> {
  const deleted: string[] = [];
  for (const path of ctx.config.extensions ? CREATABLE_WITH_EXTENSIONS : CREATABLE) {
    const listing = await listAll(ctx, account, path, { include: "name" }, 50, 20, true);
    for (const e of listing.items) {
      if (typeof e.name !== "string" || !e.name.startsWith(KIT_PREFIX)) continue;
      const ex = await ctx.client.call({ method: "DELETE", path: `${path}/${String(e._id)}`, account, essential: true });
      if (ex.status === 200) deleted.push(`${path}/${String(e._id)}`);
    }
  }
  return deleted;
}

/** Cleanup for every account the kit may create records in, when creating is allowed at all. */
export async function cleanupByPrefix(ctx: Ctx): Promise<void> {
  if (unmetNeed(ctx.config, "creates")) return;
  const creating = ["auth", "isolation", "lists", "recipes", "inventory", "extensions"].some((a) => ctx.config.areas.includes(a as never));
  if (!creating) return;
  // The auth area tries to create with the read-only key, which must be refused; a target that does
  // not refuse keeps what it made there, to be found and deleted too (with that key, as it allowed).
  const labels = ctx.config.areas.includes("auth") ? (["main", "other", "readonly"] as const) : (["main", "other"] as const);
  for (const label of labels) {
    const account = ctx.config.accounts[label];
    if (account) await deleteLeftovers(ctx, account);
  }
}
