import { createHash } from "node:crypto";
import type { SQL } from "bun";
import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { PostgresStore } from "./postgres.ts";
import { SqliteStore } from "./sqlite.ts";
import type { ImportBatch, ImportSet, Store } from "./types.ts";

// `migrate-store`: copies a whole database between SQLite and PostgreSQL (either way) and proves the
// copy: per table, the row count and a SHA-256 over every row in key order must match on both sides.
// The HMAC secret in `meta` moves too, so every API key keeps working on the new store.

interface Table {
  name: string;
  columns: string[];
  key: string[];
  /** Columns holding numbers (PostgreSQL returns BIGINT as text). */
  numeric: string[];
}

export const TABLES: readonly Table[] = [
  { name: "meta", columns: ["name", "value"], key: ["name"], numeric: [] },
  { name: "users", columns: ["id", "password_hash", "created_at"], key: ["id"], numeric: ["created_at"] },
  { name: "api_keys", columns: ["user_id", "digest", "scopes", "api_version", "created_at"], key: ["user_id"], numeric: ["api_version", "created_at"] },
  { name: "records", columns: ["user_id", "kind", "id", "body", "summary", "status", "inventory"], key: ["user_id", "kind", "id"], numeric: ["inventory"] },
  { name: "readings", columns: ["user_id", "batch_id", "body", "last"], key: ["user_id", "batch_id"], numeric: [] },
  { name: "trackers", columns: ["user_id", "batch_id", "body"], key: ["user_id", "batch_id"], numeric: [] },
  { name: "rate_counts", columns: ["user_id", "api_version", "window_start", "count"], key: ["user_id", "api_version", "window_start"], numeric: ["api_version", "window_start", "count"] },
];

export interface TableReport {
  table: string;
  source: { rows: number; sha256: string };
  target: { rows: number; sha256: string };
  ok: boolean;
}

export class MoveError extends Error {}

type Row = unknown[];

/** Every row of each table in key order, read in one consistent snapshot. */
async function readAll(store: Store): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  const select = (t: Table) => `SELECT ${t.columns.join(", ")} FROM ${t.name} ORDER BY ${t.key.join(", ")}`;
  if (store instanceof SqliteStore) {
    store.db.transaction(() => {
      for (const t of TABLES) out.set(t.name, store.db.query(select(t)).values() as Row[]);
    }).deferred();
  } else if (store instanceof PostgresStore) {
    const sql = await store.db();
    await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
      for (const t of TABLES) out.set(t.name, (await tx.unsafe(select(t)).values()) as Row[]);
    });
  } else {
    throw new MoveError(`cannot read a ${(store as Store).kind} store`);
  }
  for (const t of TABLES) {
    const numeric = t.numeric.map((c) => t.columns.indexOf(c));
    for (const row of out.get(t.name)!) for (const i of numeric) if (row[i] !== null) row[i] = Number(row[i]);
  }
  return out;
}

function digest(rows: Row[]): string {
  const hash = createHash("sha256");
  for (const row of rows) hash.update(JSON.stringify(row) + "\n");
  return hash.digest("hex");
}

async function isEmptyTarget(store: Store): Promise<boolean> {
  const tables = await readCounts(store);
  return ["users", "api_keys", "records", "readings", "trackers"].every((t) => tables.get(t) === 0);
}

async function readCounts(store: Store): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const t of TABLES) {
    const q = `SELECT count(*) AS n FROM ${t.name}`;
    const n = store instanceof SqliteStore ? (store.db.query(q).get() as { n: number }).n : (await (await (store as PostgresStore).db()).unsafe(q))[0].n;
    counts.set(t.name, Number(n));
  }
  return counts;
}

async function clear(store: Store): Promise<void> {
  // Children first: api_keys refers to users.
  const order = [...TABLES].reverse().map((t) => `DELETE FROM ${t.name}`);
  if (store instanceof SqliteStore) store.db.transaction(() => order.forEach((q) => store.db.exec(q))).immediate();
  else {
    const sql = await (store as PostgresStore).db();
    await sql.begin(async (tx) => {
      for (const q of order) await tx.unsafe(q);
    });
  }
}

