import type { Awaitable } from "../lib/awaitable.ts";
import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import type { DeliveryOutcome, DueDelivery, OutboxEvent, OutboxHook, WebhookAttempt, WebhookChanges, WebhookInfo, WebhookRecord } from "./webhook-types.ts";

export * from "./webhook-types.ts";

/** One account's calls on one API version in one rate-limit window (src/http/rate-limit.ts counts them). */
export interface RateCount {
  userId: string;
  apiVersion: 1 | 2;
  count: number;
  /**
   * Calls this writer had stored ahead of use and gives back (a graceful stop): the stored count goes
   * down by it, never below `count`. Absent: the stored count only ever rises.
   */
  release?: number;
}

/** An account's key, and the window's count when the call was counted with it (countKeyedCall, src/http/rate-limit.ts). */
export interface KeyedCount {
  key: ApiKeyRecord | undefined;
  count: number | undefined;
}

/** Where rate counts are kept across restarts. */
export interface RateStorage {
  loadRateCounts(windowStart: number): Promise<RateCount[]>;
  saveRateCounts(windowStart: number, counts: RateCount[]): Promise<void>;
}

export interface UserRecord {
  userId: string;
  /** `Bun.password` hash, or null for an account that signs in with its API key only. */
  passwordHash: string | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  userId: string;
  digest: string;
  scopes: string[];
  apiVersion: 1 | 2;
  createdAt: number;
}

/** A list request after its parameters were checked (src/http/list-params.ts). */
export interface ListQuery {
  limit: number;
  /** v2 keyset paging: the `_id` of the last item of the previous page. */
  startAfter?: string;
  /** v1 paging: documents skipped. */
  offset?: number;
  /** "_id" or a dot path into the document. */
  orderBy: string;
  desc: boolean;
  status?: string;
  /** Any of these statuses (`status_in`, beyond the hosted API); with `status` too, both must hold. */
  statuses?: readonly string[];
  inventory?: "exists" | "negative";
  /** Which stored text to return: the precomputed default projection, or the whole document. */
  fields: "summary" | "body";
}

/**
 * Stored JSON as a store hands it out: its text, or, where the caller serves it as stored and the store
 * can, its UTF-8 bytes, never decoded into a string and encoded again.
 */
export type StoredJson = string | Uint8Array<ArrayBuffer>;

export interface ImportBatch {
  doc: Doc;
  readings?: Doc[];
  brewTracker?: Doc;
}

/** A device as export writes it: its record, and the readings it kept while attached to no batch. */
export interface ImportDevice extends DeviceRecord {
  readings?: Doc[];
}

export interface ImportSet {
  batches: ImportBatch[];
  docs: Array<{ kind: Exclude<Kind, "batch">; doc: Doc }>;
  /** Written after the batches: a device's own record wins over what an imported batch names. */
  devices?: ImportDevice[];
  /** The account's logging id, as its digest (the id itself is never stored). */
  /** `secretTag`: keySecretTag of the database it was exported from (exports made before it have none). */
  loggingId?: { digest: string; createdAt: number; secretTag?: string };
}

/** What a read-modify-write decides: the document to store (if any) and the value to return. */
export interface UpdateOutcome<T> {
  write?: Doc;
  result: T;
  /**
   * The top-level members of `write` that may differ from `current`'s; every other member must be
   * current's own value, untouched, so a store may skip checking its key order again. Absent: any may.
   */
  changed?: readonly string[];
}

/** What a store keeps of a document beside its text, from which a change can be made without parsing it. */
export interface StoredColumns {
  /** The stock of an inventory item when it is a finite number; null otherwise, and for batches and recipes. */
  inventory: number | null;
}

/** Top-level members to set: given, or computed from the stored columns inside the write. */
export type FieldsToSet = Doc | ((stored: StoredColumns) => Doc);

/** Readings between two times, inclusive, in ms of the readings' `time`; an absent end is open, and with neither it is the whole list. */
export interface TimeRange {
  since?: number;
  until?: number;
}

/** A Reading Object to append: its `time` (ms) places it, and a second reading at one time replaces the first. */
export type TimedReading = Doc & { time: number };

