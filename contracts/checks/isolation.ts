// [What the service does, rule 5] A key sees only its own account: another account's ids answer
// exactly like an id that does not exist, on reads, updates and deletes.
import type { Account } from "../config.ts";
import { unmetNeed, type Area, type Check, type Ctx } from "../engine.ts";
import { COLLECTIONS, TEXT } from "../doc.ts";
import { expectArray, expectCreated, expectObject, expectStatus, expectText, fail } from "../expect.ts";
import { firstId, ids, missingId, reference } from "../data.ts";
import type { Exchange } from "../client.ts";

const READ_PATHS: { label: string; list: string; suffix: string }[] = [
  { label: "/v2/batches/{id}", list: "/v2/batches", suffix: "" },
  { label: "/v2/batches/{id}/readings", list: "/v2/batches", suffix: "/readings" },
  { label: "/v2/batches/{id}/readings/last", list: "/v2/batches", suffix: "/readings/last" },
  { label: "/v2/batches/{id}/brewtracker", list: "/v2/batches", suffix: "/brewtracker" },
  { label: "/v2/recipes/{id}", list: "/v2/recipes", suffix: "" },
  ...COLLECTIONS.map((c) => ({ label: `/v2/inventory/${c}/{id}`, list: `/v2/inventory/${c}`, suffix: "" })),
];

/** Same status and same body once each id is replaced by a placeholder. */
function sameAnswer(a: Exchange, aId: string, b: Exchange, bId: string): boolean {
  return a.status === b.status && a.body.split(aId).join("{id}") === b.body.split(bId).join("{id}");
}

async function compareWithMissing(ctx: Ctx, method: string, list: string, suffix: string, otherId: string, json?: unknown): Promise<Exchange> {
  const missing = missingId(ctx);
  const theirs = await ctx.client.call({ method, path: `${list}/${otherId}${suffix}`, account: ctx.main, json });
  const none = await ctx.client.call({ method, path: `${list}/${missing}${suffix}`, account: ctx.main, json });
  expectStatus(none, 404);
  if (!sameAnswer(theirs, otherId, none, missing)) {
    fail(`another account's id answered ${theirs.status} ${JSON.stringify(theirs.body.slice(0, 200))}, ` +
      `a missing id answered ${none.status} ${JSON.stringify(none.body.slice(0, 200))}`, theirs);
  }
  return theirs;
}

/** Records the other account holds or, where the API lets the kit, one it makes; deleted in teardown. */
type Made = { path: string }[];

async function otherRecord(ctx: Ctx, list: string, created: Made): Promise<string> {
  const other = ctx.account("other");
  const existing = await firstId(ctx, other, list, true);
  if (existing) return existing;
  if (list === "/v2/batches" || unmetNeed(ctx.config, "creates")) return ctx.needData(`a record in ${list} of the other account`);
  return ctx.once(`made by other ${list}`, async () => {
    const ex = await ctx.client.call({ method: "POST", path: list, account: other, json: { name: `${ctx.runPrefix}isolation-read` } });
    const id = expectCreated(ex);
    created.push({ path: `${list}/${id}` });
    return id;
  });
}

function readChecks(created: Made): Check[] {
  return READ_PATHS.map((p) => ({
    name: `GET ${p.label} with another account's id answers exactly like a missing id (404) [What the service does, Errors]`,
    needs: ["main", "other"],
    async run(ctx: Ctx) {
      const otherId = await otherRecord(ctx, p.list, created);
      await compareWithMissing(ctx, "GET", p.list, p.suffix, otherId);
    },
  }));
}

function listChecks(): Check[] {
  return ["/v2/batches", "/v2/recipes", ...COLLECTIONS.map((c) => `/v2/inventory/${c}`)].map((path) => ({
    name: `GET ${path} lists none of another account's records [What the service does]`,
    needs: ["main", "other"],
    async run(ctx: Ctx) {
      const ex = await ctx.client.call({ method: "GET", path, account: ctx.account("other"), query: { limit: 50 } });
      const theirs = expectArray(ex);
      const mine = new Set(ids((await reference(ctx, path)).items));
      const leaked = ids(theirs).filter((id) => mine.has(id));
      // Inventory items from the shared default catalog may carry the same id in both accounts.
      const own = path.includes("inventory") ? leaked.filter((id) => !id.startsWith("default-")) : leaked;
      if (own.length) fail(`ids listed for both accounts: ${own.slice(0, 5).join(", ")}`, ex);
    },
  }));
}

const patchOtherBatch: Check = {
  name: "PATCH /v2/batches/{id} with another account's id answers 404 `Not Found` like a missing id [Errors]",
  tags: ["text"],
  needs: ["main", "other", "writes"],
  async run(ctx) {
    const other = ctx.account("other");
    const otherId = await firstId(ctx, other, "/v2/batches");
    if (!otherId) return ctx.needData("a batch in the other account");
    // Its current status: should the target wrongly apply the PATCH, nothing changes.
    const theirs = expectObject(await ctx.client.call({ method: "GET", path: `/v2/batches/${otherId}`, account: other, query: { include: "status" } }));
    const status = theirs.status ?? "Planning";
    const ex = await compareWithMissing(ctx, "PATCH", "/v2/batches", "", otherId, { status });
    expectText(ctx, ex, 404, TEXT.notFound);
  },
};

/** Records the other account creates for the write checks; deleted with its own key in teardown. */
function writeChecks(created: { path: string }[]): Check[] {
  const targets = [
    { label: "/v2/recipes/{id}", path: "/v2/recipes", patch: { notes: "changed" } },
    { label: "/v2/inventory/hops/{id}", path: "/v2/inventory/hops", patch: { inventory: 1 } },
  ];
  return targets.flatMap((t) => {
    let id: string | undefined;
    const ensure = async (ctx: Ctx, other: Account) => {
      if (id) return id;
      const ex = await ctx.client.call({ method: "POST", path: t.path, account: other, json: { name: `${ctx.runPrefix}isolation` } });
      id = expectCreated(ex);
      created.push({ path: `${t.path}/${id}` });
      return id;
    };
    return (["PATCH", "DELETE"] as const).map((method): Check => ({
      name: `${method} ${t.label} with another account's id answers 404 \`Not Found\` and leaves it in place [Errors]`,
      tags: ["text"],
      needs: ["main", "other", "creates"],
      async run(ctx) {
        const other = ctx.account("other");
        const theirId = await ensure(ctx, other);
        const ex = await ctx.client.call({ method, path: `${t.path}/${theirId}`, account: ctx.main, json: method === "PATCH" ? t.patch : undefined });
        expectText(ctx, ex, 404, TEXT.notFound);
        expectStatus(await ctx.client.call({ method: "GET", path: `${t.path}/${theirId}`, account: other }), 200);
      },
    }));
  });
}

export function isolationArea(): Area {
  const created: { path: string }[] = [];
  return {
    name: "isolation",
    checks: [...readChecks(created), ...listChecks(), patchOtherBatch, ...writeChecks(created)],
    async teardown(ctx) {
      for (const c of created) {
        await ctx.client.call({ method: "DELETE", path: c.path, account: ctx.account("other"), essential: true });
      }
    },
  };
}
