// [Batches] read one, PATCH bounds (edges inclusive, exact refusals, null clears), delete.
// PATCH checks touch one scratch batch and restore every value they changed.
import fc from "fast-check";
import type { Area, Check, Ctx } from "../engine.ts";
import { PATCH_BOUNDS, STATUSES, TEXT, allowedRoots, boundCases } from "../doc.ts";
import { assert, atPath, deepEqual, expectObject, expectStatus, expectText, fail, show } from "../expect.ts";
import { missingId, reference } from "../data.ts";
import { property } from "../property.ts";

const DEFAULTS = ["_id", "name", "batchNo", "status", "brewer", "brewDate", "recipe.name"];

interface Scratch { id: string; original: Record<string, unknown>; touched: Set<string> }

function scratchOf(state: { scratch?: Promise<Scratch> }, ctx: Ctx): Promise<Scratch> {
  state.scratch ??= (async () => {
    const id = ctx.config.scratchBatchId ?? String((await reference(ctx, "/v2/batches")).items[0]?._id ?? "");
    if (!id) return ctx.needData("a batch in the main account (batches cannot be created through the API: import one)");
    const original = expectObject(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}`, account: ctx.main }));
    return { id, original, touched: new Set<string>() };
  })();
  return state.scratch;
}

async function patch(ctx: Ctx, s: Scratch, body: Record<string, unknown>) {
  for (const k of Object.keys(body)) s.touched.add(k);
  return ctx.client.call({ method: "PATCH", path: `/v2/batches/${s.id}`, account: ctx.main, json: body });
}

async function read(ctx: Ctx, s: Scratch, field: string): Promise<unknown> {
  const ex = await ctx.client.call({ method: "GET", path: `/v2/batches/${s.id}`, account: ctx.main, query: { include: field } });
  return expectObject(ex)[field];
}

function patchChecks(state: { scratch?: Promise<Scratch> }): Check[] {
  const checks: Check[] = [];
  const add = (name: string, run: (ctx: Ctx, s: Scratch) => Promise<void>, tags = ["text"]) =>
    checks.push({ name, tags, needs: ["main", "writes"], run: async (ctx) => run(ctx, await scratchOf(state, ctx)) });

  for (const status of STATUSES) {
    add(`PATCH status=${status} answers 200 \`Updated\` and stores it [Batches, States and transitions]`, async (ctx, s) => {
      expectText(ctx, await patch(ctx, s, { status }), 200, TEXT.updated);
      const got = await read(ctx, s, "status");
      assert(got === status, `status reads back as ${show(got)}`, ctx.client.log.at(-1));
    });
  }
  for (const bad of ["planning", "Done", "Fermenting ", "", 3]) {
    add(`PATCH status=${JSON.stringify(bad)} answers 400 \`Invalid status\` [Batches, Errors]`, async (ctx, s) => {
      expectText(ctx, await patch(ctx, s, { status: bad }), 400, TEXT.invalidStatus);
    });
  }
  for (const b of PATCH_BOUNDS) {
    for (const c of boundCases(b)) {
      if (c.accepted) {
        add(`PATCH ${b.field}=${c.value} is accepted: 200 \`Updated\` (${c.what}) [Batches, Limits]`, async (ctx, s) => {
          expectText(ctx, await patch(ctx, s, { [b.field]: c.value }), 200, TEXT.updated);
        });
      } else {
        add(`PATCH ${b.field}=${c.value} is refused: 400 \`Invalid ${b.field}\` (${c.what}) [Batches, Errors]`, async (ctx, s) => {
          expectText(ctx, await patch(ctx, s, { [b.field]: c.value }), 400, TEXT.invalidField(b.field));
        });
      }
    }
    const mid = b.max !== undefined ? Math.round(((b.min + b.max) / 2) * 100) / 100 : 12.5;
    add(`PATCH ${b.field}=${mid} answers \`Updated\` and reads back as ${mid} [Batches]`, async (ctx, s) => {
      expectText(ctx, await patch(ctx, s, { [b.field]: mid }), 200, TEXT.updated);
      const got = await read(ctx, s, b.field);
      assert(got === mid, `${b.field} reads back as ${show(got)}`, ctx.client.log.at(-1));
    });
    if (b.field.startsWith("measured")) {
      add(`PATCH ${b.field}=null clears the value [Batches]`, async (ctx, s) => {
        expectText(ctx, await patch(ctx, s, { [b.field]: null }), 200, TEXT.updated);
        const got = await read(ctx, s, b.field);
        assert(got === null || got === undefined, `${b.field} reads back as ${show(got)} after null`, ctx.client.log.at(-1));
      });
    }
  }
  add("PATCH {} answers 200 `Nothing to update` [Batches]", async (ctx, s) => {
    expectText(ctx, await patch(ctx, s, {}), 200, TEXT.nothingToUpdate);
  });
  add("PATCH with only fields outside the PATCH table answers 200 `Nothing to update` and changes nothing [Batches]", async (ctx, s) => {
    const before = await read(ctx, s, "name");
    const ex = await ctx.client.call({ method: "PATCH", path: `/v2/batches/${s.id}`, account: ctx.main, json: { name: `${ctx.runPrefix}renamed` } });
    expectText(ctx, ex, 200, TEXT.nothingToUpdate);
    const after = await read(ctx, s, "name");
    assert(deepEqual(before, after), `name changed from ${show(before)} to ${show(after)}`, ex);
  });
  checks.push({
    name: "PATCH of any PATCH-table field: in range is stored, out of range is refused with `Invalid <field>` and leaves it (property) [Batches]",
    tags: ["text", "property"],
    needs: ["main", "writes"],
    async run(ctx) {
      const s = await scratchOf(state, ctx);
      const arb = fc.constantFrom(...PATCH_BOUNDS).chain((b) => {
        // Values on a grid of 1/10000: finer than any measurement the fields hold, and exact in JSON.
        const grid = (lo: number, hi: number) => fc.integer({ min: Math.round(lo * 1e4), max: Math.round(hi * 1e4) }).map((n) => n / 1e4);
        const inRange = grid(b.min, b.max ?? 1000).map((v) => ({ b, v, ok: true }));
        const below = grid(b.min - 1000, b.min - 1e-4).map((v) => ({ b, v, ok: false }));
        const above = b.max === undefined ? [] : [grid(b.max + 1e-4, b.max + 1000).map((v) => ({ b, v, ok: false }))];
        return fc.oneof(inRange, below, ...above);
      });
      await property(ctx, "batch PATCH bounds", arb, async ({ b, v, ok }) => {
        const before = ok ? undefined : await read(ctx, s, b.field);
        const ex = await patch(ctx, s, { [b.field]: v });
        if (ok) expectText(ctx, ex, 200, TEXT.updated);
        else expectText(ctx, ex, 400, TEXT.invalidField(b.field));
        const after = await read(ctx, s, b.field);
        if (ok && after !== v) fail(`${b.field}=${v} reads back as ${show(after)}`, ex);
        if (!ok && !deepEqual(after, before)) fail(`refused ${b.field}=${v} still changed it from ${show(before)} to ${show(after)}`, ex);
      }, { costPerRun: 3, maxRuns: 30, share: 0.1 });
    },
  });
  return checks;
}

