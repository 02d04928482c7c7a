import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../src/lib/scopes.ts";
import { parseImport, schemaCheck, type ElementCheck } from "../../src/import.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { NULL_SORT } from "../../src/store/sqlite-schema.ts";
import { batches, inventory, recipes } from "./dataset.ts";

// Builds the benchmark database with the server's own import and store code, once per generator
// version and stored-format source: the cache key changes when either changes, so reruns are quick
// and a stale database is never measured.

/** Bump when the generated data changes. */
export const GENERATOR_VERSION = 1;
const ROOT = join(import.meta.dir, "..", "..");
/** Sources that decide what a stored row looks like. */
const FORMAT_SOURCES = ["src/store/sqlite-schema.ts", "src/store/records.ts", "src/lib/json.ts", "src/resources.ts"];

export interface Account {
  userId: string;
  /** The full Authorization header value. */
  authorization: string;
}

export interface BenchData {
  dbPath: string;
  jsonServerPath: string;
  main: Account & { batchId: string; readingsBatchId: string; patchBatchIds: string[]; hopIds: string[] };
  large: Account & { idCursor: string; brewDateCursor: string };
}

/** Page 5,000 of ten: the cursor is the 49,990th item. */
export const DEEP_OFFSET = 49_989;
const CHUNK = 10_000;

export function cacheKey(): string {
  const text = FORMAT_SOURCES.map((p) => readFileSync(join(ROOT, p), "utf8")).join("\0");
  return `v${GENERATOR_VERSION}-${Bun.hash(text).toString(16)}`;
}

async function account(store: SqliteStore, userId: string): Promise<Account> {
  await store.createUser(userId, null);
  const key = await issueApiKey(store, userId, SCOPES);
  return { userId, authorization: `Basic ${Buffer.from(`${userId}:${key}`).toString("base64")}` };
}

/** Imports batches in chunks, each one transaction of the store's own importAll. */
async function importBatches(store: SqliteStore, userId: string, docs: Iterable<Record<string, unknown>>, check?: ElementCheck) {
  let chunk: Record<string, unknown>[] = [];
  const flush = async () => {
    if (chunk.length) await store.importAll(userId, parseImport({ batches: chunk }, check));
    chunk = [];
  };
  for (const doc of docs) {
    chunk.push(doc);
    if (chunk.length === CHUNK) await flush();
  }
  await flush();
}

export async function generate(cacheDir: string, log: (s: string) => void): Promise<BenchData> {
  const key = cacheKey();
  const meta = join(cacheDir, `data-${key}.json`);
  const dbPath = join(cacheDir, `data-${key}.sqlite`);
  const jsonServerPath = join(cacheDir, `json-server-${key}.json`);
  // Paths are not cached: the clone may have moved since the data was generated.
  if (existsSync(meta)) return { ...(JSON.parse(readFileSync(meta, "utf8")) as BenchData), dbPath, jsonServerPath };
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${dbPath}.tmp`;
  for (const p of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(p, { force: true });
  const started = performance.now();
  const store = SqliteStore.open(tmp);

  log("generating: account bench-main (10,000 batches, 100 with 200 readings, 500 recipes, 1,000 items)");
  const main = await account(store, "bench-main");
  const mainBatches = [...batches({ count: 10_000, seed: 1, withReadings: 100, readingsPerBatch: 200 })];
  await importBatches(store, main.userId, mainBatches, schemaCheck);
  await store.importAll(main.userId, parseImport({ recipes: recipes(500, 2), ...inventory(1_000, 3) }));
  for (const [userId, count, seed] of [["bench-b", 1_000, 4], ["bench-c", 200, 5]] as const) {
    log(`generating: account ${userId} (${count} batches)`);
    const other = await account(store, userId);
    await importBatches(store, other.userId, batches({ count, seed, withReadings: 5 }), schemaCheck);
  }
  log("generating: account bench-large (100,000 batches)");
  const large = await account(store, "bench-large");
  // Clones of templates the schema already accepted above: the basic checks suffice and save a minute.
  await importBatches(store, large.userId, batches({ count: 100_000, seed: 6 }), undefined);

  const db = store.db;
  const nth = (sql: string) => (db.query(sql).get(large.userId, DEEP_OFFSET) as { id: string }).id;
  const idCursor = nth("SELECT id FROM records WHERE user_id = ? AND kind = 'batch' ORDER BY id LIMIT 1 OFFSET ?");
  const brewDateCursor = nth(
    `SELECT id FROM records WHERE user_id = ? AND kind = 'batch'
     ORDER BY COALESCE(json_extract(body, '$.brewDate'), ${NULL_SORT}), id LIMIT 1 OFFSET ?`,
  );
  const hopIds = (db.query("SELECT id FROM records WHERE user_id = ? AND kind = 'hops' ORDER BY id LIMIT 50").all(main.userId) as Array<{ id: string }>).map((r) => r.id);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("ANALYZE");
  await store.close();
  renameSync(tmp, dbPath);
  for (const p of [`${tmp}-wal`, `${tmp}-shm`]) rmSync(p, { force: true });

  // The same account's batches as json-server reads them (one JSON file, whole documents).
  writeFileSync(jsonServerPath, JSON.stringify({ batches: mainBatches.map(({ readings: _r, ...doc }) => doc) }));

  const withReadings = mainBatches.filter((b) => Array.isArray(b.readings));
  const data: Omit<BenchData, "dbPath" | "jsonServerPath"> = {
    main: {
      ...main,
      batchId: String(mainBatches[5_000]._id),
      readingsBatchId: String(withReadings[0]._id),
      patchBatchIds: mainBatches.slice(200, 300).map((b) => String(b._id)),
      hopIds,
    },
    large: { ...large, idCursor, brewDateCursor },
  };
  writeFileSync(meta, JSON.stringify(data, null, 2));
  log(`generated in ${((performance.now() - started) / 1000).toFixed(0)} s: ${dbPath}`);
  return { ...data, dbPath, jsonServerPath };
}
