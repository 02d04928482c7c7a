import type { Database } from "bun:sqlite";
import { canonicalJson, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { assignFields, encodeRecord, setFields, SORTED_FIELDS, type EncodedRecord } from "./records.ts";
import { stampMembers } from "../lib/stamps.ts";
import { buildListSql, type ListSql } from "./sqlite-list.ts";
import { openDatabase } from "./sqlite-open.ts";
import { derivedValues, DERIVED, INVENTORY_AT, ORDERED_AT, POSITIONS_AT, SQL, storedRecord } from "./sqlite-records.ts";
import { StatementCache } from "./sqlite-statements.ts";
import { sqliteTables } from "./sqlite-tables.ts";
import { SqliteDevices } from "./sqlite-devices.ts";
import { BATCH_SERIES, SqliteReadings } from "./sqlite-readings.ts";
import type {
  ApiKeyRecord, DeviceId, DevicePostOutcome, DevicePostState, DeviceRecord, DeviceSettings, FieldsToSet, ImportSet, ListQuery,
  LoggingIdRecord, RateCount, Store, StoredJson, TimedReading, TimeRange, UpdateOutcome, UserRecord,
} from "./types.ts";

/** How stale a look at other processes' key changes may be (docs/decisions.md). */
export const KEYS_EPOCH_MAX_AGE_MS = 1;

interface KeyRow { user_id: string; digest: string; scopes: string; api_version: number; created_at: number }

/** Answers a row when a batch has a readings list. */
const LIST_EXISTS = "SELECT 1 FROM reading_lists WHERE user_id = ? AND batch_id = ?";

export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  readonly tables;
  // Transaction functions are built once: building one per call costs more than a small write.
  private readonly tx;

  private readonly statements: StatementCache;
  private readonly series: SqliteReadings;
  private readonly deviceRows: SqliteDevices;

  constructor(readonly db: Database) {
    this.statements = new StatementCache(db);
    this.series = new SqliteReadings(this.statements);
    this.deviceRows = new SqliteDevices(db, this.statements, this.series, {
      read: (userId, batchId) => {
        const body = this.column(SQL.get, userId, "batch", batchId);
        return body === undefined ? undefined : (JSON.parse(body) as Doc);
      },
      write: (userId, doc) => this.write(userId, "batch", doc),
    });
    this.tables = sqliteTables(db, (userId, kind, doc) => this.write(userId, kind, doc));
    this.tx = {
      update: db.transaction(this.updateTx.bind(this)),
      remove: db.transaction(this.removeTx.bind(this)),
      setFields: db.transaction(this.setFieldsTx.bind(this)),
      pageAfterCursor: db.transaction(this.pageAfterCursorTx.bind(this)),
    };
  }

  static open(path: string): SqliteStore {
    return new SqliteStore(openDatabase(path));
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

  list(userId: string, kind: Kind, query: ListQuery, as: "bytes"): StoredJson[] | "unknown-cursor";
  list(userId: string, kind: Kind, query: ListQuery): string[] | "unknown-cursor";
  list(userId: string, kind: Kind, query: ListQuery, as?: "bytes"): StoredJson[] | "unknown-cursor" {
    const shared = this.statements.sharedList(kind, query, as === "bytes");
    if (shared) {
      const { statement, rest } = shared;
      const rows = (rest.length === 1 ? statement.values(userId, rest[0]) : statement.values(userId, ...rest)) as Array<[StoredJson]>;
      return rows.map((r) => r[0]);
    }
    const page = buildListSql(userId, kind, query, as === "bytes");
    const rows = page.cursorSql ? this.tx.pageAfterCursor(page) : (this.statements.get(page.sql).values(...page.params) as Array<[StoredJson]>);
    return rows === "unknown-cursor" ? rows : rows.map((r) => r[0]);
  }

  // The cursor's sort key, then the page after it, in one read transaction: one snapshot, and one
  // pair of lock calls instead of two (docs/performance.md, "Storage").
  private pageAfterCursorTx({ sql, params, cursorSql, cursorParams, keySlots }: ListSql): Array<[StoredJson]> | "unknown-cursor" {
    // Integers as BigInt: a key read from the body (json_extract, stock) past 2^53 goes back into the
    // page's statement exactly as stored. A position key is text and comes back as it is.
    const found = this.statements.get(cursorSql!).safeIntegers(true).values(...cursorParams!) as Array<[string | number | bigint]>;
    if (found.length === 0) return "unknown-cursor";
    for (const i of keySlots!) (params as unknown[])[i] = found[0][0];
    return this.statements.get(sql).values(...params) as Array<[StoredJson]>;
  }

  get(userId: string, kind: Kind, id: string, as: "bytes"): StoredJson | undefined;
  get(userId: string, kind: Kind, id: string): string | undefined;
  get(userId: string, kind: Kind, id: string, as?: "bytes"): StoredJson | undefined {
    const sql = as ? SQL.getBytes : SQL.get;
    const row = this.statements.get(sql).values(userId, kind, id) as Array<[StoredJson]>;
    return row.length ? row[0][0] : undefined;
  }

  private write(userId: string, kind: Kind, doc: Doc): void {
    const rec = encodeRecord(kind, doc);
    this.statements.get(SQL.write).run(userId, kind, rec.id, ...derivedValues(rec), rec.body);
  }

  insert(userId: string, kind: Kind, doc: Doc): void {
    this.write(userId, kind, doc);
  }

  async insertNumbered(userId: string, kind: Kind, field: string, make: (next: number) => Doc): Promise<Doc> {
    const path = jsonPathOf(field);
    return this.db.transaction(() => {
      const greatest = this.statements.get(`SELECT MAX(json_extract(body, '${path}')) FROM records WHERE user_id = ? AND kind = ? AND json_type(body, '${path}') IN ('integer', 'real')`);
      const max = (greatest.values(userId, kind) as unknown[][])[0]?.[0];
      const doc = make(typeof max === "number" ? Math.floor(max) + 1 : 1);
      this.write(userId, kind, doc);
      return doc;
    }).immediate();
  }

  private updateTx(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<unknown>): unknown {
    const rows = this.statements.get(SQL.current).values(userId, kind, id) as unknown[][];
    const row = rows[0];
    const outcome = decide(row ? (JSON.parse(row[1] as string) as Doc) : undefined);
    if (!outcome.write) return outcome.result;
    const doc = outcome.write._id === id ? outcome.write : { ...outcome.write, _id: id };
    if (!row) {
      this.write(userId, kind, doc);
      return outcome.result;
    }
    // What the decision left as parsed from a body that parses in order needs no second walk.
    this.rewrite(row, encodeRecord(kind, doc, row[ORDERED_AT] === 1 ? outcome.changed : undefined));
    return outcome.result;
  }

  /**
   * Writes a record over its current row (SQL.current). Only the columns whose values changed are
   * written: SQLite rewrites the entries of every index on a column named in SET, changed or not
   * (docs/performance.md, "Storage").
   */
  private rewrite(row: unknown[], rec: EncodedRecord, positions?: string[]): void {
    if (rec.body === row[1]) return;
    const values = derivedValues(rec, positions);
    const params: Array<string | number | null> = [rec.body];
    let changed = 0; // bit i: DERIVED[i] changed
    for (let i = 0; i < DERIVED.length; i++) {
      if (Object.is(values[i], row[i + 2])) continue;
      changed |= 1 << i;
      params.push(values[i]);
    }
    params.push(row[0] as number);
    this.statements.update(changed).run(...params);
  }

  // Top-level fields set from the stored text and columns, without parsing the document (setFields
  // in records.ts); what that cannot do goes the parsing way, in the same transaction.
  private setFieldsTx(userId: string, kind: Kind, id: string, fields: FieldsToSet, stampedAt: number | undefined): boolean {
    const row = (this.statements.get(SQL.current).values(userId, kind, id) as unknown[][])[0];
    if (!row) return false;
    const set = typeof fields === "function" ? fields({ inventory: row[INVENTORY_AT] as number | null }) : fields;
    // A change that sets no sorted field (a stock change, a measured value) keeps the stored
    // position keys as they are: they are neither decoded into sort keys nor made again.
    const keys = SORTED_FIELDS.some((f) => Object.hasOwn(set, f));
    const rec = setFields(kind, storedRecord(id, row, keys), set, stampedAt === undefined ? undefined : stampMembers(stampedAt, false));
    if (rec) this.rewrite(row, rec, keys ? undefined : (row.slice(POSITIONS_AT, POSITIONS_AT + SORTED_FIELDS.length) as string[]));
    else this.updateTx(userId, kind, id, assignFields(kind, set, stampedAt));
    return true;
  }

  private removeTx(userId: string, kind: Kind, id: string): boolean {
    const res = this.statements.get("DELETE FROM records WHERE user_id = ? AND kind = ? AND id = ?").run(userId, kind, id);
    if (kind === "batch") this.removeBatchChildren(userId, id);
    return res.changes > 0;
  }

  update<T>(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<T>): T {
    return this.tx.update.immediate(userId, kind, id, decide) as T;
  }

  setFields(userId: string, kind: Kind, id: string, fields: FieldsToSet, stampedAt?: number): boolean {
    return this.tx.setFields.immediate(userId, kind, id, fields, stampedAt);
  }

  remove(userId: string, kind: Kind, id: string): boolean {
    return this.tx.remove.immediate(userId, kind, id);
  }

  /** A batch's readings, its list, its tracker; its devices are detached. */
  private removeBatchChildren(userId: string, batchId: string): void {
    this.series.clear(BATCH_SERIES, [userId, batchId]);
    this.statements.get("DELETE FROM reading_lists WHERE user_id = ? AND batch_id = ?").run(userId, batchId);
    this.statements.get("DELETE FROM trackers WHERE user_id = ? AND batch_id = ?").run(userId, batchId);
    this.deviceRows.followBatch(userId, batchId, undefined, 0);
  }

  private column<T extends StoredJson = string>(sql: string, ...params: string[]): T | undefined {
    const rows = this.statements.get(sql).values(...params) as Array<[T | null]>;
    return rows.length && rows[0][0] !== null ? rows[0][0] : undefined;
  }

  readings(userId: string, batchId: string, as: "bytes", range?: TimeRange): StoredJson | undefined;
  readings(userId: string, batchId: string, as?: undefined, range?: TimeRange): string | undefined;
  readings(userId: string, batchId: string, as?: "bytes", range?: TimeRange): StoredJson | undefined {
    return this.series.list(BATCH_SERIES, [userId, batchId], as === "bytes", range, LIST_EXISTS);
  }

  lastReading(userId: string, batchId: string): string | undefined {
    return this.series.last(BATCH_SERIES, [userId, batchId]);
  }

  async appendReading(userId: string, batchId: string, reading: TimedReading): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.column(SQL.get, userId, "batch", batchId) === undefined) return false;
      this.series.append(BATCH_SERIES, [userId, batchId], reading);
      this.statements.get("INSERT OR IGNORE INTO reading_lists (user_id, batch_id) VALUES (?, ?)").run(userId, batchId);
      return true;
    }).immediate();
  }

  async deleteReading(userId: string, batchId: string, time: number): Promise<boolean> {
    return this.db.transaction(() => this.series.remove(BATCH_SERIES, [userId, batchId], time) > 0).immediate();
  }

  async setLoggingId(record: LoggingIdRecord): Promise<boolean> {
    return this.deviceRows.setLoggingId(record);
  }

  async getLoggingId(userId: string): Promise<LoggingIdRecord | undefined> {
    return this.deviceRows.getLoggingId(userId);
  }

  async userByLoggingId(digest: string): Promise<string | undefined> {
    return this.deviceRows.userByLoggingId(digest);
  }

  async devices(userId: string): Promise<DeviceRecord[]> {
    return this.deviceRows.list(userId);
  }

  async device(userId: string, id: DeviceId): Promise<DeviceRecord | undefined> {
    return this.deviceRows.get(userId, id);
  }

  async deviceReadings(userId: string, id: DeviceId, range?: TimeRange): Promise<string | undefined> {
    return this.deviceRows.deviceReadings(userId, id, range);
  }

  async devicePost<T>(userId: string, id: DeviceId, decide: (state: DevicePostState) => DevicePostOutcome<T>): Promise<T> {
    return this.deviceRows.post(userId, id, decide);
  }

  async attachDevice(userId: string, id: DeviceId, batchId: string | null, editBatch?: (batch: Doc, attached: boolean) => Doc): Promise<boolean> {
    return this.deviceRows.attach(userId, id, batchId, editBatch);
  }

  async setDeviceSettings(userId: string, id: DeviceId, settings: DeviceSettings): Promise<boolean> {
    return this.deviceRows.setSettings(userId, id, settings);
  }

  brewTracker(userId: string, batchId: string): string | undefined {
    return this.column("SELECT body FROM trackers WHERE user_id = ? AND batch_id = ?", userId, batchId);
  }

  async importAll(userId: string, set: ImportSet): Promise<void> {
    const now = Date.now();
    this.db.transaction(() => {
      for (const { doc, readings, brewTracker } of set.batches) {
        const id = String(doc._id);
        this.write(userId, "batch", doc);
        // Re-importing a batch replaces it whole, its readings and tracker included.
        this.removeBatchChildren(userId, id);
        this.deviceRows.followBatch(userId, id, doc, now);
        if (readings) {
          this.statements.get("INSERT INTO reading_lists (user_id, batch_id) VALUES (?, ?)").run(userId, id);
          this.series.replaceAll(BATCH_SERIES, [userId, id], readings);
        }
        if (brewTracker) {
          this.statements
      .get("INSERT INTO trackers (user_id, batch_id, body) VALUES (?, ?, ?)")
            .run(userId, id, canonicalJson(brewTracker));
        }
      }
      for (const { kind, doc } of set.docs) this.write(userId, kind, doc);
      if (set.devices) this.deviceRows.importDevices(userId, set.devices, (id) => this.column(SQL.get, userId, "batch", id) !== undefined);
      if (set.loggingId) this.deviceRows.importLoggingId({ userId, ...set.loggingId });
    }).immediate();
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
         ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = MAX(count, excluded.count)`,
      );
      for (const c of counts) upsert.run(c.userId, c.apiVersion, windowStart, c.count);
      this.statements.get("DELETE FROM rate_counts WHERE window_start < ?").run(windowStart);
    }).immediate();
  }

  async exportAll(userId: string): Promise<ImportSet> {
    // One read transaction, so the export is a consistent snapshot while the server writes.
    return this.db.transaction(() => {
      const rows = this.statements
      .get("SELECT kind, body FROM records WHERE user_id = ? ORDER BY kind, id")
        .all(userId) as Array<{ kind: Kind; body: string }>;
      const set: ImportSet = { batches: [], docs: [] };
      for (const { kind, body } of rows) {
        const doc = JSON.parse(body) as Doc;
        if (kind !== "batch") {
          set.docs.push({ kind, doc });
          continue;
        }
        const id = String(doc._id);
        const readings = this.readings(userId, id);
        const tracker = this.column("SELECT body FROM trackers WHERE user_id = ? AND batch_id = ?", userId, id);
        set.batches.push({
          doc,
          ...(readings !== undefined ? { readings: JSON.parse(readings) as Doc[] } : {}),
          ...(tracker !== undefined ? { brewTracker: JSON.parse(tracker) as Doc } : {}),
        });
      }
      const devices = this.deviceRows.exportDevices(userId);
      if (devices.length) set.devices = devices;
      const loggingId = this.deviceRows.getLoggingId(userId);
      if (loggingId) set.loggingId = { digest: loggingId.digest, createdAt: loggingId.createdAt };
      return set;
    }).deferred();
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

/** The JSON path of a top-level field, for SQL text: only a plain name is ever one (never request text). */
function jsonPathOf(field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`not a field name: ${field}`);
  return `$.${field}`;
}