/** A device's identity in an account: its type (`iSpindel`, `tilt`, `stream`, …) and its name. */
export interface DeviceId {
  type: string;
  name: string;
}

export interface DeviceSettings {
  gravityOffset: number;
  tempOffset: number;
}

export interface DeviceRecord extends DeviceId {
  /** The batch its posts are appended to; null when attached to none. */
  batchId: string | null;
  /** When its last stored post arrived (ms); null before the first. */
  lastLog: number | null;
  /** Its last stored post's values, as a batch's device item holds them; null before the first. */
  lastData: Doc | null;
  settings: DeviceSettings;
  firstSeen: number;
}

/** What a device post sees inside its transaction: the device (undefined at its first post) and its batch's document. */
export interface DevicePostState {
  device: DeviceRecord | undefined;
  /** A copy of the attached batch's document, for `decide` to change and return; undefined when unattached. */
  batch: Doc | undefined;
}

/** What a device post writes: each part optional, all of it in the one transaction. */
export interface DevicePostOutcome<T> {
  /** The device's new state after this post; absent: the post is not stored (nothing is written). */
  device?: { lastLog: number; lastData: Doc };
  /** Appended to the attached batch's readings, or to the device's own when unattached. */
  reading?: TimedReading;
  /** The attached batch's new document (its `devices.<type>.items[…]` brought up to date). */
  batch?: Doc;
  result: T;
}

export interface LoggingIdRecord {
  userId: string;
  /** HMAC-SHA256 digest of the logging id, as API keys are kept (src/lib/keys.ts). */
  digest: string;
  createdAt: number;
}

/** A table as migrate-store copies it: its columns, its key (the copy's order), and which hold numbers. */
export interface TableSpec {
  name: string;
  columns: string[];
  key: string[];
  /** Columns holding numbers (PostgreSQL returns BIGINT as text). */
  numeric: string[];
}

/** One row of a table, its values in TableSpec.columns order. */
export type TableRow = unknown[];

/** Whole tables, raw, for copying a database between stores (src/store/move.ts). */
export interface TableAccess {
  /** Every row of each table in key order, read in one consistent snapshot; numeric columns as numbers. */
  read(tables: readonly TableSpec[]): Promise<Map<string, TableRow[]>>;
  count(tables: readonly TableSpec[]): Promise<Map<string, number>>;
  /**
   * Empties the tables and writes the rows, in one transaction: a failure leaves them as they were.
   * What a store derives from a document (summaries, sort keys) it computes itself.
   */
  replace(tables: readonly TableSpec[], data: Map<string, TableRow[]>): Promise<void>;
}


/**
 * Storage behind the routes. Every write is atomic. Documents go in as objects and come out as stored
 * canonical JSON text. The methods a request calls answer with a value or a promise of it: SQLite
 * answers at once, sparing a promise and a turn of the event loop per call; a networked store answers
 * later. The rest are async.
 */
export interface Store extends RateStorage {
  readonly kind: "sqlite" | "postgres";
  /** Raw table access for migrate-store and backup. */
  readonly tables: TableAccess;
  createUser(userId: string, passwordHash: string | null): Promise<boolean>;
  userExists(userId: string): Promise<boolean>;
  getUser(userId: string): Promise<UserRecord | undefined>;
  /** False when there is no such user. */
  setPassword(userId: string, passwordHash: string): Promise<boolean>;
  setApiKey(record: ApiKeyRecord): Promise<void>;
  getApiKey(userId: string): Awaitable<ApiKeyRecord | undefined>;
  /**
   * A value that changes whenever any API key may have changed, from this process or another; callers
   * may cache key checks while it stays the same. Undefined: the store offers no such signal, so
   * nothing may be cached.
   */
  keysEpoch?(): string;
  /** A value that stays with the database (the key-digest secret); created on first use. */
  secret(name: string, create: () => string): Promise<string>;

