import { Database, type Statement } from "bun:sqlite";
import { canonicalJson, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { assignFields, encodeRecord, setFields, SORTED_FIELDS, type EncodedRecord } from "./records.ts";
import { stampMembers } from "../lib/stamps.ts";
import { buildListSql, listPlan, type ListSql } from "./sqlite-list.ts";
import { MIGRATIONS, SORT_COLUMNS } from "./sqlite-schema.ts";
import { keyOfPosition, positionKey } from "./sort-key.ts";
import { sqliteTables } from "./sqlite-tables.ts";
import type { ApiKeyRecord, FieldsToSet, ImportSet, ListQuery, RateCount, Store, StoredJson, UpdateOutcome, UserRecord } from "./types.ts";

export function openDatabase(path: string): Database {
  const db = openFile(path);
  // WAL with synchronous=NORMAL survives a process crash without losing a committed write
  // (docs/decisions.md); a second writer waits instead of failing at once.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  return db;
}

/**
 * The database file, created when missing, with its folder. The folder is made only when the open
 * fails for want of it: node:fs then loads, which a start on an existing database never needs.
 */
function openFile(path: string): Database {
  try {
    return new Database(path, { create: true, strict: true });
  } catch (e) {
    if (path === ":memory:" || (e as { code?: string }).code !== "SQLITE_CANTOPEN") throw e;
    const { mkdirSync } = require("node:fs") as typeof import("node:fs");
    const { dirname } = require("node:path") as typeof import("node:path");
    mkdirSync(dirname(path), { recursive: true });
    return new Database(path, { create: true, strict: true });
  }
}

const schemaVersion = (db: Database) => (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;

/** Brings the schema up to date. A database already there is only read: no write at every start. */
function migrate(db: Database): void {
  const check = (applied: number) => {
    if (applied > MIGRATIONS.length) throw new Error(`database schema version ${applied} is newer than this server (${MIGRATIONS.length})`);
    return applied < MIGRATIONS.length;
  };
  if (!check(schemaVersion(db))) return;
  // Under the write lock, read again: another process may have migrated in between.
  db.transaction(() => {
    const applied = schemaVersion(db);
    if (!check(applied)) return;
    for (let v = applied; v < MIGRATIONS.length; v++) {
      const step = MIGRATIONS[v];
      if (typeof step === "string") db.exec(step);
      else step(db);
    }
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/** More distinct statements than the store can build; reaching it means something builds SQL it should bind. */
const MAX_STATEMENTS = 2000;

/** How stale a look at other processes' key changes may be (docs/decisions.md). */
export const KEYS_EPOCH_MAX_AGE_MS = 1;

// Columns computed from a document at write time (src/store/records.ts), in derivedValues order.
const DERIVED = ["summary", "status", "inventory", ...SORTED_FIELDS.map((f) => SORT_COLUMNS[f]), "ordered"];
// Where `ordered` and the stock sit in a row of SQL.current (after rowid and body).
const ORDERED_AT = 2 + DERIVED.indexOf("ordered");
const INVENTORY_AT = 2 + DERIVED.indexOf("inventory");
// The record statements' text, made once: the statement cache is keyed by it.
const SQL = {
  write: `INSERT INTO records (user_id, kind, id, ${DERIVED.join(", ")}, body) VALUES (?, ?, ?, ${DERIVED.map(() => "?").join(", ")}, ?)
    ON CONFLICT (user_id, kind, id) DO UPDATE SET ${DERIVED.map((c) => `${c} = excluded.${c}`).join(", ")}, body = excluded.body`,
  current: `SELECT rowid, body, ${DERIVED.join(", ")} FROM records WHERE user_id = ? AND kind = ? AND id = ?`,
  get: "SELECT body FROM records WHERE user_id = ? AND kind = ? AND id = ?",
  // As a BLOB, bun:sqlite hands the text over as its bytes, without decoding it into a string.
  getBytes: "SELECT CAST(body AS BLOB) FROM records WHERE user_id = ? AND kind = ? AND id = ?",
  readings: "SELECT body FROM readings WHERE user_id = ? AND batch_id = ?",
  readingsBytes: "SELECT CAST(body AS BLOB) FROM readings WHERE user_id = ? AND batch_id = ?",
};
// `positions`, when given, are the record's position keys already made (the stored ones, kept).
const derivedValues = (rec: EncodedRecord, positions = rec.sortKeys.map((key) => positionKey(key, rec.id))): Array<string | number | null> => [
  rec.summary,
  rec.status,
  rec.inventory,
  ...positions,
  rec.ordered ? 1 : 0,
];
// Where the position keys sit in a row of SQL.current.
const POSITIONS_AT = 2 + DERIVED.indexOf(SORT_COLUMNS[SORTED_FIELDS[0]]);
/**
 * A record as its row of SQL.current holds it: rowid, body, then derivedValues in order. Without
 * `decodeKeys` its sort keys are left empty, for a caller that keeps the stored position keys.
 */
function storedRecord(id: string, row: unknown[], decodeKeys = true): EncodedRecord {
  const [summary, status, inventory] = row.slice(2) as [string, string | null, number | null];
  const sortKeys = decodeKeys ? (row.slice(POSITIONS_AT, POSITIONS_AT + SORTED_FIELDS.length) as string[]).map(keyOfPosition) : [];
  return { id, body: row[1] as string, summary, status, inventory, sortKeys, ordered: row[ORDERED_AT] === 1 };
}

/** A shared list query's prepared page: the statement, and the values bound after the user id. */
interface SharedList {
  statement: Statement;
  rest: Array<string | number>;
}

interface KeyRow { user_id: string; digest: string; scopes: string; api_version: number; created_at: number }

function sortReadings(readings: Doc[]): Doc[] {
  return [...readings].sort((a, b) => (Number(a.time) || 0) - (Number(b.time) || 0));
}

export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  readonly tables;
  // Transaction functions are built once: building one per call costs more than a small write.
  private readonly tx;

  constructor(readonly db: Database) {
    this.tables = sqliteTables(db, (userId, kind, doc) => this.write(userId, kind, doc));
    this.tx = {
      update: db.transaction(this.updateTx.bind(this)),
      remove: db.transaction(this.removeTx.bind(this)),
      setFields: db.transaction(this.setFieldsTx.bind(this)),
      pageAfterCursor: db.transaction(this.pageAfterCursorTx.bind(this)),
    };
  }

  // Prepared statements by their SQL text. bun:sqlite's own query cache keeps 20 and moves an entry on
  // every hit (a delete and a set), so a server with more shapes of query than that prepared some anew
  // on each use; this one keeps every shape the store builds (a bounded set: lists, partial updates).
  private readonly statements = new Map<string, Statement>();

  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      if (this.statements.size >= MAX_STATEMENTS) this.clearStatements();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  // The UPDATE of a record's body and the derived columns in `changed` (a bit per DERIVED column), by mask.
  private readonly updates: Statement[] = [];

  private updateStatement(changed: number): Statement {
    let stmt = this.updates[changed];
    if (stmt === undefined) {
      const set = ["body = ?", ...DERIVED.filter((_, i) => changed & (1 << i)).map((c) => `${c} = ?`)];
      this.updates[changed] = stmt = this.statement(`UPDATE records SET ${set.join(", ")} WHERE rowid = ?`);
    }
    return stmt;
  }

  // A list asked for with no parameters (most are) carries its version's frozen defaults
  // (src/http/list-params.ts), one object for every such request: its page's statement and the values
  // after the user id are found once per kind, not built as SQL text and looked up by it each time.
  private sharedLists = new WeakMap<ListQuery, Map<string, SharedList | null>>();

  private sharedList(kind: Kind, query: ListQuery, bytes: boolean): SharedList | null {
    if (!Object.isFrozen(query)) return null;
    let byKind = this.sharedLists.get(query);
    if (byKind === undefined) this.sharedLists.set(query, (byKind = new Map()));
    const key = bytes ? `${kind} bytes` : kind;
    let shared = byKind.get(key);
    if (shared === undefined) {
      const plan = listPlan(kind, query, bytes);
      byKind.set(key, (shared = plan ? { statement: this.statement(plan.sql), rest: plan.rest } : null));
    }
    return shared;
  }

  private clearStatements(): void {
    this.sharedLists = new WeakMap();
    this.updates.length = 0;
    for (const stmt of this.statements.values()) stmt.finalize();
    this.statements.clear();
  }

  static open(path: string): SqliteStore {
    return new SqliteStore(openDatabase(path));
  }

  async createUser(userId: string, passwordHash: string | null): Promise<boolean> {
    const res = this
      .statement("INSERT INTO users (id, password_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .run(userId, passwordHash, Date.now());
    return res.changes === 1;
  }

  async userExists(userId: string): Promise<boolean> {
    return this.statement("SELECT 1 FROM users WHERE id = ?").get(userId) !== null;
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const row = this.statement("SELECT id, password_hash, created_at FROM users WHERE id = ?").get(userId) as
      | { id: string; password_hash: string | null; created_at: number }
      | null;
    return row ? { userId: row.id, passwordHash: row.password_hash, createdAt: row.created_at } : undefined;
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    return this.statement("UPDATE users SET password_hash = ? WHERE id = ?").run(passwordHash, userId).changes === 1;
  }

  async setApiKey(k: ApiKeyRecord): Promise<void> {
    this
      .statement(
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
      const version = (this.statement("PRAGMA data_version").values() as number[][])[0][0];
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
    const row = this.statement("SELECT * FROM api_keys WHERE user_id = ?").get(userId) as KeyRow | null;
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
      const row = this.statement("SELECT value FROM meta WHERE name = ?").get(name) as { value: string } | null;
      if (row) return row.value;
      const value = create();
      this.statement("INSERT INTO meta (name, value) VALUES (?, ?)").run(name, value);
      return value;
    }).immediate();
  }

  list(userId: string, kind: Kind, query: ListQuery, as: "bytes"): StoredJson[] | "unknown-cursor";
  list(userId: string, kind: Kind, query: ListQuery): string[] | "unknown-cursor";
  list(userId: string, kind: Kind, query: ListQuery, as?: "bytes"): StoredJson[] | "unknown-cursor" {
    const shared = this.sharedList(kind, query, as === "bytes");
    if (shared) {
      const { statement, rest } = shared;
      const rows = (rest.length === 1 ? statement.values(userId, rest[0]) : statement.values(userId, ...rest)) as Array<[StoredJson]>;
      return rows.map((r) => r[0]);
    }
    const page = buildListSql(userId, kind, query, as === "bytes");
    const rows = page.cursorSql ? this.tx.pageAfterCursor(page) : (this.statement(page.sql).values(...page.params) as Array<[StoredJson]>);
    return rows === "unknown-cursor" ? rows : rows.map((r) => r[0]);
  }

  // The cursor's sort key, then the page after it, in one read transaction: one snapshot, and one
  // pair of lock calls instead of two (cheaper than reading the key in a subquery of the page).
  private pageAfterCursorTx({ sql, params, cursorSql, cursorParams, keySlots }: ListSql): Array<[StoredJson]> | "unknown-cursor" {
    // Integers as BigInt: a key read from the body (json_extract, stock) past 2^53 goes back into the
    // page's statement exactly as stored. A position key is text and comes back as it is.
    const found = this.statement(cursorSql!).safeIntegers(true).values(...cursorParams!) as Array<[string | number | bigint]>;
    if (found.length === 0) return "unknown-cursor";
    for (const i of keySlots!) (params as unknown[])[i] = found[0][0];
    return this.statement(sql).values(...params) as Array<[StoredJson]>;
  }

  get(userId: string, kind: Kind, id: string, as: "bytes"): StoredJson | undefined;
  get(userId: string, kind: Kind, id: string): string | undefined;
  get(userId: string, kind: Kind, id: string, as?: "bytes"): StoredJson | undefined {
    const sql = as ? SQL.getBytes : SQL.get;
    const row = this.statement(sql).values(userId, kind, id) as Array<[StoredJson]>;
    return row.length ? row[0][0] : undefined;
  }

  private write(userId: string, kind: Kind, doc: Doc): void {
    const rec = encodeRecord(kind, doc);
    this.statement(SQL.write).run(userId, kind, rec.id, ...derivedValues(rec), rec.body);
  }

  insert(userId: string, kind: Kind, doc: Doc): void {
    this.write(userId, kind, doc);
  }

  private updateTx(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<unknown>): unknown {
    const rows = this.statement(SQL.current).values(userId, kind, id) as unknown[][];
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
   * written: SQLite rewrites the entries of every index on a column named in SET, so naming all of
   * them doubled the cost of a one-field PATCH.
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
    this.updateStatement(changed).run(...params);
  }

  // Top-level fields set from the stored text and columns, without parsing the document (setFields
  // in records.ts); what that cannot do goes the parsing way, in the same transaction.
  private setFieldsTx(userId: string, kind: Kind, id: string, fields: FieldsToSet, stampedAt: number | undefined): boolean {
    const row = (this.statement(SQL.current).values(userId, kind, id) as unknown[][])[0];
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
    const res = this.statement("DELETE FROM records WHERE user_id = ? AND kind = ? AND id = ?").run(userId, kind, id);
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

  private removeBatchChildren(userId: string, batchId: string): void {
    this.statement("DELETE FROM readings WHERE user_id = ? AND batch_id = ?").run(userId, batchId);
    this.statement("DELETE FROM trackers WHERE user_id = ? AND batch_id = ?").run(userId, batchId);
  }

  private column<T extends StoredJson = string>(sql: string, ...params: string[]): T | undefined {
    const rows = this.statement(sql).values(...params) as Array<[T | null]>;
    return rows.length && rows[0][0] !== null ? rows[0][0] : undefined;
  }

  readings(userId: string, batchId: string, as: "bytes"): StoredJson | undefined;
  readings(userId: string, batchId: string): string | undefined;
  readings(userId: string, batchId: string, as?: "bytes"): StoredJson | undefined {
    return this.column<StoredJson>(as ? SQL.readingsBytes : SQL.readings, userId, batchId);
  }

  lastReading(userId: string, batchId: string): string | undefined {
    return this.column("SELECT last FROM readings WHERE user_id = ? AND batch_id = ?", userId, batchId);
  }

  brewTracker(userId: string, batchId: string): string | undefined {
    return this.column("SELECT body FROM trackers WHERE user_id = ? AND batch_id = ?", userId, batchId);
  }

  async importAll(userId: string, set: ImportSet): Promise<void> {
    this.db.transaction(() => {
      for (const { doc, readings, brewTracker } of set.batches) {
        const id = String(doc._id);
        this.write(userId, "batch", doc);
        // Re-importing a batch replaces it whole, its readings and tracker included.
        this.removeBatchChildren(userId, id);
        if (readings && readings.length) {
          const sorted = sortReadings(readings);
          this
            .statement("INSERT INTO readings (user_id, batch_id, body, last) VALUES (?, ?, ?, ?)")
            .run(userId, id, canonicalJson(sorted), canonicalJson(sorted[sorted.length - 1]));
        } else if (readings) {
          this.statement("INSERT INTO readings (user_id, batch_id, body, last) VALUES (?, ?, '[]', NULL)").run(userId, id);
        }
        if (brewTracker) {
          this
            .statement("INSERT INTO trackers (user_id, batch_id, body) VALUES (?, ?, ?)")
            .run(userId, id, canonicalJson(brewTracker));
        }
      }
      for (const { kind, doc } of set.docs) this.write(userId, kind, doc);
    }).immediate();
  }

  async loadRateCounts(windowStart: number): Promise<RateCount[]> {
    const rows = this
      .statement("SELECT user_id, api_version, count FROM rate_counts WHERE window_start = ?")
      .all(windowStart) as Array<{ user_id: string; api_version: number; count: number }>;
    return rows.map((r) => ({ userId: r.user_id, apiVersion: r.api_version === 1 ? 1 : 2, count: r.count }));
  }

  async saveRateCounts(windowStart: number, counts: RateCount[]): Promise<void> {
    this.db.transaction(() => {
      const upsert = this.statement(
        `INSERT INTO rate_counts (user_id, api_version, window_start, count) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id, api_version, window_start) DO UPDATE SET count = MAX(count, excluded.count)`,
      );
      for (const c of counts) upsert.run(c.userId, c.apiVersion, windowStart, c.count);
      this.statement("DELETE FROM rate_counts WHERE window_start < ?").run(windowStart);
    }).immediate();
  }

  async exportAll(userId: string): Promise<ImportSet> {
    // One read transaction, so the export is a consistent snapshot while the server writes.
    return this.db.transaction(() => {
      const rows = this
        .statement("SELECT kind, body FROM records WHERE user_id = ? ORDER BY kind, id")
        .all(userId) as Array<{ kind: Kind; body: string }>;
      const set: ImportSet = { batches: [], docs: [] };
      for (const { kind, body } of rows) {
        const doc = JSON.parse(body) as Doc;
        if (kind !== "batch") {
          set.docs.push({ kind, doc });
          continue;
        }
        const id = String(doc._id);
        const readings = this.column(SQL.readings, userId, id);
        const tracker = this.column("SELECT body FROM trackers WHERE user_id = ? AND batch_id = ?", userId, id);
        set.batches.push({
          doc,
          ...(readings !== undefined ? { readings: JSON.parse(readings) as Doc[] } : {}),
          ...(tracker !== undefined ? { brewTracker: JSON.parse(tracker) as Doc } : {}),
        });
      }
      return set;
    }).deferred();
  }

  async backup(path: string): Promise<void> {
    this.statement("VACUUM INTO ?").run(path);
  }

  async ping(): Promise<boolean> {
    try {
      return this.statement("SELECT 1 AS ok").get() !== null;
    } catch {
      return false;
    }
  }

  async isEmpty(): Promise<boolean> {
    return this.statement("SELECT 1 FROM users LIMIT 1").get() === null;
  }

  async close(): Promise<void> {
    // Finalized first, so closing releases the file (and checkpoints the WAL) at once.
    this.clearStatements();
    this.db.close();
  }
}
