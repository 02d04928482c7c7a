// A PostgreSQL server that goes away for a while under write load: the requests that meet the outage
// are told to retry (503 with Retry-After), the health check says 503 while it lasts, the outage is
// logged once as a warning with its cause, and every acknowledged write is kept. A throw-away cluster of
// its own (scripts/ensure-postgres.sh), since stopping the shared server would break other tests.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { issueApiKey } from "../../src/store/keys.ts";
import { SCOPES } from "../../src/lib/scopes.ts";
import { PostgresStore } from "../../src/store/postgres.ts";
import { basic } from "../helpers/app.ts";
import { startServerProcess, type ServerProcess } from "../helpers/process.ts";

const SCRIPT = join(import.meta.dir, "..", "..", "scripts", "ensure-postgres.sh");
const canRun = Bun.spawnSync(["bash", "-c", "ls /usr/lib/postgresql/*/bin/initdb || command -v initdb"]).exitCode === 0;
if (!canRun && process.env.CI === "true") throw new Error("initdb is required on CI for the outage test");

let cluster = "";
let url = "";
let server: ServerProcess;
let auth = "";

const script = (...args: string[]) => {
  const res = Bun.spawnSync(["bash", SCRIPT, ...args], { env: { ...process.env, TEST_POSTGRES_URL: "postgres://postgres@127.0.0.1:1/postgres" } });
  if (res.exitCode !== 0) throw new Error(`ensure-postgres.sh ${args.join(" ")}: ${res.stderr}`);
  return res;
};

beforeAll(async () => {
  if (!canRun) return;
  const started = script();
  url = started.stdout.toString().trim();
  cluster = /cluster: (\S+)/.exec(started.stderr.toString())![1];
  const store = PostgresStore.open(url);
  await store.ready;
  await store.createUser("alice", null);
  auth = basic("alice", await issueApiKey(store, "alice", SCOPES));
  await store.close();
  server = await startServerProcess({ DATABASE_URL: url, LOG_LEVEL: "info", RATE_LIMIT_V2_PER_HOUR: "1000000" });
});

afterAll(async () => {
  await server?.stop();
  if (cluster) script("stop", cluster);
});

test.skipIf(!canRun)("a stopped and restarted database: only 200s and 503s with Retry-After, every acknowledged adjustment kept, one warning", async () => {
  const headers = { authorization: auth, "content-type": "application/json" };
  const created = await fetch(`${server.url}/v2/inventory/hops`, { method: "POST", headers, body: JSON.stringify({ name: "Citra", inventory: 0 }) });
  expect(created.status).toBe(201);
  const { id } = await created.json();

  const statuses = new Map<number, number>();
  let acknowledged = 0;
  let unavailable = 0;
  const retryAfter = new Set<string | null>();
  let running = true;
  const client = async () => {
    while (running) {
      const res = await fetch(`${server.url}/v2/inventory/hops/${id}`, { method: "PATCH", headers, body: JSON.stringify({ inventory_adjust: 1 }) });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) acknowledged++;
      if (res.status === 503) {
        unavailable++;
        retryAfter.add(res.headers.get("retry-after"));
        expect(text).toBe("Service Unavailable");
        await Bun.sleep(50);
      }
    }
  };
  const clients = [client(), client(), client(), client()];
  await Bun.sleep(800);
  script("pause", cluster);
  const health = await fetch(`${server.url}/healthz`);
  const healthDuring = health.status;
  await health.text();
  await Bun.sleep(1000);
  script("resume", cluster);
  // Load goes on until requests succeed again.
  const deadline = Date.now() + 15_000;
  const okBefore = acknowledged;
  while (acknowledged < okBefore + 20 && Date.now() < deadline) await Bun.sleep(50);
  running = false;
  await Promise.all(clients);

  expect([...statuses.keys()].sort()).toEqual([200, 503]);
  expect(healthDuring).toBe(503);
  expect([...retryAfter]).toEqual(["2"]);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  const item = await (await fetch(`${server.url}/v2/inventory/hops/${id}`, { headers })).json();
  // Every acknowledged adjustment is in the stock; a 503 whose commit raced the stop may be too.
  expect(item.inventory).toBeGreaterThanOrEqual(acknowledged);
  expect(item.inventory).toBeLessThanOrEqual(acknowledged + unavailable);
  const log = server.output();
  expect(log).not.toContain('"msg":"unhandled"');
  expect(log.match(/"msg":"database unavailable"/g)?.length).toBe(1);
  expect(log).toContain('"msg":"database available again"');
}, 60_000);
