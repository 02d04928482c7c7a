// Addition: `GET /v2/batches/{id}/readings?since=<ms>&until=<ms>`, both inclusive and each optional:
// the same Reading Objects in the same order, only those within. Checked on the kit's batch with
// readings (POST /v2/batches/{id}/readings), against its full list filtered by the bounds.
import type { Check, Ctx } from "../../engine.ts";
import { deepEqual, expectArray, fail, show } from "../../expect.ts";
import type { Entry } from "../../data.ts";
import { call } from "./made.ts";
import { batchWithReadings, readingsOf } from "./readings.ts";

type Bounds = { since?: number; until?: number };

/** The batch's full list, after making sure the target reads `since` at all (a target without it lists everything). */
async function fullList(ctx: Ctx): Promise<{ id: string; full: Entry[] }> {
  return ctx.once("extensions since offered", async () => {
    const { id } = await batchWithReadings(ctx);
    const full = await readingsOf(ctx, id);
    const newest = Math.max(...full.map((r) => Number(r.time)));
    const after = await readingsOf(ctx, id, { since: newest + 1 });
    if (after.length === full.length) ctx.skip(`the target does not offer since (since=${newest + 1} listed all ${full.length} readings)`);
    return { id, full };
  });
}

const within = (full: Entry[], b: Bounds) =>
  full.filter((r) => (b.since === undefined || Number(r.time) >= b.since) && (b.until === undefined || Number(r.time) <= b.until));

async function expectFiltered(ctx: Ctx, b: Bounds): Promise<void> {
  const { id, full } = await fullList(ctx);
  const ex = await call(ctx, { method: "GET", path: `/v2/batches/${id}/readings`, query: b });
  const got = expectArray(ex);
  const expected = within(full, b);
  if (!deepEqual(got, expected)) fail(`${show(b)} listed ${show(got.map((r) => r.time))}, expected ${show(expected.map((r) => r.time))} (the full list filtered, in its order)`, ex);
}

/** The middle reading's time: a bound on it must keep it. */
async function middle(ctx: Ctx): Promise<number> {
  const { full } = await fullList(ctx);
  if (full.length < 3) ctx.needData("a batch with three readings", `needs three readings, the kit's batch has ${full.length}`);
  return Number(full[1]!.time);
}

export const SINCE_UNTIL_CHECKS: Check[] = [
  {
    name: "readings?since=t keeps the reading at t (inclusive): the full list filtered, in order",
    needs: ["creates"],
    async run(ctx) { await expectFiltered(ctx, { since: await middle(ctx) }); },
  },
  {
    name: "readings?until=t keeps the reading at t (inclusive): the full list filtered, in order",
    needs: ["creates"],
    async run(ctx) { await expectFiltered(ctx, { until: await middle(ctx) }); },
  },
  {
    name: "readings with both since and until, at and beside each reading's time, list the full list filtered by both bounds",
    needs: ["creates"],
    async run(ctx) {
      const t = await middle(ctx);
      const { full } = await fullList(ctx);
      const first = Number(full[0]!.time);
      const last = Number(full.at(-1)!.time);
      for (const b of [{ since: t, until: t }, { since: first, until: t }, { since: t + 1, until: last }, { since: first - 1, until: t - 1 }]) await expectFiltered(ctx, b);
    },
  },
];
