import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../src/lib/scopes.ts";
import { parseImport, schemaCheck, type ElementCheck } from "../../src/import.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { issueLoggingId } from "../../src/devices/logging-id.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { NULL_SORT } from "../../src/store/sqlite-schema.ts";
import { createRandom } from "../../src/demo/random.ts";
import { batches, inventory, readings, recipes } from "./dataset.ts";

// Builds the benchmark database with the server's own import and store code, once per generator
// version and stored-format source: the cache key changes when either changes, so reruns are quick
// and a stale database is never measured.

/** Bump when the generated data changes. */
export const GENERATOR_VERSION = 2;
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
  main: Account & {
    batchId: string; readingsBatchId: string; patchBatchIds: string[]; hopIds: string[];
    /** Batches with 50,000, 100 and 10 readings (readings, `since` and append scenarios). */
    bigReadingsBatchId: string; hundredReadingsBatchId: string; tenReadingsBatchId: string;
    /** The `time` of the 100th reading from the end of the 50,000. */
    lastHundredSince: number;
    /** The account's logging id, for device posts (`POST /stream?id=`). */
    loggingId: string;
  };
  large: Account & { idCursor: string; brewDateCursor: string; anyFieldCursor: string };
}

/** Which of bench-main's batches get how many readings, beyond the first 100 with 200. */
const READING_SIZES = [[300, 50_000], [301, 100], [302, 10]] as const;
/** A field without a column of its own: pages by it read order keys (src/store/sqlite-order-keys.ts). */
export const ANY_FIELD = "measuredOg";

/** Page 5,000 of ten: the cursor is the 49,990th item. */
export const DEEP_OFFSET = 49_989;
const CHUNK = 10_000;

export function cacheKey(): string {
  const text = FORMAT_SOURCES.map((p) => readFileSync(join(ROOT, p), "utf8")).join("\0");
  return `v${GENERATOR_VERSION}-${Bun.hash(text).toString(16)}`;
}

export async function account(store: Store, userId: string): Promise<Account> {
  await store.createUser(userId, null);
  const key = await issueApiKey(store, userId, SCOPES);
  return { userId, authorization: `Basic ${Buffer.from(`${userId}:${key}`).toString("base64")}` };
}

/** Imports batches in chunks, each one transaction of the store's own importAll. */
async function importBatches(store: Store, userId: string, docs: Iterable<Record<string, unknown>>, check?: ElementCheck) {
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

/** Makes an account's logging id with the server's own code (as `logging-id <user>` does). */
async function loggingIdFor(dbPath: string, userId: string): Promise<string> {
  const store = SqliteStore.open(dbPath);
  try {
    return await issueLoggingId(store, userId);
  } finally {
    await store.close();
  }
}

export const MAIN_CONTENT = "10,000 batches, 100 with 200 readings, 500 recipes, 1,000 items";

/**
 * The account bench-main with its key and documents, in any store (the PostgreSQL benchmark fills its
 * database with this too); returns its batches as imported.
 */
export async function fillMain(store: Store): Promise<{ account: Account; batches: Record<string, unknown>[] }> {
  const main = await account(store, "bench-main");
  const mainBatches = [...batches({ count: 10_000, seed: 1, withReadings: 100, readingsPerBatch: 200 })];
  // A month of a device posting every minute is 43,000 readings: one batch holds 50,000.
  const sized = createRandom(7);
  for (const [at, count] of READING_SIZES) mainBatches[at].readings = readings(sized, Number(mainBatches[at].brewDate), count);
  await importBatches(store, main.userId, mainBatches, schemaCheck);
  await store.importAll(main.userId, parseImport({ recipes: recipes(500, 2), ...inventory(1_000, 3) }));
  return { account: main, batches: mainBatches };
}

/** The batches of bench-main the scenarios name: one to read, a hundred to PATCH in turn. */
export function mainBatchIds(mainBatches: Record<string, unknown>[]): { batchId: string; patchBatchIds: string[] } {
  return { batchId: String(mainBatches[5_000]._id), patchBatchIds: mainBatches.slice(200, 300).map((b) => String(b._id)) };
}

export async function generate(cacheDir: string, log: (s: string) => void): Promise<BenchData> {
  const key = cacheKey();
  const meta = join(cacheDir, `data-${key}.json`);
  const dbPath = join(cacheDir, `data-${key}.sqlite`);
  const jsonServerPath = join(cacheDir, `json-server-${key}.json`);
  // Paths are not cached: the clone may have moved since the data was generated.
  if (existsSync(meta)) {
    const cached = JSON.parse(readFileSync(meta, "utf8")) as BenchData;
    if (!cached.main.loggingId) {
      cached.main.loggingId = await loggingIdFor(dbPath, cached.main.userId);
      writeFileSync(meta, JSON.stringify(cached, null, 2));
    }
    return { ...cached, dbPath, jsonServerPath };
  }
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${dbPath}.tmp`;
  for (const p of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(p, { force: true });
  const started = performance.now();
  const store = SqliteStore.open(tmp);

  log(`generating: account bench-main (${MAIN_CONTENT})`);
  const { account: main, batches: mainBatches } = await fillMain(store);
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
  const anyFieldCursor = nth(
    `SELECT id FROM records WHERE user_id = ? AND kind = 'batch'
     ORDER BY COALESCE(json_extract(body, '$.${ANY_FIELD}'), ${NULL_SORT}), id LIMIT 1 OFFSET ?`,
  );
  // The keys the server makes on the first page by the field, made here at once: the benchmark
  // measures pages once they exist (docs/performance.md, "Order by any field").
  log(`generating: order keys of bench-large by ${ANY_FIELD}`);
  store.orderKeys.make(large.userId, "batch", `$.${ANY_FIELD}`);
  const hopIds = (db.query("SELECT id FROM records WHERE user_id = ? AND kind = 'hops' ORDER BY id LIMIT 50").all(main.userId) as Array<{ id: string }>).map((r) => r.id);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("ANALYZE");
  await store.close();
  renameSync(tmp, dbPath);
  const loggingId = await loggingIdFor(dbPath, main.userId);
  for (const p of [`${tmp}-wal`, `${tmp}-shm`]) rmSync(p, { force: true });

  // The same account's batches as json-server reads them (one JSON file, whole documents).
  writeFileSync(jsonServerPath, JSON.stringify({ batches: mainBatches.map(({ readings: _r, ...doc }) => doc) }));

  const withReadings = mainBatches.filter((b) => Array.isArray(b.readings));
  const data: Omit<BenchData, "dbPath" | "jsonServerPath"> = {
    main: {
      ...main,
      ...mainBatchIds(mainBatches),
      readingsBatchId: String(withReadings[0]._id),
      hopIds,
      bigReadingsBatchId: String(mainBatches[READING_SIZES[0][0]]._id),
      hundredReadingsBatchId: String(mainBatches[READING_SIZES[1][0]]._id),
      tenReadingsBatchId: String(mainBatches[READING_SIZES[2][0]]._id),
      loggingId,
      lastHundredSince: Number((mainBatches[READING_SIZES[0][0]].readings as Array<{ time: number }>).at(-100)!.time),
    },
    large: { ...large, idCursor, brewDateCursor, anyFieldCursor },
  };
  writeFileSync(meta, JSON.stringify(data, null, 2));
  log(`generated in ${((performance.now() - started) / 1000).toFixed(0)} s: ${dbPath}`);
  return { ...data, dbPath, jsonServerPath };
}
