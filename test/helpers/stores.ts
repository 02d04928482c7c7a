// Both stores for the tests. PostgreSQL is the one TEST_POSTGRES_URL names when it answers (default
// postgres://postgres@127.0.0.1:5432/postgres), else a throw-away cluster scripts/ensure-postgres.sh
// starts and this process stops at exit. Every test gets a database of its own (CREATE DATABASE with a
// unique name, dropped after), so parallel runs never meet. On CI (CI=true) no PostgreSQL is a failure.
import { SQL } from "bun";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Config } from "../../src/config.ts";
import { PostgresStore } from "../../src/store/postgres.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { appOnStore } from "./app.ts";

const ROOT = join(import.meta.dir, "..", "..");
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

async function answers(url: string): Promise<boolean> {
  const sql = new SQL(url, { max: 1, connectionTimeout: 3 });
  try {
    await sql`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.close().catch(() => {});
  }
}

async function findServer(): Promise<{ url?: string; why?: string }> {
  const url = process.env.TEST_POSTGRES_URL || DEFAULT_URL;
  if (await answers(url)) return { url };
  const res = Bun.spawnSync(["bash", join(ROOT, "scripts", "ensure-postgres.sh")], { env: { ...process.env, TEST_POSTGRES_URL: url } });
  const err = res.stderr.toString();
  const cluster = /cluster: (\S+)/.exec(err)?.[1];
  if (cluster) {
    process.on("exit", () => Bun.spawnSync(["bash", join(ROOT, "scripts", "ensure-postgres.sh"), "stop", cluster]));
  }
  const started = res.stdout.toString().trim();
  if (res.exitCode === 0 && started && (await answers(started))) return { url: started };
  return { why: `no PostgreSQL at ${url}, and scripts/ensure-postgres.sh could not start one: ${err.trim()}` };
}

const server = await findServer();
if (!server.url && process.env.CI === "true") throw new Error(`PostgreSQL is required on CI: ${server.why}`);
if (!server.url) console.warn(`PostgreSQL tests skipped: ${server.why}`);

/** True when PostgreSQL tests can run here; on CI it always is (or loading this module failed). */
export const HAVE_POSTGRES = server.url !== undefined;

export interface Database {
  url: string;
  drop(): Promise<void>;
}

/**
 * The time a hook that drops a test database (or closes a store standing on one) may take: DROP
 * DATABASE waits on the database server (the backends it ends, a checkpoint), and such a hook once
 * ran past bun's default 5 s on a busy machine (an `afterAll` failing as "(unnamed)" at 5000 ms).
 */
export const DROP_TIMEOUT_MS = 60_000;

/** A new, empty database on the test server; `drop` removes it (even with connections left open). */
export async function freshPostgres(): Promise<Database> {
  if (!server.url) throw new Error(`no PostgreSQL: ${server.why}`);
  const name = `brewrecords_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new SQL(server.url, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const sql = new SQL(server.url!, { max: 1 });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.close();
    },
  };
}

export interface OpenedStore {
  store: Store;
  /** Closes the store and removes what it stood on. */
  close(): Promise<void>;
}

export type StoreKind = "sqlite" | "postgres";

/** The stores a parameterised test runs over: SQLite always, PostgreSQL when it can be had. */
export const STORE_KINDS: StoreKind[] = HAVE_POSTGRES ? ["sqlite", "postgres"] : ["sqlite"];

export async function openTestStore(kind: StoreKind): Promise<OpenedStore> {
  if (kind === "sqlite") {
    const store = SqliteStore.open(":memory:");
    return { store, close: () => store.close() };
  }
  const db = await freshPostgres();
  const store = PostgresStore.open(db.url);
  await store.ready;
  return {
    store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}

/**
 * The app in process over a store of the given kind, with the helpers of test/helpers/app.ts
 * (`account`, `load`, `call`); `close` ends it and drops its database.
 */
export async function storeApp(kind: StoreKind, configOverrides: Partial<Config> = {}) {
  const opened = await openTestStore(kind);
  return { ...appOnStore(opened.store, configOverrides), close: opened.close };
}

export type StoreApp = Awaited<ReturnType<typeof storeApp>>;

let shared: Promise<PostgresStore> | undefined;

/**
 * One PostgreSQL database for the whole test process, emptied for each app: in-process suites make a
 * fresh app per test, and a database each would cost a connection pool and a CREATE DATABASE apiece.
 * The key secret in `meta` stays, as it would on a live server. Dropped when the process ends.
 */
export async function sharedPostgresStore(): Promise<PostgresStore> {
  shared ??= (async () => {
    const db = await freshPostgres();
    process.on("exit", () => {
      const name = new URL(db.url).pathname.slice(1);
      Bun.spawnSync(["psql", "-q", server.url!, "-c", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { stdout: "ignore", stderr: "ignore" });
    });
    const store = PostgresStore.open(db.url);
    await store.ready;
    return store;
  })();
  const store = await shared;
  await store.sql`TRUNCATE users, api_keys, records, reading_lists, readings, trackers, devices, device_readings, logging_ids, rate_counts, webhooks, webhook_deliveries, webhook_attempts`;
  return store;
}
