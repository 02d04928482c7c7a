import type { SQL } from "bun";
import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { buildPgListSql } from "./postgres-list.ts";
import { findable, PostgresAccounts } from "./postgres-accounts.ts";
import { exportSet, importSet, removeBatchChildren } from "./postgres-import.ts";
import { postgresTables } from "./postgres-tables.ts";
import { copyRecords, encodedRow } from "./postgres-rows.ts";
import * as devices from "./postgres-devices.ts";
import { PostgresWebhooks, SUBSCRIPTIONS_COLUMN, subscriptionsOf } from "./postgres-webhooks.ts";
import { appendReading, BATCH_SERIES, DEVICE_SERIES, lastReading, listReadings, removeReadings } from "./postgres-readings.ts";
import { assignFields, pick } from "./records.ts";
import { deliveryRoundsFor } from "./outbox.ts";
import type {
  DeliveryOutcome, DeviceId, DevicePostOutcome, DevicePostState, DeviceRecord, DeviceSettings, DueDelivery, FieldsToSet, ImportSet, ListQuery,
  OutboxEvent, OutboxHook, Store, StoredJson, TimedReading, TimeRange, UpdateOutcome, WebhookAttempt, WebhookChanges, WebhookInfo, WebhookRecord,
} from "./types.ts";

/**
 * The store on PostgreSQL through Bun's built-in client. Several server processes may share one
 * database: every write is one transaction, read-modify-write holds a row lock, counts are atomic.
 */
export class PostgresStore extends PostgresAccounts implements Store {
  readonly kind = "postgres" as const;
  readonly tables = postgresTables(() => this.db());
  private readonly hooks = new PostgresWebhooks(() => this.db());

  static open(url: string): PostgresStore {
    return new PostgresStore(url);
  }

  list(userId: string, kind: Kind, query: ListQuery, as: "bytes"): Promise<StoredJson[] | "unknown-cursor">;
  list(userId: string, kind: Kind, query: ListQuery): Promise<string[] | "unknown-cursor">;
  async list(userId: string, kind: Kind, query: ListQuery, as?: "bytes"): Promise<StoredJson[] | "unknown-cursor"> {
    const sql = await this.db();
    let page = buildPgListSql(userId, kind, query);
    if (page.cursorSql) {
      if (!findable(query.startAfter!)) return "unknown-cursor";
      const rows = await sql.unsafe(page.cursorSql, page.cursorParams!).values();
      if (!rows.length) return "unknown-cursor";
      page = buildPgListSql(userId, kind, query, rows[0] as unknown[]);
    }
    const rows = sql.unsafe(page.sql, page.params as never[]);
    return ((await (as === "bytes" ? rows.raw() : rows.values())) as Array<[StoredJson]>).map((r) => r[0]);
  }

  /** Asked for as bytes, the text comes as PostgreSQL sent it, UTF-8, never made a string and encoded again. */
  get(userId: string, kind: Kind, id: string, as: "bytes"): Promise<StoredJson | undefined>;
  get(userId: string, kind: Kind, id: string): Promise<string | undefined>;
  async get(userId: string, kind: Kind, id: string, as?: "bytes"): Promise<StoredJson | undefined> {
    const sql = await this.db();
    if (!findable(id)) return undefined;
    const query = sql`SELECT body FROM records WHERE user_id = ${userId} AND kind = ${kind} AND id = ${id}`;
    if (as === "bytes") return ((await query.raw()) as Array<[StoredJson]>)[0]?.[0];
    const [row] = await query;
    return row?.body;
  }

  async insert(userId: string, kind: Kind, doc: Doc): Promise<void> {
    const sql = await this.db();
    await sql.begin((tx) => this.insertTx(tx, userId, kind, doc));
  }

