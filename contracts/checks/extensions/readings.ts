// Additions: writing a batch's readings, `POST /v2/batches/{id}/readings` (one Reading Object in SG and
// °C; `time` in ms; numeric strings count; 201 with the reading as stored; a reading at the same time
// replaces the earlier one) and `DELETE /v2/batches/{id}/readings/{time}` (200 `Deleted`; 404 when no
// reading is at that time), both batches.write; a missing batch is 404 before any 400. Checked on a
// batch the kit starts with POST /v2/batches.
import type { Exchange } from "../../client.ts";
import type { Check, Ctx } from "../../engine.ts";
import { assert, deepEqual, expectArray, expectObject, expectStatus, expectText, fail, show } from "../../expect.ts";
import { missingId, type Entry } from "../../data.ts";
import { call, kitBatch, skipUnlessOffered } from "./made.ts";

/** Times of the kit's readings: fixed, so every run posts the same and a failure replays. */
export const T0 = Date.UTC(2024, 2, 1, 12);
const at = (n: number) => T0 + n * 60_000;
/** Posted out of time order; the list must come back ordered. */
const POSTED = [{ time: at(3), sg: 1.03, temp: 19 }, { time: at(1), sg: 1.05, temp: 18 }, { time: at(2), sg: 1.04, temp: 18.5 }];

const readingsPath = (id: string) => `/v2/batches/${id}/readings`;

/** The kit's batch with the three readings posted (out of order), and the answers to those posts. */
export function batchWithReadings(ctx: Ctx): Promise<{ id: string; answers: Exchange[] }> {
  return ctx.once("extensions readings batch", async () => {
    const id = await kitBatch(ctx, "readings");
    const answers: Exchange[] = [];
    for (const r of POSTED) {
      const ex = await call(ctx, { method: "POST", path: readingsPath(id), json: r });
      skipUnlessOffered(ctx, ex, "POST /v2/batches/{id}/readings");
      answers.push(ex);
    }
    return { id, answers };
  });
}

export async function readingsOf(ctx: Ctx, id: string, query?: Record<string, number>): Promise<Entry[]> {
  return expectArray(await call(ctx, { method: "GET", path: readingsPath(id), query }));
}

const times = (list: Entry[]) => list.map((r) => r.time);

