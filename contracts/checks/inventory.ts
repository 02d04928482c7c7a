// [Inventory] create, PATCH modes and precedence, numeric strings, delete. Items made here carry the
// run prefix and are deleted in teardown. Filters and their order are in inventory-filters.ts.
import fc from "fast-check";
import type { Area, Check, Ctx } from "../engine.ts";
import { COLLECTIONS, INVENTORY_CREATE_MANAGED, INVENTORY_PATCH_MANAGED, TEXT, keptManaged, managedValues } from "../doc.ts";
import { assert, expectArray, expectObject, expectStatus, expectText, fail, madeId, show } from "../expect.ts";
import { property } from "../property.ts";
import { filterChecks } from "./inventory-filters.ts";
import { makeItem, type Made } from "./inventory-items.ts";
import { inventoryBoundChecks } from "./nested-bounds.ts";
import { INVENTORY_BODIES } from "../records.ts";

async function item(ctx: Ctx, id: string): Promise<Record<string, unknown>> {
  return expectObject(await ctx.client.call({ method: "GET", path: `/v2/inventory/hops/${id}`, account: ctx.main }));
}

function crudChecks(made: Made): Check[] {
  return COLLECTIONS.flatMap((c): Check[] => [
    {
      name: `POST /v2/inventory/${c} answers 201 \`{"id": …}\` and the item reads back [Inventory]`,
      async run(ctx) {
        const id = await makeItem(ctx, made, c, `${c}-create`);
        const r = expectObject(await ctx.client.call({ method: "GET", path: `/v2/inventory/${c}/${id}`, account: ctx.main }));
        assert(r._id === id && r.name === `${ctx.runPrefix}${c}-create` && r.inventory === 5, `read back ${show(r)}`, ctx.client.log.at(-1));
      },
    },
    {
      name: `POST /v2/inventory/${c} without a body answers 400 \`Missing body\` [Inventory, Errors]`,
      tags: ["text"],
      async run(ctx) {
        expectText(ctx, await ctx.client.call({ method: "POST", path: `/v2/inventory/${c}`, account: ctx.main }), 400, TEXT.missingBody);
      },
    },
    {
      name: `DELETE /v2/inventory/${c}/{id} answers 200 \`Deleted\`, then the item answers 404 [Inventory]`,
      tags: ["text"],
      async run(ctx) {
        const id = await makeItem(ctx, made, c, `${c}-delete`);
        const path = `/v2/inventory/${c}/${id}`;
        expectText(ctx, await ctx.client.call({ method: "DELETE", path, account: ctx.main }), 200, TEXT.deleted);
        made.created.delete(path);
        expectStatus(await ctx.client.call({ method: "GET", path, account: ctx.main }), 404);
      },
    },
  ]);
}

/** PATCH steps on one hop: body, expected status and text, expected stock and notes afterwards. */
interface Step { body: Record<string, unknown>; status: number; text?: string; inventory: number; notes?: string }

