// [Errors] exact statuses and plain-text bodies that need no data: direction, missing ids,
// update and delete of records that do not exist. Every request here targets no record.
import fc from "fast-check";
import type { Area, Check, Ctx } from "../engine.ts";
import type { Exchange } from "../client.ts";
import { COLLECTIONS, LISTS, TEXT } from "../doc.ts";
import { expectText } from "../expect.ts";
import { missingId } from "../data.ts";
import { property } from "../property.ts";

const directionChecks: Check[] = LISTS.flatMap((r) => ["sideways", "ASC"].map((dir): Check => ({
  name: `GET ${r.path}?order_by_direction=${dir} answers 400 \`Invalid order by direction\` [Common list query parameters, Errors]`,
  tags: ["text"],
  async run(ctx) {
    const ex = await ctx.client.call({ method: "GET", path: r.path, account: ctx.main, query: { order_by_direction: dir } });
    expectText(ctx, ex, 400, TEXT.invalidDirection);
  },
})));

const directionProperty: Check = {
  name: "GET /v2/batches?order_by_direction=<any value but asc or desc> answers 400 `Invalid order by direction` (property) [Common list query parameters]",
  tags: ["text", "property"],
  async run(ctx) {
    const arb = fc.string({ minLength: 1, maxLength: 12 }).filter((d) => d !== "asc" && d !== "desc");
    await property(ctx, "order_by_direction values", arb, async (dir) => {
      const ex = await ctx.client.call({ method: "GET", path: "/v2/batches", account: ctx.main, query: { order_by_direction: dir } });
      expectText(ctx, ex, 400, TEXT.invalidDirection);
    }, { costPerRun: 1, maxRuns: 20, share: 0.03 });
  },
};

// An empty id segment is how a client leaves the id out; GET of one record is left out because
// `/v2/batches/` is also the list's path.
const MISSING_ID: [string, string, unknown?][] = [
  ["PATCH", "/v2/batches/", { status: "Planning" }],
  ["DELETE", "/v2/batches/"],
  ["GET", "/v2/batches//readings/last"],
  ["GET", "/v2/batches//brewtracker"],
  ["PATCH", "/v2/recipes/", { notes: "x" }],
  ["DELETE", "/v2/recipes/"],
  ...COLLECTIONS.flatMap((c): [string, string, unknown?][] => [
    ["PATCH", `/v2/inventory/${c}/`, { inventory: 1 }],
    ["DELETE", `/v2/inventory/${c}/`],
  ]),
];

/**
 * A write or delete with the main key, to be judged by `expect` unless the key lacks the scope: the
 * document answers 403 before any 400 or 404, so such an answer is no verdict on the rule (a key with
 * all nine scopes checks it).
 */
async function withWriteScope(ctx: Ctx, method: string, path: string, json: unknown, expect: (ex: Exchange) => void): Promise<void> {
  const ex = await ctx.client.call({ method, path, account: ctx.main, json });
  if (method !== "GET" && ex.status === 403) {
    ctx.skip(`the main key lacks the ${method === "DELETE" ? "delete" : "write"} scope (403, which comes before 400 and 404 [Authentication]); a key with all nine scopes checks this`);
  }
  expect(ex);
}

const missingIdChecks: Check[] = MISSING_ID.map(([method, path, json]) => ({
  name: `${method} ${path} (no id) answers 400 \`Missing ID\` [Errors]`,
  tags: ["text"],
  async run(ctx) {
    await withWriteScope(ctx, method, path, json, (ex) => expectText(ctx, ex, 400, TEXT.missingId));
  },
}));

const NOT_FOUND: [string, string, unknown?][] = [
  ["PATCH", "/v2/batches", { status: "Planning" }],
  ["DELETE", "/v2/batches"],
  ["PATCH", "/v2/recipes", { notes: "x" }],
  ["DELETE", "/v2/recipes"],
  ...COLLECTIONS.flatMap((c): [string, string, unknown?][] => [
    ["PATCH", `/v2/inventory/${c}`, { inventory: 1 }],
    ["DELETE", `/v2/inventory/${c}`],
  ]),
];

const notFoundChecks: Check[] = NOT_FOUND.map(([method, path, json]) => ({
  name: `${method} ${path}/{id} of a missing id answers 404 \`Not Found\` [Errors]`,
  tags: ["text"],
  async run(ctx) {
    await withWriteScope(ctx, method, `${path}/${missingId(ctx)}`, json, (ex) => expectText(ctx, ex, 404, TEXT.notFound));
  },
}));

export function errorsArea(): Area {
  return {
    name: "errors",
    checks: [...directionChecks, directionProperty, ...missingIdChecks, ...notFoundChecks].map((c) => ({ ...c, needs: ["main"] })),
  };
}