  private async insertTx(tx: SQL, userId: string, kind: Kind, doc: Doc): Promise<void> {
    const row = encodedRow(userId, kind, doc);
    await copyRecords(tx, [row]);
    await this.hooks.emit(tx, userId, { kind, id: row.id, before: undefined, after: row.body });
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
      await this.insertTx(tx, userId, kind, doc);
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
      // The account's subscriptions come in the same statement: the outbox costs no round trip here.
      const [row] = await tx.unsafe(`SELECT body, ${SUBSCRIPTIONS_COLUMN("$1")} FROM records WHERE user_id = $1 AND kind = $2 AND id = $3 FOR UPDATE`, [userId, kind, id]);
      const outcome = decide(row ? (JSON.parse(row.body) as Doc) : undefined);
      if (!outcome.write) return outcome.result;
      if (!row) {
        await this.insertTx(tx, userId, kind, { ...outcome.write, _id: id });
        return outcome.result;
      }
      const written = encodedRow(userId, kind, { ...outcome.write, _id: id });
      await copyRecords(tx, [written]);
      const change = { kind, id, before: row.body as string, after: written.body, set: outcome.changed && pick(outcome.write, outcome.changed), summary: written.summary };
      if (written.body !== row.body) await this.hooks.emit(tx, userId, change, subscriptionsOf(row.subscriptions));
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
      const gone = await tx`DELETE FROM records WHERE user_id = ${userId} AND kind = ${kind} AND id = ${id} RETURNING body`;
      if (kind === "batch") await removeBatchChildren(tx, userId, [id]);
      if (gone.length) await this.hooks.emit(tx, userId, { kind, id, before: gone[0].body as string, after: undefined });
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
      await this.hooks.emit(tx, userId, { kind: "reading", batchId, reading });
      return true;
    });
  }

  async deleteReading(userId: string, batchId: string, time: number): Promise<boolean> {
    const sql = await this.db();
    if (!findable(batchId)) return false;
    return sql.begin(async (tx) => (await removeReadings(tx, BATCH_SERIES, [userId, batchId], time)) > 0);
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
    return sql.begin((tx) => devices.devicePost(tx, userId, id, decide, (change) => this.hooks.emit(tx, userId, change)));
  }

  async attachDevice(userId: string, id: DeviceId, batchId: string | null, editBatch?: (batch: Doc, attached: boolean) => Doc): Promise<boolean> {
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

  setOutbox(hook: OutboxHook | undefined): void {
    this.hooks.hook = hook;
  }

  async addWebhook(record: WebhookRecord): Promise<void> {
    await this.hooks.add(record);
  }

  async webhooks(userId: string): Promise<WebhookInfo[]> {
    return findable(userId) ? this.hooks.list(userId) : [];
  }

  async removeWebhook(userId: string, id: string): Promise<boolean> {
    return findable(userId, id) && this.hooks.remove(userId, id);
  }

  async updateWebhook(userId: string, id: string, changes: WebhookChanges): Promise<boolean> {
    return findable(userId, id) && this.hooks.update(userId, id, changes);
  }

  async rotateWebhookSecret(userId: string, id: string, sealedSecret: string, previousUntil: number): Promise<boolean> {
    return findable(userId, id) && this.hooks.rotate(userId, id, sealedSecret, previousUntil);
  }

  async webhookAttempts(userId: string, webhookId: string): Promise<WebhookAttempt[]> {
    return findable(userId, webhookId) ? this.hooks.attempts(userId, webhookId) : [];
  }

  async recordWebhookEvent(userId: string, webhookId: string, event: OutboxEvent): Promise<string | undefined> {
    return findable(userId, webhookId) ? this.hooks.recordFor(userId, webhookId, event) : undefined;
  }

  deliverDue(now: number, limit: number, deliver: (due: DueDelivery[]) => Promise<DeliveryOutcome[]>, skip?: ReadonlySet<string>): Promise<number> {
    return this.hooks.deliverDue(now, limit, deliver, skip);
  }

  deliveriesWaitingSince(): Promise<number | undefined> {
    return this.hooks.waitingSince();
  }

  get deliveryRoundsAtOnce(): number {
    return deliveryRoundsFor(this.poolSize);
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

}

export { DEFAULT_POOL_SIZE, poolOptions } from "./postgres-accounts.ts";
