import { SQL } from "bun";
import { coalesced } from "../lib/coalesce.ts";
import { migrate } from "./postgres-schema.ts";
import type { ApiKeyRecord, KeyedCount, LoggingIdRecord, RateCount, UserRecord } from "./types.ts";

/** Connections per server process unless the URL says otherwise (`?max=`). */
export const DEFAULT_POOL_SIZE = 10;

/** Connections per server process for rate counts, beside the pool (see PostgresAccounts.counts). */
export const RATE_COUNT_CONNECTIONS = 2;

// PostgreSQL text cannot hold a NUL character. No stored key holds one, so a lookup by such a key
// finds nothing, exactly as it would on SQLite; only writing one is refused.
export const findable = (...keys: string[]) => keys.every((k) => typeof k === "string" && !k.includes("\u0000"));

/** Splits `?max=N` (pool size per process) off the URL; the rest goes to the driver as is. */
export function poolOptions(url: string): { url: string; max: number } {
  const parsed = new URL(url);
  const raw = parsed.searchParams.get("max");
  parsed.searchParams.delete("max");
  const max = raw === null ? DEFAULT_POOL_SIZE : Number(raw);
  if (!Number.isInteger(max) || max < 1 || max > 1000) throw new Error(`DATABASE_URL: max must be a whole number from 1 to 1000, got "${raw}"`);
  return { url: parsed.toString(), max };
}

/** An api_keys row as the store's record. */
const keyRecord = (row: { user_id: string; digest: string; scopes: string | null; api_version: number; created_at: number | string }): ApiKeyRecord => ({
  userId: row.user_id,
  digest: row.digest,
  scopes: row.scopes ? String(row.scopes).split(",") : [],
  apiVersion: Number(row.api_version) === 1 ? 1 : 2,
  createdAt: Number(row.created_at),
});

/**
 * The PostgreSQL store's pool, its accounts and credentials (users, API keys, logging ids, secrets,
 * rate counts) and the database's own operations; documents, readings and devices are PostgresStore's.
 */
export class PostgresAccounts {
  readonly sql: SQL;
  /**
   * Rate counts' own connections, committing without waiting for the WAL to reach disk: a count is
   * one statement per call (fewer under load), not a document, and a crash of PostgreSQL may forget
   * the last fraction of a second of calls, as the SQLite store's counts saved every second may.
   */
  private readonly counts: SQL;
  /** Migrations, awaited by every method, so opening stays synchronous like SQLite's. */
  readonly ready: Promise<void>;
  /** Connections in the pool (`?max=`). */
  readonly poolSize: number;

  constructor(url: string) {
    const { url: clean, max } = poolOptions(url);
    this.poolSize = max;
    this.sql = new SQL(clean, { max, idleTimeout: 30 });
    this.counts = new SQL(clean, { max: RATE_COUNT_CONNECTIONS, idleTimeout: 30, connection: { synchronous_commit: "off" } });
    this.ready = migrate(this.sql);
    // A failed start is reported by the first call that awaits it, not as an unhandled rejection.
    this.ready.catch(() => {});
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

  /**
   * Every authenticated request reads its account's key. Reads of one account's key asked for while
   * one is in flight share the next read, sent after all of them were asked for: a key replaced before
   * a request arrived is never accepted, and under load one statement serves many requests.
   */
  private readonly keyReads = coalesced((userId: string) => userId, (userId) => this.readApiKey(userId),
    // Each caller its own copy: none sees what another does with its record.
    (record) => record && { ...record, scopes: [...record.scopes] });

  async getApiKey(userId: string): Promise<ApiKeyRecord | undefined> {
    if (!findable(userId)) return undefined;
    return this.keyReads(userId);
  }

  private async readApiKey(userId: string): Promise<ApiKeyRecord | undefined> {
    const sql = await this.db();
    const [row] = await sql`SELECT user_id, digest, scopes, api_version, created_at FROM api_keys WHERE user_id = ${userId}`;
    return row && keyRecord(row);
  }

  async secret(name: string, create: () => string): Promise<string> {
    const sql = await this.db();
    // Instances starting together may both create one; the first insert wins and all read it.
    await sql`INSERT INTO meta (name, value) VALUES (${name}, ${create()}) ON CONFLICT (name) DO NOTHING`;
    const [row] = await sql`SELECT value FROM meta WHERE name = ${name}`;
    return row.value;
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
          ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = GREATEST(rate_counts.count - ${c.release ?? 0}, excluded.count)`;
      }
      await tx`DELETE FROM rate_counts WHERE window_start < ${windowStart}`;
    });
  }

  /** Counts calls atomically across every process on this database; returns the calls so far. */
  async countRateCall(userId: string, apiVersion: 1 | 2, windowStart: number, calls = 1): Promise<number> {
    await this.ready;
    const [row] = await this.counts`INSERT INTO rate_counts (user_id, api_version, window_start, count) VALUES (${userId}, ${apiVersion}, ${windowStart}, ${calls})
      ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = rate_counts.count + excluded.count RETURNING count`;
    return Number(row.count);
  }

  /**
   * The account's key, read in the same statement that adds `calls` calls to the window's count when
   * `digest` is that key's digest and the key is of `apiVersion`: `count` is then the count including
   * them, else undefined and nothing is counted. One round trip where a key read and a count take two.
   */
  async countKeyedCall(userId: string, apiVersion: 1 | 2, windowStart: number, digest: string, calls: number): Promise<KeyedCount> {
    await this.ready;
    if (!findable(userId)) return { key: undefined, count: undefined };
    const [row] = await this.counts`WITH k AS (SELECT user_id, digest, scopes, api_version, created_at FROM api_keys WHERE user_id = ${userId}),
      counted AS (INSERT INTO rate_counts (user_id, api_version, window_start, count)
        SELECT user_id, api_version, ${windowStart}, ${calls} FROM k WHERE digest = ${digest} AND api_version = ${apiVersion}
        ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = rate_counts.count + excluded.count RETURNING count)
      SELECT k.*, (SELECT count FROM counted) AS count FROM k`;
    if (!row) return { key: undefined, count: undefined };
    return { key: keyRecord(row), count: row.count === null ? undefined : Number(row.count) };
  }

  /** Drops the counts of windows before this one (called once per window by each process). */
  async dropRateWindowsBefore(windowStart: number): Promise<void> {
    const sql = await this.db();
    await sql`DELETE FROM rate_counts WHERE window_start < ${windowStart}`;
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
    await Promise.all([this.sql.close(), this.counts.close()]);
  }
}