  /** One page of stored texts; asked for as "bytes", each row may come as its UTF-8 bytes instead. */
  list(userId: string, kind: Kind, query: ListQuery, as: "bytes"): Awaitable<StoredJson[] | "unknown-cursor">;
  list(userId: string, kind: Kind, query: ListQuery): Awaitable<string[] | "unknown-cursor">;
  /** One stored document; asked for as "bytes", it may come as its UTF-8 bytes instead. */
  get(userId: string, kind: Kind, id: string, as: "bytes"): Awaitable<StoredJson | undefined>;
  get(userId: string, kind: Kind, id: string): Awaitable<string | undefined>;
  insert(userId: string, kind: Kind, doc: Doc): Awaitable<void>;
  /**
   * Inserts the document `make` builds from the next number of a top-level field among the account's
   * documents of the kind (the greatest number it holds, plus one; 1 when none holds a number), in
   * one write transaction that serialises such inserts across processes: numbers are unique and
   * without gaps however many are made at once.
   */
  insertNumbered(userId: string, kind: Kind, field: string, make: (next: number) => Doc): Promise<Doc>;
  /**
   * Runs `decide` on the current document (undefined when absent) inside one write transaction. The
   * document is a copy of its own for `decide`, which may change it and return it as the write.
   */
  update<T>(userId: string, kind: Kind, id: string, decide: (current: Doc | undefined) => UpdateOutcome<T>): Awaitable<T>;
  /**
   * Sets top-level members of a document in one write transaction (what `update` with Object.assign
   * does, which a store may do without parsing the document); false when there is no such document.
   * A function of the stored columns runs inside the transaction; what it throws undoes the write.
   * With `stampedAt`, the write also sets the revision stamp of an update at that time (`stamp`).
   */
  setFields(userId: string, kind: Kind, id: string, fields: FieldsToSet, stampedAt?: number): Awaitable<boolean>;
  /** Deletes a document (and a batch's readings and tracker); false when there was none. */
  remove(userId: string, kind: Kind, id: string): Awaitable<boolean>;

  /**
   * A batch's readings as one JSON array, in time order (readings without a numeric `time` as at 0,
   * equal times in the order they came); with a range, only those whose `time` is a number within it.
   * Undefined when the batch has no readings list (never imported with one, never appended to). Asked
   * for as "bytes", it may come as its UTF-8 bytes instead.
   */
  readings(userId: string, batchId: string, as: "bytes", range?: TimeRange): Awaitable<StoredJson | undefined>;
  readings(userId: string, batchId: string, as?: undefined, range?: TimeRange): Awaitable<string | undefined>;
  /** The last reading of `readings` (the greatest time; of equal times the last that came). */
  lastReading(userId: string, batchId: string): Awaitable<string | undefined>;
  /**
   * Appends one reading to an existing batch in one transaction, replacing any reading at the same
   * `time` (docs/decisions.md); false when there is no such batch.
   */
  appendReading(userId: string, batchId: string, reading: TimedReading): Promise<boolean>;
  /** Deletes the reading(s) at exactly `time`; false when there was none. */
  deleteReading(userId: string, batchId: string, time: number): Promise<boolean>;
  brewTracker(userId: string, batchId: string): Awaitable<string | undefined>;

  /** Replaces the account's logging id digest (the old id stops at once); false when there is no such user. */
  setLoggingId(record: LoggingIdRecord): Promise<boolean>;
  getLoggingId(userId: string): Promise<LoggingIdRecord | undefined>;
  /** The account whose logging id has this digest, in one indexed read. */
  userByLoggingId(digest: string): Promise<string | undefined>;

  /** The account's devices, by type and name. */
  devices(userId: string): Promise<DeviceRecord[]>;
  device(userId: string, id: DeviceId): Promise<DeviceRecord | undefined>;
  /** Readings posted by a device while attached to no batch, as `readings` gives a batch's. */
  deviceReadings(userId: string, id: DeviceId, range?: TimeRange): Promise<string | undefined>;
  /**
   * One device post in one write transaction: reads the device (locked, so posts of one device are
   * serialised across processes) and its attached batch's document, calls `decide`, and writes what it
   * returns. A throw from `decide` writes nothing. A first post that `decide` stores creates the
   * device, unattached.
   */
  devicePost<T>(userId: string, id: DeviceId, decide: (state: DevicePostState) => DevicePostOutcome<T>): Promise<T>;
  /**
   * Attaches a device to a batch (null: detaches it), creating the device when new, in one write
   * transaction that may also rewrite batch documents through `editBatch` (their device items): the
   * batch it leaves (`attached` false) and the batch it joins (`attached` true). Readings it kept while
   * unattached stay with it. False when `batchId` names no batch.
   */
  attachDevice(userId: string, id: DeviceId, batchId: string | null, editBatch?: (batch: Doc, attached: boolean) => Doc): Promise<boolean>;
  /** False when there is no such device. */
  setDeviceSettings(userId: string, id: DeviceId, settings: DeviceSettings): Promise<boolean>;