export const READING_WRITE_CHECKS: Check[] = [
  {
    name: "POST /v2/batches/{id}/readings answers 201 with the reading as stored, and readings posted out of order list in time order",
    needs: ["creates"],
    async run(ctx) {
      const { id, answers } = await batchWithReadings(ctx);
      for (const [i, r] of POSTED.entries()) {
        const a = expectObject(answers[i]!, 201);
        assert(a.time === r.time && a.sg === r.sg && a.temp === r.temp, `the answer to a post of ${show(r)} was ${show(a)}`, answers[i]);
      }
      const ex = await call(ctx, { method: "GET", path: readingsPath(id) });
      const got = times(expectArray(ex));
      const expected = POSTED.map((r) => r.time).sort((a, b) => a - b);
      if (!deepEqual(got, expected)) fail(`times ${show(got)}, expected ${show(expected)}`, ex);
    },
  },
  {
    name: "after POSTs of readings, readings/last is the one with the greatest time",
    needs: ["creates"],
    async run(ctx) {
      const { id } = await batchWithReadings(ctx);
      const ex = await call(ctx, { method: "GET", path: `${readingsPath(id)}/last` });
      const last = expectObject(ex);
      if (last.time !== at(3) || last.sg !== 1.03) fail(`last reading ${show(last)}, expected the one at ${at(3)}`, ex);
    },
  },
  {
    name: "a reading POSTed at the time of an earlier one replaces it",
    needs: ["creates"],
    async run(ctx) {
      const id = await kitBatch(ctx, "replace");
      for (const sg of [1.06, 1.058]) {
        const ex = await call(ctx, { method: "POST", path: readingsPath(id), json: { time: at(5), sg, temp: 20 } });
        skipUnlessOffered(ctx, ex, "POST /v2/batches/{id}/readings");
        expectStatus(ex, 201);
      }
      const list = await readingsOf(ctx, id);
      if (list.length !== 1 || list[0]!.sg !== 1.058) fail(`readings ${show(list)}, expected the one reading at ${at(5)} with sg 1.058`, ctx.client.log.at(-1));
    },
  },
  {
    name: "numeric strings in a POSTed reading are stored as numbers",
    needs: ["creates"],
    async run(ctx) {
      const id = await kitBatch(ctx, "strings");
      const ex = await call(ctx, { method: "POST", path: readingsPath(id), json: { time: String(at(7)), sg: "1.021", temp: "17.5" } });
      skipUnlessOffered(ctx, ex, "POST /v2/batches/{id}/readings");
      expectStatus(ex, 201);
      const list = await readingsOf(ctx, id);
      const r = list.find((x) => x.time === at(7));
      if (!r || r.sg !== 1.021 || r.temp !== 17.5) fail(`readings ${show(list)}, expected time ${at(7)}, sg 1.021, temp 17.5 as numbers`, ctx.client.log.at(-1));
    },
  },
  {
    name: "DELETE /v2/batches/{id}/readings/{time} answers 200 `Deleted` and the reading is gone",
    needs: ["creates"],
    tags: ["text"],
    async run(ctx) {
      const id = await kitBatch(ctx, "delete");
      const posted = await call(ctx, { method: "POST", path: readingsPath(id), json: { time: at(9), sg: 1.011 } });
      skipUnlessOffered(ctx, posted, "POST /v2/batches/{id}/readings");
      expectStatus(posted, 201);
      expectText(ctx, await call(ctx, { method: "DELETE", path: `${readingsPath(id)}/${at(9)}` }), 200, "Deleted");
      const list = await readingsOf(ctx, id);
      if (list.some((r) => r.time === at(9))) fail(`the deleted reading is still listed: ${show(list)}`, ctx.client.log.at(-1));
    },
  },
  {
    name: "DELETE /v2/batches/{id}/readings/{time} of a time without a reading is 404",
    needs: ["creates"],
    async run(ctx) {
      const { id } = await batchWithReadings(ctx);
      expectStatus(await call(ctx, { method: "DELETE", path: `${readingsPath(id)}/${at(4)}` }), 404);
    },
  },
  {
    name: "a POSTed reading with a value that is no number is 400 and stores nothing (the message is the server's choice)",
    needs: ["creates"],
    async run(ctx) {
      const { id } = await batchWithReadings(ctx);
      expectStatus(await call(ctx, { method: "POST", path: readingsPath(id), json: { time: at(8), sg: "thick" } }), 400);
      const list = await readingsOf(ctx, id);
      if (list.some((r) => r.time === at(8))) fail(`a refused reading was stored: ${show(list)}`, ctx.client.log.at(-1));
    },
  },
  {
    name: "POST readings to a missing batch is 404, with a good body and with a bad one (404 before 400)",
    needs: ["creates"],
    async run(ctx) {
      await batchWithReadings(ctx);
      for (const json of [{ time: at(1), sg: 1.01 }, { time: at(1), sg: "thick" }]) {
        expectStatus(await call(ctx, { method: "POST", path: readingsPath(missingId(ctx)), json }), 404);
      }
    },
  },
  {
    name: "DELETE readings/{time} of a missing batch is 404, with a good time and with a bad one (404 before 400)",
    needs: ["creates"],
    async run(ctx) {
      await batchWithReadings(ctx);
      for (const time of [String(at(1)), "soon"]) {
        expectStatus(await call(ctx, { method: "DELETE", path: `${readingsPath(missingId(ctx))}/${time}` }), 404);
      }
    },
  },
  {
    name: "POST and DELETE of readings need batches.write: 403 `Forbidden` for a read-only key",
    needs: ["creates", "readonly"],
    tags: ["text"],
    async run(ctx) {
      await batchWithReadings(ctx);
      const account = ctx.account("readonly");
      const path = readingsPath(missingId(ctx));
      expectText(ctx, await ctx.client.call({ method: "POST", path, account, json: { time: at(1), sg: 1.01 } }), 403, "Forbidden");
      expectText(ctx, await ctx.client.call({ method: "DELETE", path: `${path}/${at(1)}`, account }), 403, "Forbidden");
    },
  },
];