const objects = (t: Table, rows: Row[]) => rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i]])));

/** PostgreSQL target: every table in one transaction, a few hundred rows per statement. */
async function writePostgres(store: PostgresStore, data: Map<string, Row[]>): Promise<void> {
  const sql = await store.db();
  await sql.begin(async (tx: SQL) => {
    for (const t of TABLES) {
      const rows = objects(t, data.get(t.name)!);
      for (let i = 0; i < rows.length; i += 500) await tx`INSERT INTO ${tx(t.name)} ${tx(rows.slice(i, i + 500))}`;
    }
  });
}

/**
 * SQLite target: accounts, keys, meta and counts as rows; documents through the store's own import, so
 * the columns SQLite derives from a document (summaries, sort keys) are computed by its own code.
 */
async function writeSqlite(store: SqliteStore, data: Map<string, Row[]>): Promise<void> {
  store.db.transaction(() => {
    for (const t of TABLES.filter((t) => !["records", "readings", "trackers"].includes(t.name))) {
      const insert = store.db.query(`INSERT INTO ${t.name} (${t.columns.join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})`);
      for (const row of data.get(t.name)!) insert.run(...(row as Array<string | number | null>));
    }
  }).immediate();
  const readings = new Map((data.get("readings") ?? []).map((r) => [`${r[0]}\u0000${r[1]}`, String(r[2])]));
  const trackers = new Map((data.get("trackers") ?? []).map((r) => [`${r[0]}\u0000${r[1]}`, String(r[2])]));
  const byUser = new Map<string, ImportSet>();
  for (const [userId, kind, , body] of data.get("records")!) {
    let set = byUser.get(String(userId));
    if (!set) byUser.set(String(userId), (set = { batches: [], docs: [] }));
    const doc = JSON.parse(String(body)) as Doc;
    if (kind !== "batch") {
      set.docs.push({ kind: kind as Exclude<Kind, "batch">, doc });
      continue;
    }
    const key = `${userId}\u0000${doc._id}`;
    const batch: ImportBatch = { doc };
    if (readings.has(key)) batch.readings = JSON.parse(readings.get(key)!) as Doc[];
    if (trackers.has(key)) batch.brewTracker = JSON.parse(trackers.get(key)!) as Doc;
    set.batches.push(batch);
  }
  for (const [userId, set] of byUser) {
    for (let i = 0; i < set.batches.length; i += 1000) await store.importAll(userId, { batches: set.batches.slice(i, i + 1000), docs: [] });
    await store.importAll(userId, { batches: [], docs: set.docs });
  }
}

/**
 * Copies `from` into `to` and verifies both. Refuses a target holding accounts or documents unless
 * `force`, which empties it first. Returns one report per table; throws MoveError when one differs.
 */
export async function moveStore(from: Store, to: Store, options: { force: boolean }): Promise<TableReport[]> {
  if (!(await isEmptyTarget(to))) {
    if (!options.force) throw new MoveError("the target store is not empty; add --force to replace its contents");
  }
  await clear(to);
  const data = await readAll(from);
  if (to instanceof PostgresStore) await writePostgres(to, data);
  else if (to instanceof SqliteStore) await writeSqlite(to, data);
  else throw new MoveError(`cannot write a ${(to as Store).kind} store`);
  const copied = await readAll(to);
  const reports = TABLES.map((t) => {
    const a = data.get(t.name)!;
    const b = copied.get(t.name)!;
    const source = { rows: a.length, sha256: digest(a) };
    const target = { rows: b.length, sha256: digest(b) };
    return { table: t.name, source, target, ok: source.rows === target.rows && source.sha256 === target.sha256 };
  });
  const bad = reports.filter((r) => !r.ok);
  if (bad.length) throw Object.assign(new MoveError(`verification failed for ${bad.map((r) => r.table).join(", ")}`), { reports });
  return reports;
}
