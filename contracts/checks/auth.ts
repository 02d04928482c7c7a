// [Authentication] 401 for missing or invalid credentials on every endpoint, 403 for a valid key
// without the needed scope (a write scope does not allow delete).
// Scope checks use ids no account has: rule 6 gives 403 to any request whose key lacks the scope,
// and a missing id keeps the account untouched should a target wrongly let the call through.
import type { Account } from "../config.ts";
import type { Area, Check, Ctx } from "../engine.ts";
import { COLLECTIONS, TEXT } from "../doc.ts";
import { expectArray, expectObject, expectText } from "../expect.ts";
import { basicCredential } from "../redact.ts";
import { firstId, missingId } from "../data.ts";

interface Endpoint { method: string; path: string; scope: string; body?: unknown }

export function endpoints(id: string, name: string): Endpoint[] {
  const out: Endpoint[] = [
    { method: "GET", path: "/v2/batches", scope: "batches.read" },
    { method: "GET", path: `/v2/batches/${id}`, scope: "batches.read" },
    { method: "PATCH", path: `/v2/batches/${id}`, scope: "batches.write", body: { status: "Planning" } },
    { method: "DELETE", path: `/v2/batches/${id}`, scope: "batches.delete" },
    { method: "GET", path: `/v2/batches/${id}/readings`, scope: "batches.read" },
    { method: "GET", path: `/v2/batches/${id}/readings/last`, scope: "batches.read" },
    { method: "GET", path: `/v2/batches/${id}/brewtracker`, scope: "batches.read" },
    { method: "GET", path: "/v2/recipes", scope: "recipes.read" },
    { method: "GET", path: `/v2/recipes/${id}`, scope: "recipes.read" },
    { method: "POST", path: "/v2/recipes", scope: "recipes.write", body: { name } },
    { method: "PATCH", path: `/v2/recipes/${id}`, scope: "recipes.write", body: { notes: name } },
    { method: "DELETE", path: `/v2/recipes/${id}`, scope: "recipes.delete" },
  ];
  for (const c of COLLECTIONS) {
    out.push(
      { method: "GET", path: `/v2/inventory/${c}`, scope: "inventory.read" },
      { method: "GET", path: `/v2/inventory/${c}/${id}`, scope: "inventory.read" },
      { method: "POST", path: `/v2/inventory/${c}`, scope: "inventory.write", body: { name } },
      { method: "PATCH", path: `/v2/inventory/${c}/${id}`, scope: "inventory.write", body: { inventory: 1 } },
      { method: "DELETE", path: `/v2/inventory/${c}/${id}`, scope: "inventory.delete" },
    );
  }
  return out;
}

const show = (e: Endpoint) => `${e.method} ${e.path.replace(/contracts-kit-[^/]*missing/, "{id}")}`;

function missingHeaderChecks(): Check[] {
  return endpoints("{id}", "").map((e) => ({
    name: `${show(e)} without Authorization answers 401 \`Unauthorized\` [Authentication, Errors]`,
    tags: ["text"],
    async run(ctx: Ctx) {
      const ep = endpoints(missingId(ctx), `${ctx.runPrefix}unauthorized`).find((x) => x.method === e.method && show(x) === show(e))!;
      const ex = await ctx.client.call({ method: ep.method, path: ep.path, json: ep.body });
      expectText(ctx, ex, 401, TEXT.unauthorized);
    },
  }));
}

