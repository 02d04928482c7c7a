// Addition: `GET /v2/batches?status_in=A,B` (each one of the six statuses, else 400 `Invalid
// status_in`), with paging, ordering and include as `status` has them; `status=A,B` stays 400
// `Invalid status` as the document says. Checked against the full list filtered by status, on the
// account's batches and those the kit starts in several statuses.
import { unmetNeed, type Check, type Ctx } from "../../engine.ts";
import { deepEqual, expectText, fail, show } from "../../expect.ts";
import { ids, listAll, repeats, type Entry } from "../../data.ts";
import { call, kitBatch } from "./made.ts";

const QUERY = { include: "status,name", order_by_direction: "desc" };
const COMBINATIONS = [["Fermenting", "Conditioning"], ["Planning"], ["Planning", "Fermenting", "Conditioning"], ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"]];

/** The whole list of batches (statuses included), once the target shows it reads status_in at all. */
async function fullList(ctx: Ctx): Promise<Entry[]> {
  return ctx.once("extensions status_in full", async () => {
    const probe = await call(ctx, { method: "GET", path: "/v2/batches", query: { status_in: "Nope" } });
    if (probe.status === 200) ctx.skip("the target does not offer status_in (an unknown status in it answered 200)");
    // Batches in several statuses, so every combination selects some; when they cannot be made the account's own count.
    if (!unmetNeed(ctx.config, "creates")) {
      for (const status of ["Fermenting", "Conditioning"]) await kitBatch(ctx, `status-${status}`, { status }).catch(() => undefined);
    }
    const all = await listAll(ctx, ctx.main, "/v2/batches", QUERY, 50, 10);
    if (!all.complete) ctx.skip("the account holds more batches than the kit reads (500)");
    return all.items;
  });
}

async function expectSelection(ctx: Ctx, statuses: string[], pageSize = 50): Promise<void> {
  const full = await fullList(ctx);
  const expected = full.filter((b) => statuses.includes(String(b.status)));
  if (!expected.length) ctx.needData(`a batch in status ${statuses.join(" or ")}`);
  const got = await listAll(ctx, ctx.main, "/v2/batches", { ...QUERY, status_in: statuses.join(",") }, pageSize, 20);
  const twice = repeats(ids(got.items));
  if (twice.length) fail(`status_in=${statuses.join(",")} listed ${show(twice)} twice`, got.pages.at(-1));
  if (!deepEqual(got.items, expected)) {
    fail(`status_in=${statuses.join(",")} listed ${show(got.items.map((b) => [b._id, b.status]))}, expected ${show(expected.map((b) => [b._id, b.status]))}`, got.pages.at(-1));
  }
}

export const STATUS_IN_CHECKS: Check[] = [
  {
    name: "status_in with a value outside the six statuses answers 400 `Invalid status_in`",
    tags: ["text"],
    async run(ctx) {
      await fullList(ctx);
      expectText(ctx, await call(ctx, { method: "GET", path: "/v2/batches", query: { status_in: "Nope" } }), 400, "Invalid status_in");
    },
  },
  {
    name: "status_in with one unknown value among known ones answers 400 `Invalid status_in`",
    tags: ["text"],
    async run(ctx) {
      await fullList(ctx);
      expectText(ctx, await call(ctx, { method: "GET", path: "/v2/batches", query: { status_in: "Fermenting,Nope" } }), 400, "Invalid status_in");
    },
  },
  {
    name: "status_in=A,B lists exactly the batches in one of those statuses, as the full list filtered (include and desc honoured)",
    async run(ctx) { for (const c of COMBINATIONS) await expectSelection(ctx, c); },
  },
  {
    name: "status_in pages with limit and start_after: pages of 1 joined are the full list filtered",
    async run(ctx) { await expectSelection(ctx, ["Planning", "Fermenting"], 1); },
  },
  {
    name: "status=Fermenting,Conditioning stays 400 `Invalid status` (the document's status takes one value)",
    tags: ["text"],
    async run(ctx) {
      await fullList(ctx);
      expectText(ctx, await call(ctx, { method: "GET", path: "/v2/batches", query: { status: "Fermenting,Conditioning" } }), 400, "Invalid status");
    },
  },
];
