// [Versioning] the deprecated version 1: offset paging, `Planning` as the default status filter,
// status-only batch PATCH, inventory PATCH where `inventory` wins, no creates.
import type { Area, Check, Ctx } from "../engine.ts";
import { TEXT } from "../doc.ts";
import { assert, deepEqual, expectArray, expectObject, expectStatus, expectText, fail, show } from "../expect.ts";
import { ids, repeats } from "../data.ts";

const get = async (ctx: Ctx, path: string, query: Record<string, string | number> = {}) =>
  ctx.client.call({ method: "GET", path, account: ctx.account("v1"), query });

async function list(ctx: Ctx, path: string, query: Record<string, string | number> = {}) {
  return expectArray(await get(ctx, path, query));
}

function offsetPaging(path: string, query: Record<string, string> = {}): Check {
  return {
    name: `GET ${path}${Object.keys(query).length ? "?" + new URLSearchParams(query) : ""} pages of limit=3 joined by offset are the full list, no repeats [Versioning]`,
    async run(ctx) {
      const all = ids(await list(ctx, path, { ...query, limit: 50 }));
      const got: string[] = [];
      for (let offset = 0; offset <= all.length; offset += 3) {
        const page = await list(ctx, path, { ...query, limit: 3, offset });
        got.push(...ids(page));
        if (page.length < 3) break;
      }
      const rep = repeats(got);
      if (rep.length) fail(`repeated ${rep.join(", ")}`, ctx.client.log.at(-1));
      assert(deepEqual(got, all), `pages give ${show(got)}, the full list is ${show(all)}`, ctx.client.log.at(-1));
    },
  };
}

async function firstId(ctx: Ctx, path: string): Promise<string> {
  const [e] = await list(ctx, path, { limit: 1 });
  if (!e) return ctx.needData(`a record in ${path} of the version 1 account`);
  return String(e._id);
}

