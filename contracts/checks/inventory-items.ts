// Inventory items the inventory checks make: named with the run prefix and tracked so the area's
// teardown deletes them. Shared by inventory.ts and inventory-filters.ts.
import type { Ctx } from "../engine.ts";
import type { Collection } from "../doc.ts";
import { INVENTORY_BODIES } from "../records.ts";
import { expectCreated } from "../expect.ts";

export interface Made { created: Set<string> }

export async function makeItem(ctx: Ctx, made: Made, c: Collection, suffix: string, extra: Record<string, unknown> = {}): Promise<string> {
  const ex = await ctx.client.call({ method: "POST", path: `/v2/inventory/${c}`, account: ctx.main, json: { name: `${ctx.runPrefix}${suffix}`, ...INVENTORY_BODIES[c], inventory: 5, ...extra } });
  const id = expectCreated(ex);
  made.created.add(`/v2/inventory/${c}/${id}`);
  return id;
}
