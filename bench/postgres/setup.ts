import { SQL } from "bun";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_POOL_SIZE, PostgresStore } from "../../src/store/postgres.ts";
import { fillMain, MAIN_CONTENT, mainBatchIds } from "../lib/generate.ts";
import { freePort, type StartOptions } from "../lib/procs.ts";
import { writeModes, type Comparison } from "../lib/scenarios.ts";

// The PostgreSQL benchmark's database, scenarios and reference process, for bench/postgres/run.ts and
// bench/postgres/cpu.ts. TEST_POSTGRES_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres).

const ROOT = join(import.meta.dir, "..", "..");
const BUN = process.execPath;
const ADMIN = process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** `pair`: two server processes on the one database, each given half of the connections. */
export type PgTarget = "server" | "reference" | "pair";

export interface PgData {
  url: string;
  userId: string;
  authorization: string;
  batchId: string;
  patchBatchIds: string[];
  hopIds: string[];
}

export function pgComparisons(d: PgData): Comparison<PgTarget>[] {
  const auth = d.authorization;
  const { patch, adjust } = writeModes(d);
  const both = (id: string, title: string, path: string, env?: Record<string, string>): Comparison<PgTarget> => ({
    id, title, kind: "ratio", target: 0.7,
    subject: { target: "server", path, auth, env },
    baseline: { target: "reference", path, auth, env },
  });
  // No target: on two cores the pair shares core 0 and PostgreSQL shares both (docs/performance.md).
  const pair = (id: string, title: string, path: string, env?: Record<string, string>): Comparison<PgTarget> => ({
    id, title, kind: "ratio",
    subject: { target: "pair", path, auth, env },
    baseline: { target: "server", path, auth, env },
  });
  return [
    both("pg-1-list", "GET /v2/batches (default fields, limit 10)", "/v2/batches"),
    both("pg-3-one", "GET /v2/batches/{id}", `/v2/batches/${d.batchId}`),
    both("pg-5-patch", "PATCH /v2/batches/{id} measuredOg", "/", patch),
    both("pg-6-adjust", "PATCH /v2/inventory/hops/{id} inventory_adjust", "/", adjust),
    pair("pg-2x-list", "GET /v2/batches: 2 instances vs 1", "/v2/batches"),
    pair("pg-2x-adjust", "inventory_adjust: 2 instances vs 1", "/", adjust),
  ];
}

export const admin = new SQL(ADMIN, { max: 1 });
let database: string | undefined;

const urlOf = (name: string) => {
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
};
const exists = async (name: string) => (await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;

/**
 * The filled database is kept as a template, like bench/.cache's SQLite file: its name carries a hash
 * of the sources that decide what is stored, so a changed store builds a new one. Each run copies it.
 */
const TEMPLATE_SOURCES = ["src/store/postgres-schema.ts", "src/store/postgres-rows.ts", "src/store/postgres-import.ts", "src/store/records.ts",
  "src/lib/json.ts", "src/resources.ts", "bench/lib/dataset.ts", "bench/lib/generate.ts"];

async function template(log: (s: string) => void): Promise<{ name: string; data: Omit<PgData, "url"> }> {
  const text = TEMPLATE_SOURCES.map((p) => readFileSync(join(ROOT, p), "utf8")).join("\0");
  const name = `brewrecords_bench_template_${Bun.hash(text).toString(16)}`;
  const meta = join(ROOT, "bench", ".cache", `${name}.json`);
  if (existsSync(meta) && (await exists(name))) return { name, data: JSON.parse(readFileSync(meta, "utf8")) };
  // A fill cut short leaves only the `_next` database, replaced by the next run.
  const next = `${name}_next`;
  await admin.unsafe(`DROP DATABASE IF EXISTS ${next} WITH (FORCE)`);
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${next}`);
  log(`filling ${next}: bench-main (${MAIN_CONTENT}); kept as ${name} for later runs`);
  const started = performance.now();
  const store = PostgresStore.open(urlOf(next));
  let data: Omit<PgData, "url">;
  try {
    const { account, batches } = await fillMain(store);
    const sql = await store.db();
    const hops = await sql`SELECT id FROM records WHERE user_id = ${account.userId} AND kind = 'hops' ORDER BY id LIMIT 50`;
    // Planner statistics and the visibility map, as a database that has run a while has them.
    await sql.unsafe("VACUUM ANALYZE");
    data = { ...account, ...mainBatchIds(batches), hopIds: hops.map((r: { id: string }) => r.id) };
  } finally {
    await store.close();
  }
  await admin.unsafe(`ALTER DATABASE ${next} RENAME TO ${name}`);
  mkdirSync(dirname(meta), { recursive: true });
  writeFileSync(meta, JSON.stringify(data, null, 2));
  log(`filled in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { name, data };
}

/** This run's database: a copy of the template, dropped at the end. */
export async function createDatabase(log: (s: string) => void): Promise<PgData> {
  const { name, data } = await template(log);
  database = `brewrecords_bench_${Date.now().toString(36)}`;
  await admin.unsafe(`CREATE DATABASE ${database} TEMPLATE ${name}`);
  return { ...data, url: urlOf(database) };
}

export function referenceOptions(d: PgData): StartOptions {
  const port = freePort();
  const env = { DATABASE_URL: d.url, PORT: String(port), POOL_SIZE: String(DEFAULT_POOL_SIZE), BENCH_KEYS: JSON.stringify({ [d.authorization]: d.userId }) };
  return { name: "reference", cmd: [BUN, "bench/postgres/reference.ts"], cwd: ROOT, env, port, probe: { path: "/v2/batches", headers: { authorization: d.authorization } } };
}

/** Drops this run's database (never the template) and closes the admin connection. */
export async function dropDatabase(log: (s: string) => void): Promise<void> {
  if (database) await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch((e) => log(`could not drop ${database}: ${e}`));
  database = undefined;
  await admin.close();
}
