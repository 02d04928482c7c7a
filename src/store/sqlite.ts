import type { Database } from "bun:sqlite";
import { canonicalJson, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { assignFields, encodeRecord, pick, setFields, SORTED_FIELDS, type EncodedRecord } from "./records.ts";
import { stampMembers } from "../lib/stamps.ts";
import { buildListSql, unindexedPath, type ListSql } from "./sqlite-list.ts";
import { SqliteOrderKeys } from "./sqlite-order-keys.ts";
import { openDatabase, type SqliteOptions } from "./sqlite-open.ts";
import { derivedValues, DERIVED, INVENTORY_AT, ORDERED_AT, POSITIONS_AT, SQL, storedRecord } from "./sqlite-records.ts";
import { SqliteAccounts } from "./sqlite-accounts.ts";
import { sqliteTables } from "./sqlite-tables.ts";
import { SqliteDevices } from "./sqlite-devices.ts";
import { SqliteWebhooks } from "./sqlite-webhooks.ts";
import { GroupCommit } from "./sqlite-group.ts";
import { BATCH_SERIES, SqliteReadings } from "./sqlite-readings.ts";
import { DELIVERY_ROUNDS } from "./outbox.ts";
import type {
  DeliveryOutcome, DeviceId, DevicePostOutcome, DevicePostState, DeviceRecord, DeviceSettings, DueDelivery, FieldsToSet, ImportSet, ListQuery,
  OutboxEvent, OutboxHook, Store, StoredJson, TimedReading, TimeRange, UpdateOutcome, WebhookAttempt, WebhookChanges, WebhookInfo, WebhookRecord,
} from "./types.ts";

export { KEYS_EPOCH_MAX_AGE_MS } from "./sqlite-accounts.ts";

/** Answers a row when a batch has a readings list. */
const LIST_EXISTS = "SELECT 1 FROM reading_lists WHERE user_id = ? AND batch_id = ?";

/** The SQLite store: documents, readings and devices over the accounts of SqliteAccounts. */
export class SqliteStore extends SqliteAccounts implements Store {
  readonly kind = "sqlite" as const;
  readonly tables;
  // Transaction functions are built once: building one per call costs more than a small write.
  private readonly tx;

  private readonly series: SqliteReadings;
  private readonly deviceRows: SqliteDevices;
  private readonly hooks: SqliteWebhooks;
  /** Writes that arrive in one turn share a transaction and its COMMIT (sqlite-group.ts). */
  private readonly group: GroupCommit;
  /** Orders by fields without a column of their own, made on first use. */
  readonly orderKeys: SqliteOrderKeys;

  constructor(db: Database) {
    super(db);
    this.series = new SqliteReadings(this.statements);
    this.hooks = new SqliteWebhooks(db, this.statements, () => this.keysEpoch());
    this.orderKeys = new SqliteOrderKeys(db, this.statements);
    this.group = new GroupCommit(db, this.hooks);
    this.deviceRows = new SqliteDevices(db, this.statements, this.series, this.group, {
      read: (userId, batchId) => {
        const body = this.column(SQL.get, userId, "batch", batchId);
        return body === undefined ? undefined : (JSON.parse(body) as Doc);
      },
      write: (userId, doc) => this.write(userId, "batch", doc),
      emit: (userId, change) => this.hooks.emit(userId, change),
    });
    this.tables = sqliteTables(db, (userId, kind, doc) => this.write(userId, kind, doc));
    this.tx = {
      pageAfterCursor: db.transaction(this.pageAfterCursorTx.bind(this)),
    };
  }

  static open(path: string, options?: SqliteOptions): SqliteStore {
    return new SqliteStore(openDatabase(path, options));
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
    const path = unindexedPath(kind, query);
    const page = buildListSql(userId, kind, query, as === "bytes", path !== undefined && this.orderKeys.ready(userId, kind, path));
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

  /** Writes a record as it comes; answers its stored text. */
  private write(userId: string, kind: Kind, doc: Doc): string {
    const rec = encodeRecord(kind, doc);
    this.statements.get(SQL.write).run(userId, kind, rec.id, ...derivedValues(rec), rec.body);
    return rec.body;
  }

  private insertTx(userId: string, kind: Kind, doc: Doc): void {
    const after = this.write(userId, kind, doc);
    this.hooks.emit(userId, { kind, id: String(doc._id), before: undefined, after });
  }

  insert(userId: string, kind: Kind, doc: Doc): Promise<void> {
    return this.group.run(() => this.insertTx(userId, kind, doc));
  }

  async insertNumbered(userId: string, kind: Kind, field: string, make: (next: number) => Doc): Promise<Doc> {
    const path = jsonPathOf(field);
    return this.group.run(() => {
      const greatest = this.statements.get(`SELECT MAX(json_extract(body, '${path}')) FROM records WHERE user_id = ? AND kind = ? AND json_type(body, '${path}') IN ('integer', 'real')`);
      const max = (greatest.values(userId, kind) as unknown[][])[0]?.[0];
      const doc = make(typeof max === "number" ? Math.floor(max) + 1 : 1);
      this.insertTx(userId, kind, doc);
      return doc;
    });
  }

  private updateTx(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<unknown>): unknown {
    const rows = this.statements.get(SQL.current).values(userId, kind, id) as unknown[][];
    const row = rows[0];
    const outcome = decide(row ? (JSON.parse(row[1] as string) as Doc) : undefined);
    if (!outcome.write) return outcome.result;
    const doc = outcome.write._id === id ? outcome.write : { ...outcome.write, _id: id };
    if (!row) {
      this.insertTx(userId, kind, doc);
      return outcome.result;
    }
    // What the decision left as parsed from a body that parses in order needs no second walk.
    const rec = encodeRecord(kind, doc, row[ORDERED_AT] === 1 ? outcome.changed : undefined);
    // A document left as it was is not written again, and makes no event.
    if (rec.body === row[1]) return outcome.result;
    this.rewrite(row, rec);
    this.hooks.emit(userId, () => ({ kind, id, before: row[1] as string, after: rec.body, set: outcome.changed && pick(doc, outcome.changed), summary: rec.summary }));
    return outcome.result;
  }

  /**
   * Writes a changed record over its current row (SQL.current). Only the columns whose values changed
   * are written: SQLite rewrites the entries of every index on a column named in SET, changed or not
   * (docs/performance.md, "Storage").
   */
  private rewrite(row: unknown[], rec: EncodedRecord, positions?: string[]): void {
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
    const stored = storedRecord(id, row, keys);
    const rec = setFields(kind, stored, set, stampedAt === undefined ? undefined : stampMembers(stampedAt, false));
    if (!rec) {
      this.updateTx(userId, kind, id, assignFields(kind, set, stampedAt));
      return true;
    }
    // Nothing changed (the values were those stored): nothing to write, no event.
    if (rec === stored) return true;
    this.rewrite(row, rec, keys ? undefined : (row.slice(POSITIONS_AT, POSITIONS_AT + SORTED_FIELDS.length) as string[]));
    this.hooks.emit(userId, () => ({ kind, id, before: row[1] as string, after: rec.body, set, summary: rec.summary }));
    return true;
  }

  private removeTx(userId: string, kind: Kind, id: string): boolean {
    const gone = this.statements.get("DELETE FROM records WHERE user_id = ? AND kind = ? AND id = ? RETURNING body").values(userId, kind, id) as Array<[string]>;
    if (kind === "batch") this.removeBatchChildren(userId, id);
    if (gone.length) this.hooks.emit(userId, { kind, id, before: gone[0][0], after: undefined });
    return gone.length > 0;
  }

  update<T>(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<T>): Promise<T> {
    return this.group.run(() => this.updateTx(userId, kind, id, decide) as T);
  }

  setFields(userId: string, kind: Kind, id: string, fields: FieldsToSet, stampedAt?: number): Promise<boolean> {
    return this.group.run(() => this.setFieldsTx(userId, kind, id, fields, stampedAt));
  }

  remove(userId: string, kind: Kind, id: string): Promise<boolean> {
    return this.group.run(() => this.removeTx(userId, kind, id));
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
    return this.group.run(() => {
      if (this.column(SQL.get, userId, "batch", batchId) === undefined) return false;
      this.series.append(BATCH_SERIES, [userId, batchId], reading);
      this.statements.get("INSERT OR IGNORE INTO reading_lists (user_id, batch_id) VALUES (?, ?)").run(userId, batchId);
      this.hooks.emit(userId, { kind: "reading", batchId, reading });
      return true;
    });
  }

  async deleteReading(userId: string, batchId: string, time: number): Promise<boolean> {
    return this.group.run(() => this.series.remove(BATCH_SERIES, [userId, batchId], time) > 0);
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

  setOutbox(hook: OutboxHook | undefined): void {
    this.hooks.hook = hook;
  }

  async addWebhook(record: WebhookRecord): Promise<void> {
    this.hooks.add(record);
  }

  async webhooks(userId: string): Promise<WebhookInfo[]> {
    return this.hooks.list(userId);
  }

  async removeWebhook(userId: string, id: string): Promise<boolean> {
    return this.hooks.remove(userId, id);
  }

  async updateWebhook(userId: string, id: string, changes: WebhookChanges): Promise<boolean> {
    return this.hooks.update(userId, id, changes);
  }

  async rotateWebhookSecret(userId: string, id: string, sealedSecret: string, previousUntil: number): Promise<boolean> {
    return this.hooks.rotate(userId, id, sealedSecret, previousUntil);
  }

  async webhookAttempts(userId: string, webhookId: string): Promise<WebhookAttempt[]> {
    return this.hooks.attempts(userId, webhookId);
  }

  async recordWebhookEvent(userId: string, webhookId: string, event: OutboxEvent): Promise<string | undefined> {
    return this.hooks.recordFor(userId, webhookId, event);
  }

  deliverDue(now: number, limit: number, deliver: (due: DueDelivery[]) => Promise<DeliveryOutcome[]>, skip?: ReadonlySet<string>): Promise<number> {
    return this.hooks.deliverDue(now, limit, deliver, skip);
  }

  async deliveriesWaitingSince(): Promise<number | undefined> {
    return this.hooks.waitingSince();
  }

  /** Rounds hold no connection here: the runs they claimed (sqlite-webhooks.ts). */
  readonly deliveryRoundsAtOnce = DELIVERY_ROUNDS;

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
      if (set.loggingId) this.importLoggingId({ userId, digest: set.loggingId.digest, createdAt: set.loggingId.createdAt });
    }).immediate();
  }

  override async close(): Promise<void> {
    this.orderKeys.stop();
    await this.group.drain();
    await super.close();
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
      const loggingId = this.loggingIdOf(userId);
      if (loggingId) set.loggingId = { digest: loggingId.digest, createdAt: loggingId.createdAt };
      return set;
    }).deferred();
  }
}

/** The JSON path of a top-level field, for SQL text: only a plain name is ever one (never request text). */
function jsonPathOf(field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`not a field name: ${field}`);
  return `$.${field}`;
}