const readChecks: Check[] = [
  {
    name: "GET /v2/batches/{id} returns the batch with that _id [Batches]",
    needs: ["main"],
    async run(ctx) {
      const id = (await reference(ctx, "/v2/batches")).items[0]?._id;
      if (typeof id !== "string") return ctx.needData("a batch in the main account (batches cannot be created through the API: import one)");
      const b = expectObject(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}`, account: ctx.main }));
      assert(b._id === id, `_id is ${show(b._id)}`, ctx.client.log.at(-1));
    },
  },
  {
    name: "GET /v2/batches/{id} of a missing id answers 404 [Errors]",
    needs: ["main"],
    async run(ctx) {
      expectStatus(await ctx.client.call({ method: "GET", path: `/v2/batches/${missingId(ctx)}`, account: ctx.main }), 404);
    },
  },
  {
    name: "GET /v2/batches/{id}?include=recipe.fermentation,notes returns the default fields plus those [Common read-one query parameter]",
    needs: ["main"],
    async run(ctx) {
      const id = (await reference(ctx, "/v2/batches")).items[0]?._id;
      if (typeof id !== "string") return ctx.needData("a batch in the main account (batches cannot be created through the API: import one)");
      const full = expectObject(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}`, account: ctx.main }));
      const ex = await ctx.client.call({ method: "GET", path: `/v2/batches/${id}`, account: ctx.main, query: { include: "recipe.fermentation,notes" } });
      const part = expectObject(ex);
      const roots = allowedRoots(DEFAULTS, ["recipe.fermentation", "notes"]);
      const extra = Object.keys(part).filter((k) => !roots.has(k));
      if (extra.length) fail(`fields beyond defaults and include: ${extra.join(", ")}`, ex);
      for (const p of [...DEFAULTS, "recipe.fermentation", "notes"]) {
        const want = atPath(full, p);
        if (want !== undefined && !deepEqual(atPath(part, p), want)) fail(`${p} is ${show(atPath(part, p))}, full record has ${show(want)}`, ex);
      }
    },
  },
];

const deleteCheck: Check = {
  name: "DELETE /v2/batches/{id} answers 200 `Deleted`, then the batch, its readings, last reading and brew tracker answer 404 [Batches]",
  tags: ["text"],
  needs: ["main", "deletes"],
  async run(ctx) {
    const id = ctx.config.deletableBatchId;
    if (!id) return ctx.needData("a batch the kit may delete, named in CONTRACTS_DELETABLE_BATCH_ID (batches cannot be created through the API)");
    expectText(ctx, await ctx.client.call({ method: "DELETE", path: `/v2/batches/${id}`, account: ctx.main }), 200, TEXT.deleted);
    for (const suffix of ["", "/readings", "/readings/last", "/brewtracker"]) {
      expectStatus(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}${suffix}`, account: ctx.main }), 404);
    }
  },
};

export function batchesArea(): Area {
  const state: { scratch?: Promise<Scratch> } = {};
  return {
    name: "batches",
    checks: [...readChecks, ...patchChecks(state), deleteCheck],
    async teardown(ctx) {
      if (!state.scratch) return;
      const s = await state.scratch.catch(() => undefined);
      if (!s) return;
      // One field at a time, so one refused value cannot block the others.
      const failed: string[] = [];
      for (const f of s.touched) {
        if (f === "name") continue;
        const v = s.original[f] ?? null;
        const ex = await ctx.client.call({ method: "PATCH", path: `/v2/batches/${s.id}`, account: ctx.main, json: { [f]: v }, essential: true });
        if (ex.status !== 200) failed.push(`${f}=${show(v)} (status ${ex.status})`);
      }
      if (failed.length) throw new Error(`could not restore batch ${s.id}: ${failed.join(", ")}`);
    },
  };
}
