// [Recipes] create, validation, server-managed fields, shallow merge on PATCH, delete.
// Every recipe made here is named with the run prefix and deleted in teardown.
import type { Area, Check, Ctx } from "../engine.ts";
import { RECIPE_BOUNDS, RECIPE_MANAGED, TEXT, boundCases, keptManaged, managedValues } from "../doc.ts";
import { assert, expectArray, expectCreated, expectObject, expectStatus, expectText, fail, madeId, show } from "../expect.ts";
import { missingId } from "../data.ts";
import type { Exchange } from "../client.ts";
import { hopAddition, recipeBody } from "../records.ts";
import { deleteMade, recipeNestedBoundChecks } from "./nested-bounds.ts";
import type { Made } from "./inventory-items.ts";

const recipe = (ctx: Ctx, suffix: string, extra: Record<string, unknown> = {}) => recipeBody(ctx.runPrefix, suffix, extra);

export function recipesArea(): Area {
  const created = new Set<string>();
  const nested: Made = { created: new Set() };
  const create = async (ctx: Ctx, body: unknown): Promise<{ id: string; ex: Exchange }> => {
    const ex = await ctx.client.call({ method: "POST", path: "/v2/recipes", account: ctx.main, json: body });
    const id = expectCreated(ex);
    created.add(id);
    return { id, ex };
  };
  const get = async (ctx: Ctx, id: string) => expectObject(await ctx.client.call({ method: "GET", path: `/v2/recipes/${id}`, account: ctx.main }));
  /** A refused create must not leave a record; if it did, it is tracked for deletion and the check fails. */
  const refused = async (ctx: Ctx, body: unknown) => {
    const ex = await ctx.client.call({ method: "POST", path: "/v2/recipes", account: ctx.main, json: body });
    const id = madeId(ex);
    if (id) created.add(id);
    expectArray(ex, 400);
  };
  let shared: string | undefined;
  const sharedRecipe = async (ctx: Ctx) => (shared ??= (await create(ctx, recipe(ctx, "recipe"))).id);

  const checks: Check[] = [
    {
      name: "POST /v2/recipes with only a name answers 201 `{\"id\": …}` and the recipe reads back [Recipes]",
      async run(ctx) {
        const name = `${ctx.runPrefix}minimal`;
        const { id } = await create(ctx, { name });
        const r = await get(ctx, id);
        assert(r._id === id && r.name === name, `read back _id ${show(r._id)}, name ${show(r.name)}`, ctx.client.log.at(-1));
      },
    },
    {
      name: "POST /v2/recipes without a body answers 400 `Missing body` [Recipes, Errors]",
      tags: ["text"],
      async run(ctx) {
        expectText(ctx, await ctx.client.call({ method: "POST", path: "/v2/recipes", account: ctx.main }), 400, TEXT.missingBody);
      },
    },
    {
      name: "POST /v2/recipes without a name answers 400 with a JSON array of validation errors [Recipes, Errors]",
      async run(ctx) { await refused(ctx, { author: `${ctx.runPrefix}no-name` }); },
    },
    ...RECIPE_BOUNDS.flatMap(boundCases).map((c): Check => c.accepted
      ? {
        name: `PATCH /v2/recipes/{id} with ${c.bound.field}=${c.value} answers 200 \`Updated\` and stores it (${c.what}) [Recipes, Limits]`,
        tags: ["text"],
        async run(ctx) {
          const id = await sharedRecipe(ctx);
          const ex = await ctx.client.call({ method: "PATCH", path: `/v2/recipes/${id}`, account: ctx.main, json: { [c.bound.field]: c.value } });
          expectText(ctx, ex, 200, TEXT.updated);
          const got = (await get(ctx, id))[c.bound.field];
          assert(got === c.value, `${c.bound.field} reads back as ${show(got)}`, ex);
        },
      }
      : {
        name: `POST /v2/recipes with ${c.bound.field}=${c.value} answers 400 with a JSON array (${c.what}) [Recipes, Limits]`,
        async run(ctx) { await refused(ctx, recipe(ctx, `bound-${c.bound.field}`, { [c.bound.field]: c.value })); },
      }),
    ...recipeNestedBoundChecks(nested),
    {
      name: `POST /v2/recipes ignores every server-managed field (${RECIPE_MANAGED.join(", ")}) [Recipe Object, Recipes]`,
      async run(ctx) {
        const sent = managedValues(RECIPE_MANAGED, `${ctx.runPrefix}managed`);
        const { id, ex } = await create(ctx, recipe(ctx, "managed", sent));
        assert(id !== sent._id, "the client's _id was kept", ex);
        const r = await get(ctx, id);
        assert(r._id === id, `the recipe reads back with _id ${show(r._id)}`, ctx.client.log.at(-1));
        const kept = keptManaged(r, sent);
        if (kept.length) fail(`server-managed fields kept as sent: ${kept.join(", ")}`, ctx.client.log.at(-1));
        expectStatus(await ctx.client.call({ method: "GET", path: `/v2/recipes/${String(sent._id)}`, account: ctx.main }), 404);
      },
    },
    {
      name: "PATCH /v2/recipes/{id} merges shallowly: sent fields replace, absent fields stay, arrays are replaced whole [Recipes]",
      tags: ["text"],
      async run(ctx) {
        const id = await sharedRecipe(ctx);
        const ex = await ctx.client.call({ method: "PATCH", path: `/v2/recipes/${id}`, account: ctx.main, json: { notes: "second", hops: [hopAddition("Magnum")] } });
        expectText(ctx, ex, 200, TEXT.updated);
        const r = await get(ctx, id);
        assert(r.notes === "second", `notes reads back as ${show(r.notes)}`, ex);
        assert(r.author === "Contract Kit" && r.name === `${ctx.runPrefix}recipe`, `absent fields changed: author ${show(r.author)}, name ${show(r.name)}`, ex);
        const hops = r.hops as { name?: string }[] | undefined;
        assert(Array.isArray(hops) && hops.length === 1 && hops[0]!.name === "Magnum", `hops is ${show(hops)}, expected only Magnum`, ex);
      },
    },
    {
      name: "PATCH /v2/recipes/{id} ignores every server-managed field: the _id stays, the other fields change [Recipes]",
      async run(ctx) {
        const id = await sharedRecipe(ctx);
        const sent = managedValues(RECIPE_MANAGED, `${ctx.runPrefix}moved`);
        const ex = await ctx.client.call({ method: "PATCH", path: `/v2/recipes/${id}`, account: ctx.main, json: { ...sent, teaser: "t" } });
        expectStatus(ex, 200);
        const r = await get(ctx, id);
        assert(r._id === id && r.teaser === "t", `read back _id ${show(r._id)}, teaser ${show(r.teaser)}`, ex);
        const kept = keptManaged(r, sent);
        if (kept.length) fail(`server-managed fields kept as sent: ${kept.join(", ")}`, ex);
        expectStatus(await ctx.client.call({ method: "GET", path: `/v2/recipes/${String(sent._id)}`, account: ctx.main }), 404);
      },
    },
    {
      name: "PATCH /v2/recipes/{id} making the merged recipe invalid answers 400 with a JSON array and changes nothing [Recipes]",
      async run(ctx) {
        const id = await sharedRecipe(ctx);
        const before = await get(ctx, id);
        const ex = await ctx.client.call({ method: "PATCH", path: `/v2/recipes/${id}`, account: ctx.main, json: { batchSize: 0.1, notes: "refused" } });
        expectArray(ex, 400);
        const after = await get(ctx, id);
        assert(after.batchSize === before.batchSize && after.notes === before.notes, `stored batchSize ${show(after.batchSize)}, notes ${show(after.notes)}`, ex);
      },
    },
    {
      name: "PATCH /v2/recipes/{id} without a body answers 400 `Missing body` [Recipes, Errors]",
      tags: ["text"],
      async run(ctx) {
        const id = await sharedRecipe(ctx);
        expectText(ctx, await ctx.client.call({ method: "PATCH", path: `/v2/recipes/${id}`, account: ctx.main }), 400, TEXT.missingBody);
      },
    },
    {
      name: "DELETE /v2/recipes/{id} answers 200 `Deleted`, then the recipe answers 404 [Recipes]",
      tags: ["text"],
      async run(ctx) {
        const { id } = await create(ctx, { name: `${ctx.runPrefix}to-delete` });
        expectText(ctx, await ctx.client.call({ method: "DELETE", path: `/v2/recipes/${id}`, account: ctx.main }), 200, TEXT.deleted);
        created.delete(id);
        expectStatus(await ctx.client.call({ method: "GET", path: `/v2/recipes/${id}`, account: ctx.main }), 404);
      },
    },
    {
      name: "GET /v2/recipes/{id} of a missing id answers 404 [Errors]",
      async run(ctx) {
        expectStatus(await ctx.client.call({ method: "GET", path: `/v2/recipes/${missingId(ctx)}`, account: ctx.main }), 404);
      },
    },
  ];
  return {
    name: "recipes",
    checks: checks.map((c) => ({ ...c, needs: c.name.startsWith("GET") ? ["main"] : ["main", "creates"] })),
    async teardown(ctx) {
      for (const id of created) await ctx.client.call({ method: "DELETE", path: `/v2/recipes/${id}`, account: ctx.main, essential: true });
      await deleteMade(ctx, nested);
    },
  };
}
