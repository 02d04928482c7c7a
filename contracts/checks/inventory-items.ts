// Inventory items the kit makes for its checks: one body per collection, named with the run prefix
// and tracked so the area's teardown deletes them. Shared by inventory.ts and inventory-filters.ts.
import type { Ctx } from "../engine.ts";
import type { Collection } from "../doc.ts";
import { expectCreated } from "../expect.ts";

export const BODIES: Record<Collection, Record<string, unknown>> = {
  fermentables: { type: "Grain", color: 3, potential: 1.037, notes: "first" },
  hops: { alpha: 5.5, type: "Pellet", use: "Boil", notes: "first" },
  miscs: { type: "Other", use: "Boil", unit: "g", notes: "first" },
  yeasts: { type: "Ale", form: "Dry", unit: "pkg", notes: "first" },
};

export interface Made { created: Set<string> }

export async function makeItem(ctx: Ctx, made: Made, c: Collection, suffix: string, extra: Record<string, unknown> = {}): Promise<string> {
  const ex = await ctx.client.call({ method: "POST", path: `/v2/inventory/${c}`, account: ctx.main, json: { name: `${ctx.runPrefix}${suffix}`, ...BODIES[c], inventory: 5, ...extra } });
  const id = expectCreated(ex);
  made.created.add(`/v2/inventory/${c}/${id}`);
  return id;
}