const checks: Check[] = [
  {
    name: "GET /v1/batches without status lists exactly the Planning batches [Versioning]",
    async run(ctx) {
      const plain = await list(ctx, "/v1/batches", { limit: 50 });
      const planning = await list(ctx, "/v1/batches", { limit: 50, status: "Planning" });
      const other = plain.find((b) => b.status !== "Planning");
      if (other) fail(`a ${show(other.status)} batch in the default list`, ctx.client.log.at(-2));
      assert(deepEqual(ids(plain), ids(planning)), `default list ${show(ids(plain))} differs from status=Planning ${show(ids(planning))}`, ctx.client.log.at(-2));
    },
  },
  {
    name: "GET /v1/batches?status=Fermenting lists only Fermenting batches [Versioning]",
    async run(ctx) {
      const bad = (await list(ctx, "/v1/batches", { limit: 50, status: "Fermenting" })).find((b) => b.status !== "Fermenting");
      if (bad) fail(`a ${show(bad.status)} batch listed`, ctx.client.log.at(-1));
    },
  },
  {
    name: "GET /v1/recipes is ordered by ascending _id, 10 entries by default and at most 50 [Versioning]",
    async run(ctx) {
      const all = ids(await list(ctx, "/v1/recipes", { limit: 50 }));
      assert(all.length <= 50, `${all.length} entries with limit=50`, ctx.client.log.at(-1));
      assert(all.every((id, i) => i === 0 || all[i - 1]! < id), `not in ascending _id order: ${show(all)}`, ctx.client.log.at(-1));
      const plain = await list(ctx, "/v1/recipes");
      assert(deepEqual(ids(plain), all.slice(0, 10)), `default page ${show(ids(plain))}, expected the first ${Math.min(10, all.length)}`, ctx.client.log.at(-1));
    },
  },
  offsetPaging("/v1/recipes"),
  offsetPaging("/v1/batches", { status: "Planning" }),
  offsetPaging("/v1/inventory/fermentables"),
  {
    name: "GET /v1/inventory/fermentables?inventory_negative=True keeps only items with inventory < 0 [Versioning]",
    async run(ctx) {
      const items = await list(ctx, "/v1/inventory/fermentables", { inventory_negative: "True", limit: 50 });
      const bad = items.find((e) => typeof e.inventory !== "number" || e.inventory >= 0);
      if (bad) fail(`${String(bad._id)} has inventory ${show(bad.inventory)}`, ctx.client.log.at(-1));
    },
  },
  {
    name: "PATCH /v1/batches/{id} with status answers 200 `Updated` [Versioning]",
    tags: ["text"],
    needs: ["v1", "writes"],
    async run(ctx) {
      const id = await firstId(ctx, "/v1/batches");
      const b = expectObject(await get(ctx, `/v1/batches/${id}`));
      const ex = await ctx.client.call({ method: "PATCH", path: `/v1/batches/${id}`, account: ctx.account("v1"), json: { status: b.status } });
      expectText(ctx, ex, 200, TEXT.updated);
    },
  },
  {
    name: "PATCH /v1/batches/{id} changes only status: measured values stay [Versioning]",
    needs: ["v1", "writes"],
    async run(ctx) {
      const v1 = ctx.account("v1");
      const id = await firstId(ctx, "/v1/batches");
      const before = expectObject(await get(ctx, `/v1/batches/${id}`)).measuredOg;
      const sent = before === 1.05 ? 1.06 : 1.05;
      const ex = await ctx.client.call({ method: "PATCH", path: `/v1/batches/${id}`, account: v1, json: { measuredOg: sent } });
      const after = expectObject(await get(ctx, `/v1/batches/${id}`)).measuredOg;
      if (!deepEqual(after, before)) {
        await ctx.client.call({ method: "PATCH", path: `/v1/batches/${id}`, account: v1, json: { measuredOg: before ?? null }, essential: true });
        fail(`measuredOg changed from ${show(before)} to ${show(after)}`, ex);
      }
    },
  },
  {
    name: "PATCH /v1/inventory/fermentables/{id} with inventory and inventory_adjust: inventory wins [Versioning]",
    needs: ["v1", "writes"],
    async run(ctx) {
      const v1 = ctx.account("v1");
      // Only an item whose stock is a number can be put back as it was: a PATCH cannot set it to null.
      const item = (await list(ctx, "/v1/inventory/fermentables", { limit: 50 })).find((e) => typeof e.inventory === "number");
      if (!item) return ctx.needData("a fermentable of the version 1 account with a numeric inventory (the kit puts it back as it was)");
      const path = `/v1/inventory/fermentables/${String(item._id)}`;
      const before = expectObject(await get(ctx, path)).inventory;
      if (typeof before !== "number") return ctx.needData("a fermentable of the version 1 account with a numeric inventory (the kit puts it back as it was)");
      try {
        expectStatus(await ctx.client.call({ method: "PATCH", path, account: v1, json: { inventory: 7.25, inventory_adjust: 5 } }), 200);
        const after = expectObject(await get(ctx, path)).inventory;
        assert(after === 7.25, `inventory reads ${show(after)}, expected 7.25`, ctx.client.log.at(-1));
      } finally {
        await ctx.client.call({ method: "PATCH", path, account: v1, json: { inventory: before }, essential: true });
      }
    },
  },
  ...["/v1/recipes", "/v1/inventory/hops"].map((path): Check => ({
    name: `POST ${path} is not offered: a valid key gets a 4xx other than 401, 403 and 429, and nothing is created [Versioning]`,
    needs: ["v1", "writes"],
    async run(ctx) {
      const name = `${ctx.runPrefix}v1-create`;
      const ex = await ctx.client.call({ method: "POST", path, account: ctx.account("v1"), json: { name } });
      // Which refusal is not shown (404 or 405 both fit); the key is valid, so not 401, 403 or 429.
      if (ex.status < 400 || ex.status >= 500 || [401, 403, 429].includes(ex.status)) {
        fail(`answered ${ex.status}; if a record named ${name} was made, delete it by hand`, ex);
      }
      const made = (await list(ctx, path, { limit: 50, include: "name" })).find((e) => e.name === name);
      if (made) fail(`a record named ${name} was created (${String(made._id)}); delete it by hand`, ex);
    },
  })),
];

export function v1Area(): Area {
  return { name: "v1", checks: checks.map((c) => ({ ...c, needs: c.needs ?? ["v1"] })) };
}