/** Malformed or wrong credentials on one read endpoint: each is a 401, never a 403 or a 200. */
function basicParsingChecks(): Check[] {
  const cases: [string, (a: Account) => string][] = [
    ["a wrong key", (a) => `Basic ${basicCredential(a.userId, a.apiKey + "x")}`],
    ["an unknown user id with a valid key", (a) => `Basic ${basicCredential(a.userId + "-nobody", a.apiKey)}`],
    ["credentials without a colon", (a) => `Basic ${Buffer.from(a.userId + a.apiKey).toString("base64")}`],
    ["a value that is not base64", () => "Basic !!not*base64!!"],
    ["an empty Basic value", () => "Basic "],
    ["the key alone as a Bearer token", (a) => `Bearer ${a.apiKey}`],
    ["valid credentials under the scheme Bearer instead of Basic", (a) => `Bearer ${basicCredential(a.userId, a.apiKey)}`],
    ["valid credentials under the scheme Digest instead of Basic", (a) => `Digest ${basicCredential(a.userId, a.apiKey)}`],
    ["valid credentials without a scheme", (a) => basicCredential(a.userId, a.apiKey)],
    ["an empty key", (a) => `Basic ${basicCredential(a.userId, "")}`],
  ];
  return cases.map(([what, header]) => ({
    name: `GET /v2/batches with ${what} answers 401 \`Unauthorized\` [Authentication]`,
    tags: ["text"],
    needs: ["main"],
    async run(ctx: Ctx) {
      const ex = await ctx.client.call({ method: "GET", path: "/v2/batches", header: header(ctx.main) });
      expectText(ctx, ex, 401, TEXT.unauthorized);
    },
  }));
}

function readScopeChecks(): Check[] {
  return ["/v2/batches", "/v2/recipes", ...COLLECTIONS.map((c) => `/v2/inventory/${c}`)].map((path) => ({
    name: `GET ${path} with a key holding only the read scopes answers 200 [Authentication]`,
    needs: ["readonly"],
    async run(ctx: Ctx) {
      expectArray(await ctx.client.call({ method: "GET", path, account: ctx.account("readonly"), query: { limit: 1 } }));
    },
  }));
}

function forbiddenChecks(label: "readonly" | "nodelete", pick: (e: Endpoint) => boolean, why: string): Check[] {
  return endpoints("{id}", "").filter(pick).map((e) => ({
    name: `${show(e)} with a key ${why} answers 403 \`Forbidden\` [Authentication]`,
    tags: ["text"],
    needs: e.method === "POST" ? [label, "writes"] : [label],
    async run(ctx: Ctx) {
      const account = ctx.account(label);
      const ep = endpoints(missingId(ctx), `${ctx.runPrefix}forbidden`).find((x) => x.method === e.method && show(x) === show(e))!;
      const ex = await ctx.client.call({ method: ep.method, path: ep.path, account, json: ep.body });
      expectText(ctx, ex, 403, TEXT.forbidden);
    },
  }));
}

/** A batch PATCH on the read-only account's own batch, with its current status: forbidden, and harmless if not. */
const ownBatchForbidden: Check = {
  name: "PATCH of an existing batch with a read-only key answers 403 `Forbidden` [Authentication]",
  tags: ["text"],
  needs: ["readonly", "writes"],
  async run(ctx) {
    const account = ctx.account("readonly");
    const id = await firstId(ctx, account, "/v2/batches");
    if (!id) return ctx.needData("a batch in the read-only account");
    const batch = expectObject(await ctx.client.call({ method: "GET", path: `/v2/batches/${id}`, account, query: { include: "status" } }));
    const status = batch.status ?? "Planning";
    const ex = await ctx.client.call({ method: "PATCH", path: `/v2/batches/${id}`, account, json: { status } });
    expectText(ctx, ex, 403, TEXT.forbidden);
  },
};

export function authArea(): Area {
  const writes = (e: Endpoint) => e.method !== "GET";
  const deletes = (e: Endpoint) => e.method === "DELETE";
  return {
    name: "auth",
    checks: [
      ...missingHeaderChecks(),
      ...basicParsingChecks(),
      ...readScopeChecks(),
      ...forbiddenChecks("readonly", writes, "holding only the read scopes"),
      ownBatchForbidden,
      ...forbiddenChecks("nodelete", deletes, "holding read and write but no delete scope"),
    ],
  };
}