  /**
   * The outbox: the hook makes the events of each write (documents created, updated, deleted; readings
   * appended) for the account's subscriptions, and the store writes them, one row per subscription that
   * wants the type, in the write's own transaction. Imports, device attachment and reading deletion make
   * none (docs/decisions.md, Webhooks). Without a hook no event is made.
   */
  setOutbox(hook: OutboxHook | undefined): void;
  addWebhook(record: WebhookRecord): Promise<void>;
  /** The account's subscriptions, oldest first, without their secrets. */
  webhooks(userId: string): Promise<WebhookInfo[]>;
  /** Deletes a subscription with its undelivered events and attempts; false when there was none. */
  removeWebhook(userId: string, id: string): Promise<boolean>;
  /**
   * Changes a subscription's receiver or events, counted from the account's next write; false when
   * the account has no such subscription. Its undelivered events stay.
   */
  updateWebhook(userId: string, id: string, changes: WebhookChanges): Promise<boolean>;
  /**
   * Gives a subscription a new signing secret (sealed); the one it had signs beside it until
   * `previousUntil`, replacing any earlier previous one. False when the account has no such subscription.
   */
  rotateWebhookSecret(userId: string, id: string, sealedSecret: string, previousUntil: number): Promise<boolean>;
  /** The last attempts (at most ATTEMPTS_KEPT per subscription), newest first. */
  webhookAttempts(userId: string, webhookId: string): Promise<WebhookAttempt[]>;
  /**
   * Records one event for one of the account's subscriptions, whatever types it wants (a test event
   * its owner sends), to be delivered as any other; its resource is its own, so it keeps no order with
   * other events. Its message id (the `webhook-id`), or undefined when the account has no such subscription.
   */
  recordWebhookEvent(userId: string, webhookId: string, event: OutboxEvent): Promise<string | undefined>;
  /**
   * Claims up to `limit` deliveries due at `now`, an event only with every earlier one of its
   * subscription and resource (SQLite: a run of them, to attempt one after another; PostgreSQL: the
   * earliest only), lets `deliver` attempt them, and records what it reports: a claimed event it
   * reports nothing for stays as it was.
   * On PostgreSQL the claimed rows stay locked until then (another instance skips them; a dead
   * instance's locks go with its connection); SQLite has one process. Nothing of the subscriptions in
   * `skip` (webhook ids) is claimed: the worker leaves alone those with an attempt still under way in
   * another round. Answers how many were claimed.
   */
  deliverDue(now: number, limit: number, deliver: (due: DueDelivery[]) => Promise<DeliveryOutcome[]>, skip?: ReadonlySet<string>): Promise<number>;
  /** How many `deliverDue` calls may be under way at once, each holding its claim for as long as its slowest receiver takes (outbox.ts, deliveryRoundsFor). */
  readonly deliveryRoundsAtOnce: number;
  /**
   * Since when the outbox has had something to deliver: the earliest time an undelivered event was
   * recorded (never tried) or is to be tried again; undefined when nothing waits. A read only: a busy
   * worker asks it instead of making a round (src/webhooks/worker.ts).
   */
  deliveriesWaitingSince(): Promise<number | undefined>;

  /**
   * Writes a whole import in one transaction; existing documents with the same `_id` are replaced.
   * Devices named in an imported batch's `devices.<type>.items` are attached to it (devices.ts).
   */
  importAll(userId: string, set: ImportSet): Promise<void>;
  /** Every document of an account, in the form importAll takes; each kind ordered by `_id`. */
  exportAll(userId: string): Promise<ImportSet>;
  /** An online, consistent copy of the whole database to a new file. */
  backup(path: string): Promise<void>;
  isEmpty(): Promise<boolean>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
