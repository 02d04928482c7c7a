// [Batches] readings, the last reading (newest by time, 404 when none) and the brew tracker
// (an object, 404 when none), on the account's first batches.
import type { Area, Check, Ctx } from "../engine.ts";
import { assert, deepEqual, expectArray, expectObject, expectStatus, fail, show } from "../expect.ts";
import { missingId, reference } from "../data.ts";

/** How many of the account's batches the checks look at. */
const SAMPLE = 5;

async function sample(ctx: Ctx): Promise<string[]> {
  const ref = await reference(ctx, "/v2/batches");
  if (!ref.items.length) return ctx.needData("a batch in the main account (batches cannot be created through the API: import one)");
  return ref.items.slice(0, SAMPLE).map((e) => String(e._id));
}

function readings(ctx: Ctx, id: string) {
  return ctx.once(`readings ${id}`, async () =>
    expectArray(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}/readings`, account: ctx.main })));
}

const checks: Check[] = [
  {
    name: "GET /v2/batches/{id}/readings answers 200 with an array of readings that each have a numeric time [Batches, Reading Object]",
    async run(ctx) {
      for (const id of await sample(ctx)) {
        const list = await readings(ctx, id);
        const bad = list.find((r) => !r || typeof r !== "object" || typeof r.time !== "number");
        if (bad) fail(`a reading without a numeric time: ${show(bad)}`, ctx.client.log.findLast((e) => e.url.includes(`/batches/${id}/readings`)));
      }
    },
  },
  {
    name: "GET /v2/batches/{id}/readings/last is the newest reading by time [Batches]",
    async run(ctx) {
      let seen = 0;
      for (const id of await sample(ctx)) {
        const list = await readings(ctx, id);
        if (!list.length) continue;
        seen++;
        const ex = await ctx.client.call({ method: "GET", path: `/v2/batches/${id}/readings/last`, account: ctx.main });
        const last = expectObject(ex);
        const newest = Math.max(...list.map((r) => Number(r.time)));
        assert(last.time === newest, `last reading has time ${show(last.time)}, newest is ${newest}`, ex);
        assert(list.some((r) => r.time === newest && deepEqual(r, last)), `last reading is not one of the readings with time ${newest}: ${show(last)}`, ex);
      }
      if (!seen) return ctx.needData(`readings on one of the first ${SAMPLE} batches of the main account`);
    },
  },
  {
    name: "GET /v2/batches/{id}/readings/last answers 404 when the batch has no reading [Batches, Errors]",
    async run(ctx) {
      let seen = 0;
      for (const id of await sample(ctx)) {
        if ((await readings(ctx, id)).length) continue;
        seen++;
        expectStatus(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}/readings/last`, account: ctx.main }), 404);
      }
      if (!seen) return ctx.needData(`a batch without readings among the first ${SAMPLE} of the main account`);
    },
  },
  {
    name: "GET /v2/batches/{id}/brewtracker answers 200 with a tracker object, or 404 when none exists [Batches, Brew Tracker Object]",
    async run(ctx) {
      for (const id of await sample(ctx)) {
        const ex = await ctx.client.call({ method: "GET", path: `/v2/batches/${id}/brewtracker`, account: ctx.main });
        if (ex.status === 404) continue;
        const t = expectObject(ex);
        const typed: [string, string][] = [["_id", "string"], ["enabled", "boolean"], ["completed", "boolean"], ["stage", "number"]];
        for (const [k, type] of typed) {
          if (k in t && typeof t[k] !== type) fail(`tracker ${k} is ${show(t[k])}, not a ${type}`, ex);
        }
        if ("stages" in t && !Array.isArray(t.stages)) fail("tracker stages is not an array", ex);
      }
    },
  },
  {
    name: "GET /v2/batches/{id}/brewtracker of an existing batch without a tracker answers 404 [Batches, Errors]",
    async run(ctx) {
      const id = ctx.config.untrackedBatchId;
      if (!id) return ctx.needData("a batch without a brew tracker, named in CONTRACTS_UNTRACKED_BATCH_ID");
      expectObject(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}`, account: ctx.main, query: { include: "_id" } }));
      expectStatus(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}/brewtracker`, account: ctx.main }), 404);
    },
  },
  ...["/readings", "/readings/last", "/brewtracker"].map((suffix): Check => ({
    name: `GET /v2/batches/{id}${suffix} of a missing batch answers 404 [Errors]`,
    async run(ctx) {
      expectStatus(await ctx.client.call({ method: "GET", path: `/v2/batches/${missingId(ctx)}${suffix}`, account: ctx.main }), 404);
    },
  })),
];

export function readingsArea(): Area {
  return { name: "readings", checks: checks.map((c) => ({ ...c, needs: ["main"] })) };
}
