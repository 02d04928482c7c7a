import type { Database } from "bun:sqlite";
import { StatementCache } from "./sqlite-statements.ts";
import type { ApiKeyRecord, LoggingIdRecord, RateCount, UserRecord } from "./types.ts";

/** How stale a look at other processes' key changes may be (docs/decisions.md). */
export const KEYS_EPOCH_MAX_AGE_MS = 1;

interface KeyRow { user_id: string; digest: string; scopes: string; api_version: number; created_at: number }

/**
 * The SQLite store's accounts and credentials (users, API keys, logging ids, secrets, rate counts)
 * and the database's own operations; the documents, readings and devices are SqliteStore's.
 */
export class SqliteAccounts {
  protected readonly statements: StatementCache;

  constructor(readonly db: Database) {
    this.statements = new StatementCache(db);
  }

  async createUser(userId: string, passwordHash: string | null): Promise<boolean> {
    const res = this.statements
      .get("INSERT INTO users (id, password_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .run(userId, passwordHash, Date.now());
    return res.changes === 1;
  }

  async userExists(userId: string): Promise<boolean> {
    return this.statements.get("SELECT 1 FROM users WHERE id = ?").get(userId) !== null;
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const row = this.statements.get("SELECT id, password_hash, created_at FROM users WHERE id = ?").get(userId) as
      | { id: string; password_hash: string | null; created_at: number }
      | null;
    return row ? { userId: row.id, passwordHash: row.password_hash, createdAt: row.created_at } : undefined;
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    return this.statements.get("UPDATE users SET password_hash = ? WHERE id = ?").run(passwordHash, userId).changes === 1;
  }

  async setApiKey(k: ApiKeyRecord): Promise<void> {
    this.statements
      .get(
        `INSERT INTO api_keys (user_id, digest, scopes, api_version, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest, scopes = excluded.scopes,
           api_version = excluded.api_version, created_at = excluded.created_at`,
      )
      .run(k.userId, k.digest, k.scopes.join(","), k.apiVersion, k.createdAt);
    this.ownKeyWrites++;
    this.newEpoch();
  }

  private ownKeyWrites = 0;
  private dataVersion = -1;
  private dataVersionAt = -Infinity;
  private epoch = "";

  // data_version changes when another connection (the command line, another process) commits; this
  // connection's own key writes are counted here, so they are seen at once. Reading data_version takes
  // a read transaction of its own (two lock calls on the shared-memory file), so it is read again at
  // most once per KEYS_EPOCH_MAX_AGE_MS: a key changed by another process is refused within that.
  keysEpoch(): string {
    const now = performance.now();
    if (now - this.dataVersionAt >= KEYS_EPOCH_MAX_AGE_MS) {
      const version = (this.statements.get("PRAGMA data_version").values() as number[][])[0][0];
      this.dataVersionAt = now;
      if (version !== this.dataVersion) this.newEpoch(version);
    }
    return this.epoch;
  }

  // The epoch text is made when either count changes, not on every request that asks for it.
  private newEpoch(dataVersion = this.dataVersion): void {
    this.dataVersion = dataVersion;
    this.epoch = `${dataVersion}:${this.ownKeyWrites}`;
  }

  getApiKey(userId: string): ApiKeyRecord | undefined {
    const row = this.statements.get("SELECT * FROM api_keys WHERE user_id = ?").get(userId) as KeyRow | null;
    if (!row) return undefined;
    return {
      userId: row.user_id,
      digest: row.digest,
      scopes: row.scopes ? row.scopes.split(",") : [],
      apiVersion: row.api_version === 1 ? 1 : 2,
      createdAt: row.created_at,
    };
  }

  async secret(name: string, create: () => string): Promise<string> {
    return this.db.transaction(() => {
      const row = this.statements.get("SELECT value FROM meta WHERE name = ?").get(name) as { value: string } | null;
      if (row) return row.value;
      const value = create();
      this.statements.get("INSERT INTO meta (name, value) VALUES (?, ?)").run(name, value);
      return value;
    }).immediate();
  }

  async setLoggingId(r: LoggingIdRecord): Promise<boolean> {
    return this.putLoggingId(r);
  }

  protected putLoggingId(r: LoggingIdRecord): boolean {
    return this.db.transaction(() => {
      if (this.statements.get("SELECT 1 FROM users WHERE id = ?").get(r.userId) === null) return false;
      this.statements
        .get(`INSERT INTO logging_ids (user_id, digest, created_at) VALUES (?, ?, ?)
          ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at`)
        .run(r.userId, r.digest, r.createdAt);
      // Logging ids are credentials too: their cache (src/devices/logging-id.ts) follows the keys epoch.
      this.ownKeyWrites++;
      this.newEpoch();
      return true;
    }).immediate();
  }

  async getLoggingId(userId: string): Promise<LoggingIdRecord | undefined> {
    return this.loggingIdOf(userId);
  }

  protected loggingIdOf(userId: string): LoggingIdRecord | undefined {
    const row = this.statements.get("SELECT digest, created_at FROM logging_ids WHERE user_id = ?").get(userId) as { digest: string; created_at: number } | null;
    return row ? { userId, digest: row.digest, createdAt: row.created_at } : undefined;
  }

  /** In the caller's transaction: an imported digest, unless another account holds it (docs/decisions.md, "Devices"). */
  protected importLoggingId(r: LoggingIdRecord): void {
    const holder = this.holderOf(r.digest);
    if (holder === undefined || holder === r.userId) this.putLoggingId(r);
  }

  async userByLoggingId(digest: string): Promise<string | undefined> {
    return this.holderOf(digest);
  }

  private holderOf(digest: string): string | undefined {
    const row = this.statements.get("SELECT user_id FROM logging_ids WHERE digest = ?").get(digest) as { user_id: string } | null;
    return row?.user_id;
  }

  async loadRateCounts(windowStart: number): Promise<RateCount[]> {
    const rows = this.statements
      .get("SELECT user_id, api_version, count FROM rate_counts WHERE window_start = ?")
      .all(windowStart) as Array<{ user_id: string; api_version: number; count: number }>;
    return rows.map((r) => ({ userId: r.user_id, apiVersion: r.api_version === 1 ? 1 : 2, count: r.count }));
  }

  async saveRateCounts(windowStart: number, counts: RateCount[]): Promise<void> {
    this.db.transaction(() => {
      const upsert = this.statements.get(
        `INSERT INTO rate_counts (user_id, api_version, window_start, count) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = MAX(count - ?, excluded.count)`,
      );
      for (const c of counts) upsert.run(c.userId, c.apiVersion, windowStart, c.count, c.release ?? 0);
      this.statements.get("DELETE FROM rate_counts WHERE window_start < ?").run(windowStart);
    }).immediate();
  }

  async backup(path: string): Promise<void> {
    this.statements.get("VACUUM INTO ?").run(path);
  }

  async ping(): Promise<boolean> {
    try {
      return this.statements.get("SELECT 1 AS ok").get() !== null;
    } catch {
      return false;
    }
  }

  async isEmpty(): Promise<boolean> {
    return this.statements.get("SELECT 1 FROM users LIMIT 1").get() === null;
  }

  async close(): Promise<void> {
    // Finalized first, so closing releases the file (and checkpoints the WAL) at once.
    this.statements.clear();
    this.db.close();
  }
}
