import { SQL } from "bun";
import { canonicalJson, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { buildPgListSql } from "./postgres-list.ts";
import { migrate } from "./postgres-schema.ts";
import { exportSet, importSet, removeBatchChildren } from "./postgres-import.ts";
import { postgresTables } from "./postgres-tables.ts";
import { copyRecords, encodedRow } from "./postgres-rows.ts";
import * as devices from "./postgres-devices.ts";
import { appendReading, BATCH_SERIES, DEVICE_SERIES, lastReading, listReadings, removeReadings, replaceReadings } from "./postgres-readings.ts";
import { assignFields } from "./records.ts";
import type {
  ApiKeyRecord, DeviceId, DevicePostOutcome, DevicePostState, DeviceRecord, DeviceSettings, FieldsToSet, ImportSet, ListQuery,
  LoggingIdRecord, RateCount, Store, TimedReading, TimeRange, UpdateOutcome, UserRecord,
} from "./types.ts";
import type { Doc as Document } from "../lib/json.ts";

/** Connections per server process unless the URL says otherwise (`?max=`). */
export const DEFAULT_POOL_SIZE = 10;

// PostgreSQL text cannot hold a NUL character. No stored key holds one, so a lookup by such a key
// finds nothing, exactly as it would on SQLite; only writing one is refused.
const findable = (...keys: string[]) => keys.every((k) => typeof k === "string" && !k.includes("\u0000"));

/** Splits `?max=N` (pool size per process) off the URL; the rest goes to the driver as is. */
export function poolOptions(url: string): { url: string; max: number } {
  const parsed = new URL(url);
  const raw = parsed.searchParams.get("max");
  parsed.searchParams.delete("max");
  const max = raw === null ? DEFAULT_POOL_SIZE : Number(raw);
  if (!Number.isInteger(max) || max < 1 || max > 1000) throw new Error(`DATABASE_URL: max must be a whole number from 1 to 1000, got "${raw}"`);
  return { url: parsed.toString(), max };
}

/**
 * The store on PostgreSQL through Bun's built-in client. Several server processes may share one
 * database: every write is one transaction, read-modify-write holds a row lock, counts are atomic.
 */
export class PostgresStore implements Store {
  readonly kind = "postgres" as const;
  readonly tables = postgresTables(() => this.db());
  readonly sql: SQL;
  /** Migrations, awaited by every method, so opening stays synchronous like SQLite's. */
  readonly ready: Promise<void>;

  constructor(url: string) {
    const { url: clean, max } = poolOptions(url);
    this.sql = new SQL(clean, { max, idleTimeout: 30 });
    this.ready = migrate(this.sql);
    // A failed start is reported by the first call that awaits it, not as an unhandled rejection.
    this.ready.catch(() => {});
  }

  static open(url: string): PostgresStore {
    return new PostgresStore(url);
  }

  /** The pool, once migrations are done. */
  async db(): Promise<SQL> {
    await this.ready;
    return this.sql;
  }

  async createUser(userId: string, passwordHash: string | null): Promise<boolean> {
    const sql = await this.db();
    const rows = await sql`INSERT INTO users (id, password_hash, created_at) VALUES (${userId}, ${passwordHash}, ${Date.now()})
      ON CONFLICT DO NOTHING RETURNING id`;
    return rows.length === 1;
  }

  async userExists(userId: string): Promise<boolean> {
    return (await this.getUser(userId)) !== undefined;
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const sql = await this.db();
    if (!findable(userId)) return undefined;
    const [row] = await sql`SELECT id, password_hash, created_at FROM users WHERE id = ${userId}`;
    return row ? { userId: row.id, passwordHash: row.password_hash, createdAt: Number(row.created_at) } : undefined;
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    const sql = await this.db();
    if (!findable(userId)) return false;
    return (await sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${userId} RETURNING id`).length === 1;
  }

  async setApiKey(k: ApiKeyRecord): Promise<void> {
    const sql = await this.db();
    // One statement: every instance reads the new digest from its next request on.
    await sql`INSERT INTO api_keys (user_id, digest, scopes, api_version, created_at)
      VALUES (${k.userId}, ${k.digest}, ${k.scopes.join(",")}, ${k.apiVersion}, ${k.createdAt})
      ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest, scopes = excluded.scopes,
        api_version = excluded.api_version, created_at = excluded.created_at`;
  }

  async getApiKey(userId: string): Promise<ApiKeyRecord | undefined> {
    const sql = await this.db();
    if (!findable(userId)) return undefined;
    const [row] = await sql`SELECT user_id, digest, scopes, api_version, created_at FROM api_keys WHERE user_id = ${userId}`;
    if (!row) return undefined;
    return {
      userId: row.user_id,
      digest: row.digest,
      scopes: row.scopes ? String(row.scopes).split(",") : [],
      apiVersion: Number(row.api_version) === 1 ? 1 : 2,
      createdAt: Number(row.created_at),
    };
  }

  async secret(name: string, create: () => string): Promise<string> {
    const sql = await this.db();
    // Instances starting together may both create one; the first insert wins and all read it.
    await sql`INSERT INTO meta (name, value) VALUES (${name}, ${create()}) ON CONFLICT (name) DO NOTHING`;
    const [row] = await sql`SELECT value FROM meta WHERE name = ${name}`;
    return row.value;
  }

  async list(userId: string, kind: Kind, query: ListQuery): Promise<string[] | "unknown-cursor"> {
    const sql = await this.db();
    let page = buildPgListSql(userId, kind, query);
    if (page.cursorSql) {
      if (!findable(query.startAfter!)) return "unknown-cursor";
      const rows = await sql.unsafe(page.cursorSql, page.cursorParams!).values();
      if (!rows.length) return "unknown-cursor";
      page = buildPgListSql(userId, kind, query, rows[0] as unknown[]);
    }
    const rows = (await sql.unsafe(page.sql, page.params as never[]).values()) as Array<[string]>;
    return rows.map((r) => r[0]);
  }

  async get(userId: string, kind: Kind, id: string): Promise<string | undefined> {
    const sql = await this.db();
    if (!findable(id)) return undefined;
    const [row] = await sql`SELECT body FROM records WHERE user_id = ${userId} AND kind = ${kind} AND id = ${id}`;
    return row?.body;
  }

  async insert(userId: string, kind: Kind, doc: Doc): Promise<void> {
    const sql = await this.db();
    await copyRecords(sql, [encodedRow(userId, kind, doc)]);
  }

  async insertNumbered(userId: string, kind: Kind, field: string, make: (next: number) => Doc): Promise<Doc> {
    const sql = await this.db();
    return sql.begin(async (tx) => {
      // One lock per account, kind and field: concurrent inserts, from any process, take turns.
      await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${userId}/${kind}/#${field}`}, 0))`;
      const [row] = await tx`SELECT MAX((body::json ->> ${field})::numeric) AS max FROM records
        WHERE user_id = ${userId} AND kind = ${kind} AND json_typeof(body::json -> ${field}) = 'number'`;
      const max = row?.max === null || row?.max === undefined ? undefined : Number(row.max);
      const doc = make(max === undefined ? 1 : Math.floor(max) + 1);
      await copyRecords(tx, [encodedRow(userId, kind, doc)]);
      return doc;
    });
  }

  async update<T>(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<T>): Promise<T> {
    const sql = await this.db();
    if (!findable(id)) return decide(undefined).result;
    return sql.begin(async (tx) => {
      // The transaction-scoped lock on the key serialises writers of one document even while it does
      // not exist yet (a catalog default's first change); FOR UPDATE then reads the latest commit.
      await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${userId}/${kind}/${id}`}, 0))`;
      const [row] = await tx`SELECT body FROM records WHERE user_id = ${userId} AND kind = ${kind} AND id = ${id} FOR UPDATE`;
      const outcome = decide(row ? (JSON.parse(row.body) as Doc) : undefined);
      if (outcome.write) await copyRecords(tx, [encodedRow(userId, kind, { ...outcome.write, _id: id })]);
      return outcome.result;
    });
  }

  setFields(userId: string, kind: Kind, id: string, fields: FieldsToSet, stampedAt?: number): Promise<boolean> {
    return this.update(userId, kind, id, assignFields(kind, fields, stampedAt));
  }

  async remove(userId: string, kind: Kind, id: string): Promise<boolean> {
    const sql = await this.db();
    if (!findable(id)) return false;
    return sql.begin(async (tx) => {
      const gone = await tx`DELETE FROM records WHERE user_id = ${userId} AND kind = ${kind} AND id = ${id} RETURNING id`;
      if (kind === "batch") await removeBatchChildren(tx, userId, [id]);
      return gone.length > 0;
    });
  }

  /** Answers a row when a batch has a readings list. */
  private static readonly LIST_EXISTS = "SELECT 1 FROM reading_lists WHERE user_id = $1 AND batch_id = $2";

  async readings(userId: string, batchId: string, _as?: "bytes", range?: TimeRange): Promise<string | undefined> {
    const sql = await this.db();
    if (!findable(batchId)) return undefined;
    return listReadings(sql, BATCH_SERIES, [userId, batchId], range, PostgresStore.LIST_EXISTS);
  }

  async lastReading(userId: string, batchId: string): Promise<string | undefined> {
    const sql = await this.db();
    if (!findable(batchId)) return undefined;
    return lastReading(sql, BATCH_SERIES, [userId, batchId]);
  }

  async brewTracker(userId: string, batchId: string): Promise<string | undefined> {
    const sql = await this.db();
    if (!findable(batchId)) return undefined;
    const [row] = await sql`SELECT body FROM trackers WHERE user_id = ${userId} AND batch_id = ${batchId}`;
    return row?.body;
  }

  async appendReading(userId: string, batchId: string, reading: TimedReading): Promise<boolean> {
    const sql = await this.db();
    if (!findable(batchId)) return false;
    return sql.begin(async (tx) => {
      // The batch's row lock serialises writers of its readings across processes.
      if (!(await devices.batchForUpdate(tx, userId, batchId))) return false;
      await appendReading(tx, BATCH_SERIES, [userId, batchId], reading);
      await tx`INSERT INTO reading_lists (user_id, batch_id) VALUES (${userId}, ${batchId}) ON CONFLICT DO NOTHING`;
      return true;
    });
  }

  async deleteReading(userId: string, batchId: string, time: number): Promise<boolean> {
    const sql = await this.db();
    if (!findable(batchId)) return false;
    return sql.begin(async (tx) => (await removeReadings(tx, BATCH_SERIES, [userId, batchId], time)) > 0);
  }

  async setLoggingId(r: LoggingIdRecord): Promise<boolean> {
    const sql = await this.db();
    if (!findable(r.userId)) return false;
    const rows = await sql`INSERT INTO logging_ids (user_id, digest, created_at) SELECT id, ${r.digest}, ${r.createdAt} FROM users WHERE id = ${r.userId}
      ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at RETURNING user_id`;
    return rows.length === 1;
  }

  async getLoggingId(userId: string): Promise<LoggingIdRecord | undefined> {
    const sql = await this.db();
    if (!findable(userId)) return undefined;
    const [row] = await sql`SELECT digest, created_at FROM logging_ids WHERE user_id = ${userId}`;
    return row ? { userId, digest: row.digest, createdAt: Number(row.created_at) } : undefined;
  }

  async userByLoggingId(digest: string): Promise<string | undefined> {
    const sql = await this.db();
    if (!findable(digest)) return undefined;
    const [row] = await sql`SELECT user_id FROM logging_ids WHERE digest = ${digest}`;
    return row?.user_id;
  }

  async devices(userId: string): Promise<DeviceRecord[]> {
    return devices.listDevices(await this.db(), userId);
  }

  async device(userId: string, id: DeviceId): Promise<DeviceRecord | undefined> {
    const sql = await this.db();
    return findable(id.type, id.name) ? devices.getDevice(sql, userId, id) : undefined;
  }

  async deviceReadings(userId: string, id: DeviceId, range?: TimeRange): Promise<string | undefined> {
    const sql = await this.db();
    if (!findable(id.type, id.name)) return undefined;
    return listReadings(sql, DEVICE_SERIES, [userId, id.type, id.name], range, "SELECT 1 FROM devices WHERE user_id = $1 AND type = $2 AND name = $3");
  }

  async devicePost<T>(userId: string, id: DeviceId, decide: (state: DevicePostState) => DevicePostOutcome<T>): Promise<T> {
    const sql = await this.db();
    return sql.begin((tx) => devices.devicePost(tx, userId, id, decide));
  }

  async attachDevice(userId: string, id: DeviceId, batchId: string | null, editBatch?: (batch: Document, attached: boolean) => Document): Promise<boolean> {
    const sql = await this.db();
    if (batchId !== null && !findable(batchId)) return false;
    return sql.begin((tx) => devices.attachDevice(tx, userId, id, batchId, editBatch));
  }

  async setDeviceSettings(userId: string, id: DeviceId, settings: DeviceSettings): Promise<boolean> {
    const sql = await this.db();
    if (!findable(id.type, id.name)) return false;
    return sql.begin(async (tx) => {
      const device = await devices.getDevice(tx, userId, id, true);
      if (!device) return false;
      await devices.putDevice(tx, userId, { ...device, settings });
      return true;
    });
  }

  async importAll(userId: string, set: ImportSet): Promise<void> {
    const sql = await this.db();
    await sql.begin((tx) => importSet(tx, userId, set));
  }

  async exportAll(userId: string): Promise<ImportSet> {
    const sql = await this.db();
    // One repeatable-read transaction: a consistent snapshot while other instances write.
    return sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", (tx) => exportSet(tx, userId));
  }

  async loadRateCounts(windowStart: number): Promise<RateCount[]> {
    const sql = await this.db();
    const rows = await sql`SELECT user_id, api_version, count FROM rate_counts WHERE window_start = ${windowStart}`;
    return rows.map((r: { user_id: string; api_version: number; count: number }) => ({
      userId: r.user_id,
      apiVersion: Number(r.api_version) === 1 ? 1 : 2,
      count: Number(r.count),
    }));
  }

  async saveRateCounts(windowStart: number, counts: RateCount[]): Promise<void> {
    const sql = await this.db();
    await sql.begin(async (tx) => {
      for (const c of counts) {
        await tx`INSERT INTO rate_counts (user_id, api_version, window_start, count) VALUES (${c.userId}, ${c.apiVersion}, ${windowStart}, ${c.count})
          ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = GREATEST(rate_counts.count, excluded.count)`;
      }
      await tx`DELETE FROM rate_counts WHERE window_start < ${windowStart}`;
    });
  }

  /** Counts one call atomically across every process on this database; returns the calls so far. */
  async countRateCall(userId: string, apiVersion: 1 | 2, windowStart: number): Promise<number> {
    const sql = await this.db();
    const [row] = await sql`INSERT INTO rate_counts (user_id, api_version, window_start, count) VALUES (${userId}, ${apiVersion}, ${windowStart}, 1)
      ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = rate_counts.count + 1 RETURNING count`;
    return Number(row.count);
  }

  /** Drops the counts of windows before this one (called once per window by each process). */
  async dropRateWindowsBefore(windowStart: number): Promise<void> {
    const sql = await this.db();
    await sql`DELETE FROM rate_counts WHERE window_start < ${windowStart}`;
  }

  /** A consistent copy of the whole database into a new SQLite file (see `migrate-store`). */
  async backup(path: string): Promise<void> {
    const { SqliteStore } = await import("./sqlite.ts");
    const { moveStore } = await import("./move.ts");
    const target = SqliteStore.open(path);
    try {
      await moveStore(this, target, { force: false });
    } finally {
      await target.close();
    }
  }

  async isEmpty(): Promise<boolean> {
    const sql = await this.db();
    return (await sql`SELECT 1 FROM users LIMIT 1`).length === 0;
  }

  async ping(): Promise<boolean> {
    try {
      const sql = await this.db();
      return (await sql`SELECT 1 AS ok`).length === 1;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.ready.catch(() => {});
    await this.sql.close();
  }
}
