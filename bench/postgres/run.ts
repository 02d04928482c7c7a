// Read and write scenarios on SQLite (one instance) and PostgreSQL (one and two instances), in one run,
// reported side by side. Usage: bun bench/postgres/run.ts [seconds per scenario, default 5]
// PostgreSQL: TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database is
// created for the run and dropped after.
import { SQL } from "bun";
import { basic } from "../../test/helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../../test/helpers/process.ts";

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = 32;
const ADMIN = process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";

interface Setup {
  name: string;
  servers: ServerProcess[];
  auth: string;
  itemUrl: string;
}

async function prepare(name: string, databaseUrl: string, instances: number): Promise<Setup> {
  const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_V2_PER_HOUR: "1000000000" };
  if (cli(["user", "add", "bench"], env).code !== 0) throw new Error("user add failed");
  const key = cli(["key", "generate", "bench", "--scopes", "all"], env).stdout.trim();
  const auth = basic("bench", key);
  const servers = await Promise.all(Array.from({ length: instances }, () => startServerProcess({ ...env, LOG_LEVEL: "error" })));
  const post = (body: unknown, path: string) =>
    fetch(servers[0].url + path, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  for (let i = 0; i < 200; i++) await post({ name: `Hop ${i}`, inventory: i }, "/v2/inventory/hops");
  const { id } = (await (await post({ name: "Counter", inventory: 0 }, "/v2/inventory/fermentables")).json()) as { id: string };
  return { name, servers, auth, itemUrl: `/v2/inventory/fermentables/${id}` };
}

/** Requests per second of `CONNECTIONS` loops, spread over the instances round-robin. */
async function drive(setup: Setup, request: (base: string) => Promise<Response>): Promise<number> {
  let done = 0;
  let failed = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      const base = setup.servers[c % setup.servers.length].url;
      while (Date.now() < end) {
        const res = await request(base);
        await res.arrayBuffer();
        if (res.status >= 400) failed++;
        done++;
      }
    }),
  );
  if (failed) throw new Error(`${setup.name}: ${failed} failed requests`);
  return Math.round(done / SECONDS);
}

async function scenarios(setup: Setup): Promise<Record<string, number>> {
  const headers = { authorization: setup.auth, "content-type": "application/json" };
  return {
    "read: GET /v2/inventory/hops?limit=50": await drive(setup, (b) => fetch(`${b}/v2/inventory/hops?limit=50`, { headers })),
    "write: PATCH inventory_adjust": await drive(setup, (b) =>
      fetch(b + setup.itemUrl, { method: "PATCH", headers, body: '{"inventory_adjust":1}' }),
    ),
  };
}

const dir = tempDir("brewrecords-bench-pg-");
const admin = new SQL(ADMIN, { max: 1 });
const databases: string[] = [];
async function pgDatabase(): Promise<string> {
  const name = `brewrecords_bench_${Date.now().toString(36)}_${databases.length}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  databases.push(name);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
}

const results: Array<[string, Record<string, number>]> = [];
try {
  for (const [name, url, n] of [
    ["SQLite, 1 instance", `${dir.path}/bench.sqlite`, 1],
    ["PostgreSQL, 1 instance", await pgDatabase(), 1],
    ["PostgreSQL, 2 instances", await pgDatabase(), 2],
  ] as const) {
    const setup = await prepare(name, url, n);
    try {
      results.push([name, await scenarios(setup)]);
    } finally {
      for (const s of setup.servers) await s.stop();
    }
  }
} finally {
  for (const name of databases) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
  dir.remove();
}

const names = Object.keys(results[0]?.[1] ?? {});
console.log(`requests per second, ${CONNECTIONS} connections, ${SECONDS} s each\n`);
console.log(["setup".padEnd(26), ...names.map((n) => n.padStart(40))].join(""));
for (const [name, r] of results) console.log([name.padEnd(26), ...names.map((n) => String(r[n]).padStart(40))].join(""));
