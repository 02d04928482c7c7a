// Addition: starting a batch from a recipe, `POST /v2/batches` (scope batches.write), with
// `{"recipeId": …}` or a whole `{"recipe": {…}}` and optional `name`, `brewDate`, `status` (default
// Planning), `brewer`; 201 `{"id": …}`; the batch holds a copy of the recipe and its estimates and the
// account's next batchNo; refusals are the recipe endpoints' (a JSON array of issues, `Missing body`).
import type { Exchange } from "../../client.ts";
import type { Check, Ctx } from "../../engine.ts";
import { assert, deepEqual, expectArray, expectCreated, expectJson, expectObject, expectStatus, expectText, fail, show } from "../../expect.ts";
import { listAll, missingId, type Entry } from "../../data.ts";
import { recipeBody } from "../../records.ts";
import { call, createdOrSkip, firstCreate, kitRecipe, made, postBatch } from "./made.ts";

/** The batch created first, read back. */
async function firstBatch(ctx: Ctx): Promise<{ batch: Entry; recipe: Entry; ex: Exchange }> {
  const recipe = await kitRecipe(ctx);
  const id = createdOrSkip(ctx, await firstCreate(ctx));
  const ex = await ctx.once("extensions first batch read", () => call(ctx, { method: "GET", path: `/v2/batches/${id}` }));
  return { batch: expectObject(ex), recipe, ex };
}

/** The recipe's own fields: those a copy must hold (service fields and time stamps are the copy's own). */
const recipeFields = (r: Entry) => Object.keys(r).filter((k) => !k.startsWith("_") && k !== "createdAt" && k !== "updatedAt");

/** Greatest numeric batchNo of the account's batches, 0 when none. */
async function greatestBatchNo(ctx: Ctx): Promise<number> {
  const all = await listAll(ctx, ctx.main, "/v2/batches", { include: "batchNo" }, 50, 10);
  if (!all.complete) ctx.skip("the account holds more batches than the kit reads (500) to find the greatest batchNo");
  return Math.max(0, ...all.items.map((b) => b.batchNo).filter((n): n is number => typeof n === "number"));
}

/** A refusal: 400 with a JSON array (its elements are not inspected, as for the recipe endpoints). */
async function expectIssues(ctx: Ctx, body: unknown): Promise<void> {
  await firstCreate(ctx);
  const ex = await postBatch(ctx, body);
  expectArray(ex, 400);
}