function modeChecks(made: Made): Check[] {
  let hopId: string | undefined;
  const hop = async (ctx: Ctx) => (hopId ??= await makeItem(ctx, made, "hops", "hop-modes"));
  const steps = (name: string, list: Step[], tags = ["text"]): Check => ({
    name,
    tags,
    async run(ctx) {
      const id = await hop(ctx);
      for (const s of list) {
        const ex = await ctx.client.call({ method: "PATCH", path: `/v2/inventory/hops/${id}`, account: ctx.main, json: s.body });
        if (s.text) expectText(ctx, ex, s.status, s.text);
        else expectStatus(ex, s.status);
        const r = await item(ctx, id);
        assert(r.inventory === s.inventory, `after ${show(s.body)} inventory is ${show(r.inventory)}, expected ${s.inventory}`, ex);
        if (s.notes !== undefined) assert(r.notes === s.notes, `after ${show(s.body)} notes is ${show(r.notes)}, expected ${show(s.notes)}`, ex);
        assert(r.name === `${ctx.runPrefix}hop-modes`, `name changed to ${show(r.name)}`, ex);
        assert(!("inventory_adjust" in r), "inventory_adjust was stored on the item", ex);
      }
    },
  });
  const U = TEXT.updated;
  return [
    steps("PATCH {inventory} sets the stock and nothing else (inventory-only mode) [Inventory]", [
      { body: { inventory: 7 }, status: 200, text: U, inventory: 7, notes: "first" },
    ]),
    steps("PATCH {inventory_adjust} adds and subtracts, and is never stored [Inventory]", [
      { body: { inventory: 7 }, status: 200, text: U, inventory: 7 },
      { body: { inventory_adjust: 3 }, status: 200, text: U, inventory: 10 },
      { body: { inventory_adjust: -4 }, status: 200, text: U, inventory: 6, notes: "first" },
    ]),
    steps("PATCH accepts numeric strings for inventory and inventory_adjust [Inventory]", [
      { body: { inventory: "12.5" }, status: 200, text: U, inventory: 12.5 },
      { body: { inventory_adjust: "-2.5" }, status: 200, text: U, inventory: 10 },
    ]),
    steps("PATCH with both inventory and inventory_adjust: inventory wins [Inventory]", [
      { body: { inventory: 20, inventory_adjust: 5 }, status: 200, text: U, inventory: 20 },
    ]),
    steps("PATCH inventory=\"12abc\" is refused: 400 `Invalid inventory`, stock unchanged [Inventory, Errors]", [
      { body: { inventory: 4 }, status: 200, text: U, inventory: 4 },
      { body: { inventory: "12abc" }, status: 400, text: TEXT.invalidInventory, inventory: 4 },
    ]),
    steps("PATCH inventory_adjust=\"12abc\" is refused: 400 `Invalid inventory_adjust` in both modes [Inventory, Errors]", [
      { body: { inventory: 4, notes: "first" }, status: 200, text: U, inventory: 4 },
      { body: { inventory_adjust: "12abc" }, status: 400, text: TEXT.invalidInventoryAdjust, inventory: 4 },
      { body: { notes: "changed", inventory_adjust: "12abc" }, status: 400, text: TEXT.invalidInventoryAdjust, inventory: 4, notes: "first" },
    ]),
    steps("PATCH of another field with inventory=\"12abc\" is refused with 400 [Inventory]", [
      { body: { inventory: 4, notes: "first" }, status: 200, text: U, inventory: 4 },
      { body: { notes: "changed", inventory: "12abc" }, status: 400, inventory: 4, notes: "first" },
    ], []),
    steps("PATCH of another field writes only sent fields and applies inventory_adjust (partial update mode) [Inventory]", [
      { body: { inventory: 4, notes: "first" }, status: 200, text: U, inventory: 4 },
      { body: { notes: "changed", inventory_adjust: 1 }, status: 200, text: U, inventory: 5, notes: "changed" },
    ]),
    {
      name: `PATCH in partial update mode ignores fields starting with _ and createdAt (${INVENTORY_PATCH_MANAGED.join(", ")}) [Inventory]`,
      async run(ctx) {
        const id = await hop(ctx);
        const sent = managedValues(INVENTORY_PATCH_MANAGED, `${ctx.runPrefix}moved`);
        const ex = await ctx.client.call({ method: "PATCH", path: `/v2/inventory/hops/${id}`, account: ctx.main, json: { ...sent, notes: "n2" } });
        expectStatus(ex, 200);
        const r = await item(ctx, id);
        assert(r._id === id && r.notes === "n2", `read back _id ${show(r._id)}, notes ${show(r.notes)}`, ex);
        const kept = keptManaged(r, sent);
        if (kept.length) fail(`fields kept as sent: ${kept.join(", ")}`, ex);
        expectStatus(await ctx.client.call({ method: "GET", path: `/v2/inventory/hops/${String(sent._id)}`, account: ctx.main }), 404);
      },
    },
    {
      name: "PATCH inventory=<any finite number as a string> stores that number; a number followed by letters gives `Invalid inventory` (property) [Inventory]",
      tags: ["text", "property"],
      async run(ctx) {
        const id = await hop(ctx);
        const arb = fc.oneof(
          // Stock amounts to the gram or milliliter: the document states no finer precision.
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000).map((v) => ({ text: String(v), value: v as number | undefined })),
          fc.tuple(fc.integer({ min: -999, max: 999 }), fc.stringMatching(/^[a-dg-wyz]{1,4}$/)).map(([n, s]) => ({ text: `${n}${s}`, value: undefined as number | undefined })),
        );
        await property(ctx, "inventory numeric strings", arb, async ({ text, value }) => {
          const before = value === undefined ? (await item(ctx, id)).inventory : undefined;
          const ex = await ctx.client.call({ method: "PATCH", path: `/v2/inventory/hops/${id}`, account: ctx.main, json: { inventory: text } });
          if (value === undefined) expectText(ctx, ex, 400, TEXT.invalidInventory);
          else expectText(ctx, ex, 200, TEXT.updated);
          const got = (await item(ctx, id)).inventory;
          assert(got === (value ?? before), `after inventory=${JSON.stringify(text)} stock reads ${show(got)}`, ex);
        }, { costPerRun: 3, maxRuns: 20, share: 0.05 });
      },
    },
    {
      name: `POST ignores root fields starting with _, createdAt and updatedAt (${INVENTORY_CREATE_MANAGED.join(", ")}) [Inventory]`,
      async run(ctx) {
        const sent = managedValues(INVENTORY_CREATE_MANAGED, `${ctx.runPrefix}fake`);
        const id = await makeItem(ctx, made, "hops", "hop-managed", sent);
        assert(id !== sent._id, "the client's _id was kept", ctx.client.log.at(-1));
        const r = await item(ctx, id);
        assert(r._id === id, `the item reads back with _id ${show(r._id)}`, ctx.client.log.at(-1));
        const kept = keptManaged(r, sent);
        if (kept.length) fail(`fields kept as sent: ${kept.join(", ")}`, ctx.client.log.at(-1));
      },
    },
    {
      name: "POST /v2/inventory/fermentables with a name that is not a string answers 400 with a JSON array [Inventory, Errors]",
      async run(ctx) {
        const ex = await ctx.client.call({ method: "POST", path: "/v2/inventory/fermentables", account: ctx.main, json: { name: { not: "a string" }, ...INVENTORY_BODIES.fermentables } });
        const id = madeId(ex);
        if (id) made.created.add(`/v2/inventory/fermentables/${id}`);
        expectArray(ex, 400);
      },
    },
  ];
}

export function inventoryArea(): Area {
  const made: Made = { created: new Set() };
  const writes = [...crudChecks(made), ...modeChecks(made), ...inventoryBoundChecks(made)].map((c) => ({ ...c, needs: ["main", "creates"] as const }));
  return {
    name: "inventory",
    checks: [...filterChecks(made), ...writes].map((c) => ({ ...c, needs: [...(c.needs ?? ["main"])] })),
    async teardown(ctx) {
      for (const path of made.created) await ctx.client.call({ method: "DELETE", path, account: ctx.main, essential: true });
    },
  };
}
