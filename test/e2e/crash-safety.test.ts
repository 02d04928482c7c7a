import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir } from "../helpers/process.ts";

// Kill -9 mid-load: every write that got its 2xx survives, nothing is half-applied, and SQLite's
// integrity check passes (WAL with synchronous=NORMAL, docs/decisions.md).
const dir = tempDir();
afterAll(() => dir.remove());

const BATCHES = 8;
const batchId = (i: number) => `crash-${i}`;

test("SIGKILL during concurrent writes loses no acknowledged write and half-applies none", async () => {
  const db = join(dir.path, "crash.sqlite");
  const env = { DATABASE_URL: db, RATE_LIMIT_V2_PER_HOUR: "1000000" };
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const key = cli(["key", "generate", "alice", "--scopes", "all"], env).stdout.trim();
  const data = join(dir.path, "data.json");
  writeFileSync(data, JSON.stringify({
    batches: Array.from({ length: BATCHES }, (_, i) => ({ _id: batchId(i), name: `Batch ${i}`, status: "Fermenting", measuredBatchSize: 0 })),
    hops: [{ _id: "hop-stock", name: "Cascade", inventory: 0 }],
  }));
  expect(cli(["import", "alice", data], env).code).toBe(0);

  const server = await startServerProcess(env);
  const headers = { authorization: basic("alice", key), "content-type": "application/json" };
  const ackedSize = new Array<number>(BATCHES).fill(0);
  const sentSize = new Array<number>(BATCHES).fill(0);
  let adjustsAcked = 0;
  let adjustsSent = 0;
  const recipesAcked: string[] = [];
  let recipesSent = 0;
  let running = true;

  const send = async (url: string, method: string, body: unknown) => {
    try {
      return await fetch(server.url + url, { method, headers, body: JSON.stringify(body) });
    } catch {
      return undefined; // the connection died with the process
    }
  };
  const batchWriter = async (i: number) => {
    for (let v = 1; running; v++) {
      sentSize[i] = v;
      const res = await send(`/v2/batches/${batchId(i)}`, "PATCH", { measuredBatchSize: v });
      if (!res) return;
      expect(res.status).toBe(200);
      ackedSize[i] = v;
    }
  };
  const adjuster = async () => {
    while (running) {
      adjustsSent++;
      const res = await send("/v2/inventory/hops/hop-stock", "PATCH", { inventory_adjust: 1 });
      if (!res) return;
      expect(res.status).toBe(200);
      adjustsAcked++;
    }
  };
  const creator = async () => {
    while (running) {
      recipesSent++;
      const res = await send("/v2/recipes", "POST", { name: `Crash recipe ${recipesSent}`, batchSize: 20 });
      if (!res) return;
      expect(res.status).toBe(201);
      recipesAcked.push(((await res.json()) as { id: string }).id);
    }
  };
  const load = Promise.all([...Array.from({ length: BATCHES }, (_, i) => batchWriter(i)), adjuster(), adjuster(), creator()]);
  await Bun.sleep(1500);
  await server.stop("SIGKILL");
  running = false;
  await load;
  expect(adjustsAcked).toBeGreaterThan(0);

  const check = new Database(db);
  expect(check.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  check.close();

  const again = await startServerProcess(env);
  try {
    const get = async (url: string) => (await fetch(again.url + url, { headers })).json() as Promise<any>;
    for (let i = 0; i < BATCHES; i++) {
      const size = (await get(`/v2/batches/${batchId(i)}`)).measuredBatchSize as number;
      // The acknowledged value, or one sent after it that committed before the kill: never older.
      expect(size).toBeGreaterThanOrEqual(ackedSize[i]);
      expect(size).toBeLessThanOrEqual(sentSize[i]);
    }
    const stock = (await get("/v2/inventory/hops/hop-stock")).inventory as number;
    expect(Number.isInteger(stock)).toBe(true);
    expect(stock).toBeGreaterThanOrEqual(adjustsAcked);
    expect(stock).toBeLessThanOrEqual(adjustsSent);
    for (const id of recipesAcked) {
      const recipe = await get(`/v2/recipes/${id}`);
      expect(recipe._id).toBe(id);
      expect(typeof recipe.og).toBe("number"); // created whole, with its calculations
    }
  } finally {
    await again.stop();
  }
}, 60_000);