export const BATCH_CREATE_CHECKS: Check[] = [
  {
    name: "POST /v2/batches {recipeId} answers 201 with exactly {\"id\": <string>}",
    needs: ["creates"],
    async run(ctx) { expectCreated(await firstCreate(ctx)); },
  },
  {
    name: "a batch started from a recipe holds a copy of every field of the recipe, and estimatedOg is the recipe's og",
    needs: ["creates"],
    async run(ctx) {
      const { batch, recipe, ex } = await firstBatch(ctx);
      const copy = batch.recipe as Entry | undefined;
      if (!copy || typeof copy !== "object") fail(`the batch has no recipe object: ${show(batch.recipe)}`, ex);
      const differ = recipeFields(recipe).filter((k) => !deepEqual(copy[k], recipe[k]));
      if (differ.length) fail(`the batch's recipe differs from the recipe in ${differ.join(", ")}: ${show(Object.fromEntries(differ.map((k) => [k, copy[k] ?? null])))}`, ex);
      if (typeof recipe.og === "number") assert(batch.estimatedOg === recipe.og, `estimatedOg ${show(batch.estimatedOg)} is not the recipe's og ${recipe.og}`, ex);
    },
  },
  {
    name: "a batch started without status or name is Planning and named as its recipe",
    needs: ["creates"],
    async run(ctx) {
      const { batch, recipe, ex } = await firstBatch(ctx);
      assert(batch.status === "Planning", `status ${show(batch.status)}, expected "Planning"`, ex);
      assert(batch.name === recipe.name, `name ${show(batch.name)}, expected the recipe's ${show(recipe.name)}`, ex);
    },
  },
  {
    name: "name, status, brewer and brewDate sent with POST /v2/batches read back as sent",
    needs: ["creates"],
    async run(ctx) {
      const recipe = await kitRecipe(ctx);
      await firstCreate(ctx);
      const sent = { name: `${ctx.runPrefix}sent`, status: "Conditioning", brewer: "Contract Kit", brewDate: Date.UTC(2024, 5, 1) };
      const id = createdOrSkip(ctx, await postBatch(ctx, { recipeId: recipe._id, ...sent }));
      const ex = await call(ctx, { method: "GET", path: `/v2/batches/${id}` });
      const got = expectObject(ex);
      for (const [k, v] of Object.entries(sent)) if (got[k] !== v) fail(`${k} reads ${show(got[k])}, sent ${show(v)}`, ex);
    },
  },
  {
    name: "a new batch's batchNo is one above the account's greatest, and the next one above that",
    needs: ["creates"],
    async run(ctx) {
      const recipe = await kitRecipe(ctx);
      await firstCreate(ctx);
      const greatest = await greatestBatchNo(ctx);
      for (const expected of [greatest + 1, greatest + 2]) {
        const id = createdOrSkip(ctx, await postBatch(ctx, { recipeId: recipe._id, name: `${ctx.runPrefix}numbered` }));
        const ex = await call(ctx, { method: "GET", path: `/v2/batches/${id}` });
        const got = expectObject(ex).batchNo;
        if (got !== expected) fail(`batchNo ${show(got)}, expected ${expected} (the greatest before was ${greatest})`, ex);
      }
    },
  },
  {
    name: "POST /v2/batches with a whole recipe creates a batch holding that recipe",
    needs: ["creates"],
    async run(ctx) {
      await firstCreate(ctx);
      const recipe = recipeBody(ctx.runPrefix, "whole-recipe");
      const ex0 = await postBatch(ctx, { recipe });
      expectStatus(ex0, 201);
      const id = createdOrSkip(ctx, ex0);
      const ex = await call(ctx, { method: "GET", path: `/v2/batches/${id}` });
      const copy = expectObject(ex).recipe as Entry | undefined;
      for (const k of ["name", "author", "batchSize"]) {
        if (!deepEqual(copy?.[k], recipe[k])) fail(`the batch's recipe.${k} reads ${show(copy?.[k])}, sent ${show(recipe[k])}`, ex);
      }
      // Additions carry figures the server calculates (an ibu each): their names say they are the ones sent.
      const hops = Array.isArray(copy?.hops) ? copy.hops.map((h: Entry) => h?.name) : copy?.hops;
      if (!deepEqual(hops, ["Cascade", "Saaz"])) fail(`the batch's recipe.hops are ${show(copy?.hops)}, sent Cascade and Saaz`, ex);
    },
  },
  {
    name: "POST /v2/batches with neither recipeId nor recipe is 400 with a JSON array of issues",
    needs: ["creates"],
    async run(ctx) { await expectIssues(ctx, { name: `${ctx.runPrefix}no-recipe` }); },
  },
  {
    name: "POST /v2/batches with a status outside the six is 400 with a JSON array of issues",
    needs: ["creates"],
    async run(ctx) { await expectIssues(ctx, { recipeId: (await kitRecipe(ctx))._id, name: `${ctx.runPrefix}bad-status`, status: "Done" }); },
  },
  {
    name: "POST /v2/batches without a body answers 400 `Missing body`, as the recipe endpoints",
    needs: ["creates"],
    tags: ["text"],
    async run(ctx) {
      await firstCreate(ctx);
      expectText(ctx, await postBatch(ctx, undefined, ctx.main, ""), 400, "Missing body");
    },
  },
  {
    name: "POST /v2/batches with a recipeId of no recipe of the account is refused with a 4xx (400 or 404 is the server's choice)",
    needs: ["creates"],
    async run(ctx) {
      await firstCreate(ctx);
      const ex = await postBatch(ctx, { recipeId: missingId(ctx), name: `${ctx.runPrefix}unknown-recipe` });
      expectStatus(ex, [400, 404]);
    },
  },
  {
    name: "POST /v2/batches: 401 `Unauthorized` without credentials, 403 `Forbidden` for a key without batches.write",
    needs: ["creates", "readonly"],
    tags: ["text"],
    async run(ctx) {
      const recipe = await kitRecipe(ctx);
      await firstCreate(ctx);
      const anonymous = await ctx.client.call({ method: "POST", path: "/v2/batches", json: { recipeId: recipe._id, name: `${ctx.runPrefix}anonymous` } });
      expectText(ctx, anonymous, 401, "Unauthorized");
      const readonly = await postBatch(ctx, { recipeId: missingId(ctx), name: `${ctx.runPrefix}readonly` }, ctx.account("readonly"));
      expectText(ctx, readonly, 403, "Forbidden");
    },
  },
  {
    // Runs after the refusals above: any batch they made would be named with the run prefix.
    name: "refused POSTs create nothing: every batch named with the run prefix was answered 2xx with its id",
    needs: ["creates"],
    async run(ctx) {
      await firstCreate(ctx);
      const all = await listAll(ctx, ctx.main, "/v2/batches", { include: "name" }, 50, 10);
      const made201 = new Set(made(ctx).batches);
      const extra = all.items.filter((b) => typeof b.name === "string" && b.name.startsWith(ctx.runPrefix) && !made201.has(String(b._id)));
      if (extra.length) fail(`batches created by refused requests: ${show(extra)}`, all.pages.at(-1));
      expectJson(all.pages[0]!, 200);
    },
  },
];
