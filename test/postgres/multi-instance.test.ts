import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// Three real server processes on one PostgreSQL database are peers: any request may go to any of them.
// Rate-limit budgets are shared exactly (docs/decisions.md, Rate limits: per account and API version),
// concurrent stock adjustments and recipe merges lose nothing, a regenerated key is refused everywhere
// at once, and no request gets a 5xx.
const LIMIT = 60;

describe.skipIf(!HAVE_POSTGRES)("three server processes on one PostgreSQL database", () => {
  let db: Database;
  let servers: ServerProcess[] = [];
  const keys: Record<string, string> = {};
  const statuses: number[] = [];

  async function http(i: number, method: string, path: string, user: string, body?: unknown, key = keys[user]) {
    const res = await fetch(servers[i % servers.length].url + path, {
      method,
      headers: { authorization: basic(user, key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    statuses.push(res.status);
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  function newKey(user: string): string {
    const res = cli(["key", "generate", user, "--scopes", "all"], { DATABASE_URL: db.url });
    expect(res.code).toBe(0);
    return res.stdout.trim();
  }

  beforeAll(async () => {
    db = await freshPostgres();
    for (const user of ["ann", "bob", "rita"]) {
      expect(cli(["user", "add", user], { DATABASE_URL: db.url }).code).toBe(0);
      keys[user] = newKey(user);
    }
    // A small pool per process: three of them stay far below max_connections.
    const env = { DATABASE_URL: `${db.url}?max=4`, RATE_LIMIT_V2_PER_HOUR: String(LIMIT) };
    servers = await Promise.all([0, 1, 2].map(() => startServerProcess(env)));
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) expect(await s.stop()).toBe(0);
    await db.drop();
  }, DROP_TIMEOUT_MS);

  test(`${LIMIT * 2} calls at once spread over three instances: exactly ${LIMIT} answered, the rest 429`, async () => {
    const answers = await Promise.all(Array.from({ length: LIMIT * 2 }, (_, i) => http(i, "GET", "/v2/batches", "rita")));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok.length).toBe(LIMIT);
    expect(refused.length).toBe(LIMIT);
    expect(refused.every((a) => a.text === "Too Many Requests" && Number(a.headers.get("retry-after")) >= 1)).toBe(true);
    // Every answered call saw its own place in the shared budget: remaining 0 … LIMIT-1, each once.
    const remaining = ok.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    for (const i of [0, 1, 2]) expect((await http(i, "GET", "/v2/batches", "rita")).status).toBe(429);
  }, 30_000);

  test("30 concurrent inventory_adjust calls over three instances sum exactly", async () => {
    const created = await http(0, "POST", "/v2/inventory/hops", "ann", { name: "Saaz", inventory: 1.5 });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.text);
    const adjust = await Promise.all(Array.from({ length: 30 }, (_, i) => http(i, "PATCH", `/v2/inventory/hops/${id}`, "ann", { inventory_adjust: i % 3 === 0 ? -0.5 : 1 })));
    expect(adjust.map((a) => `${a.status} ${a.text}`)).toEqual(Array(30).fill("200 Updated"));
    for (const i of [0, 1, 2]) expect(JSON.parse((await http(i, "GET", `/v2/inventory/hops/${id}`, "ann")).text).inventory).toBe(1.5 + 20 - 5);
  }, 30_000);

  test("concurrent recipe PATCHes of different fields on different instances all survive", async () => {
    const created = await http(1, "POST", "/v2/recipes", "bob", { name: "Wit", type: "Extract" });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.text);
    const fields = Array.from({ length: 12 }, (_, i) => [`field${i}`, `value ${i}`] as const);
    const patches = await Promise.all(fields.map(([k, v], i) => http(i, "PATCH", `/v2/recipes/${id}`, "bob", { [k]: v })));
    expect(patches.map((p) => p.status)).toEqual(Array(12).fill(200));
    const stored = JSON.parse((await http(2, "GET", `/v2/recipes/${id}`, "bob")).text);
    for (const [k, v] of fields) expect(stored[k]).toBe(v);
    expect(stored.name).toBe("Wit");
  }, 30_000);

  test("a regenerated key is refused by every instance at once; the new one is accepted by all", async () => {
    const old = keys.ann;
    for (const i of [0, 1, 2]) expect((await http(i, "GET", "/v2/recipes", "ann", undefined, old)).status).toBe(200);
    keys.ann = newKey("ann");
    for (const i of [0, 1, 2]) {
      expect(await http(i, "GET", "/v2/recipes", "ann", undefined, old).then((r) => `${r.status} ${r.text}`)).toBe("401 Unauthorized");
      expect((await http(i, "GET", "/v2/recipes", "ann")).status).toBe(200);
    }
  });

  test("no answer of this run was a server failure", () => {
    expect(statuses.length).toBeGreaterThan(LIMIT * 2 + 30);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
