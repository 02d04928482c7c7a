import type { Database } from "bun:sqlite";
import { attemptOf, dueDelivery, dueInOrder, messageOf, newEventId, outboxEvents, payloadText, runKey, settlements, webhookInfoOf, type AddressedEvent, type AttemptRow, type DueRow, type QueuedRow, type Subscription, type WebhookRow } from "./outbox.ts";
import type { GroupStage } from "./sqlite-group.ts";
import type { StatementCache } from "./sqlite-statements.ts";
import { EpochCache } from "../lib/epoch-cache.ts";
import { ATTEMPTS_KEPT, type DeliveryOutcome, type DueDelivery, type OutboxEvent, type OutboxHook, type StoreChange, type WebhookAttempt, type WebhookChanges, type WebhookInfo, type WebhookRecord } from "./types.ts";

// Webhook subscriptions and their outbox in the SQLite store. A write hands its change to `emit`, which
// makes its events at once; the events of a group of writes (sqlite-group.ts) are recorded in its
// transaction as one row of webhook_events, written before the group's COMMIT. Before each round of
// deliveries, the worker (src/webhooks/worker.ts, one process) moves them to webhook_deliveries, one
// row per event and subscription, in their order (unpack): a write pays for one row per group, not a
// row and an index entry per event (docs/performance.md, "Webhooks").


/** A recorded event's members as `move` reads them: the data and the document as their JSON text. */
interface RecordedEvent {
  ids: string;
  type: string;
  resource: string;
  at: number;
  account: string;
  data: string;
  document: string;
}

/** The SQLite outbox. It is also the group commit's stage (GroupStage): events wait there for the group's end. */
export class SqliteWebhooks implements GroupStage {
  hook: OutboxHook | undefined;
  grouping = false;
  /** The events of the group's writes so far, each with the subscriptions that want it. */
  private staged: AddressedEvent[] = [];
  /**
   * Each account's subscriptions as `emit` needs them, read once: every write asks, and nearly all
   * accounts have none. Forgotten when this store adds or removes one, and when another connection
   * has written to the file (the store's epoch, `epoch`), so one added by another process on the same
   * file counts from its next write on, as for keys.
   */
  private readonly subscriptions: EpochCache<Subscription[]>;
  private readonly settleTx;
  private readonly unpackTx;
  /** The runs (runKey) that rounds under way claimed: no other round takes any of their events until they are settled. */
  private readonly held = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly statements: StatementCache,
    epoch: () => string | undefined,
  ) {
    this.subscriptions = new EpochCache(epoch);
    this.settleTx = db.transaction(this.settle.bind(this));
    this.unpackTx = db.transaction((through: number) => {
      const rows = this.statements.get("SELECT events FROM webhook_events WHERE seq <= ? ORDER BY seq").values(through) as Array<[Uint8Array]>;
      for (const [events] of rows) this.move(Bun.zstdDecompressSync(events).toString());
      this.statements.get("DELETE FROM webhook_events WHERE seq <= ?").run(through);
    });
  }

  /**
   * One recorded row's events made delivery rows, in their order, each with its id and payload made
   * now (messages of events, outbox.ts), one row per subscription that wanted it and still exists.
   */
  private move(text: string): void {
    const insert = this.statements.get(`INSERT INTO webhook_deliveries (webhook_id, event_id, type, resource, payload, created_at, attempts, next_at)
      SELECT id, ?, ?, ?, ?, ?, 0, ? FROM webhooks WHERE id = ?`);
    // Each member as its text: the data and the document are spliced into the payload as recorded.
    const events = this.statements
      .get(`SELECT e.value -> 0 AS ids, e.value ->> 1 AS type, e.value ->> 2 AS resource, e.value ->> 3 AS at, e.value ->> 4 AS account,
          e.value -> 5 AS data, e.value -> 6 AS document FROM json_each(?) e ORDER BY e.key`)
      .all(text) as RecordedEvent[];
    for (const e of events) {
      const id = newEventId();
      const payload = payloadText(e.type, e.at, e.account, e.data, e.document === "null" ? undefined : e.document);
      for (const webhookId of JSON.parse(e.ids) as string[]) insert.run(id, e.type, e.resource, payload, e.at, e.at, webhookId);
    }
  }

  private subscriptionsOf(userId: string): Subscription[] {
    let subs = this.subscriptions.get(userId);
    if (subs === undefined) {
      const epoch = this.subscriptions.epoch;
      subs = this.statements.get("SELECT id, events FROM webhooks WHERE user_id = ?").all(userId) as Subscription[];
      this.subscriptions.set(userId, subs, epoch);
    }
    return subs;
  }

  /**
   * In the caller's write: the change's events, made now and staged for the group's end (write), or
   * recorded at once in the caller's transaction outside a group. Made now rather than at the group's
   * end: a change holds the document's text before and after, tens of kilobytes for a batch, and
   * holding every write's change until the group committed cost the subscribed server more than
   * making the events (docs/performance.md, "Webhooks").
   */
  emit(userId: string, change: StoreChange | (() => StoreChange)): void {
    if (!this.hook) return;
    const subs = this.subscriptionsOf(userId);
    if (subs.length === 0) return;
    for (const e of outboxEvents(this.hook, userId, typeof change === "function" ? change() : change, subs)) this.staged.push(e);
    if (!this.grouping) this.write();
  }

  mark(): number {
    return this.staged.length;
  }

  dropAfter(mark: number): void {
    this.staged.length = mark;
  }

  /**
   * The staged events recorded as one row, in the current transaction, each event once with the
   * subscriptions that want it: [[webhook ids], type, resource, created at, account, data, document
   * (its text as stored, or null)], the whole compressed. A hook that throws fails its write (emit),
   * so no write commits without its events.
   */
  write(): void {
    if (this.staged.length === 0) return;
    const staged = this.staged;
    this.staged = [];
    let events = "";
    let count = 0;
    const counts: Record<string, number> = {};
    // A group's events are mostly of one type and one account: the texts of those are made once.
    let type: string | undefined;
    let typeText = "";
    let account: string | undefined;
    let accountText = "";
    for (const { event: e, to } of staged) {
      for (const id of to.ids) counts[id] = (counts[id] ?? 0) + 1;
      count += to.ids.length;
      if (e.type !== type) typeText = JSON.stringify((type = e.type));
      if (e.account !== account) accountText = JSON.stringify((account = e.account));
      // The document is JSON text: it goes in as it is, not as a string to escape, and comes out whole.
      events += `${events === "" ? "[" : ","}[${to.text},${typeText},${JSON.stringify(e.resource)},${e.createdAt},${accountText},${JSON.stringify(e.data)},${e.document ?? "null"}]`;
    }
    // Compressed: the text repeats itself from event to event (a group's 6 KB become about 1.3 KB,
    // within the table's page), where kept whole it took overflow pages, written to the WAL and again
    // by the checkpoint with every group of writes (docs/performance.md, "Webhooks").
    this.statements
      .get("INSERT INTO webhook_events (count, counts, at, events) VALUES (?, ?, ?, ?)")
      .run(count, JSON.stringify(counts), staged[0]!.event.createdAt, Bun.zstdCompressSync(`${events}]`, { level: 1 }));
  }

  /**
   * The oldest recorded events, whole rows of them holding at least `wanted` (all if fewer), moved to
   * their delivery rows in the order they were recorded, in one transaction; an event whose
   * subscription is gone since is dropped. Every event moved is later than every one moved before, so
   * the outbox's order stays the order events happened in. Answers whether any were moved.
   */
  private unpack(wanted: number): boolean {
    let through: number | undefined;
    let events = 0;
    for (const row of this.statements.get("SELECT seq, count FROM webhook_events ORDER BY seq").iterate() as Iterable<{ seq: number; count: number }>) {
      through = row.seq;
      events += row.count;
      if (events >= wanted) break;
    }
    if (through === undefined) return false;
    this.unpackTx.immediate(through);
    return true;
  }

  add(r: WebhookRecord): void {
    this.statements
      .get("INSERT INTO webhooks (id, user_id, url, events, secret, created_at, failing_since) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(r.id, r.userId, r.url, r.events.join(","), r.sealedSecret, r.createdAt, r.failingSince);
    this.subscriptions.clear();
  }

  list(userId: string): WebhookInfo[] {
    const rows = this.statements
      .get(`SELECT w.id, w.user_id, w.url, w.events, w.created_at, w.failing_since,
          (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id)
            + (SELECT coalesce(sum(json_extract(r.counts, '$."' || w.id || '"')), 0) FROM webhook_events r) AS pending
        FROM webhooks w WHERE w.user_id = ? ORDER BY w.created_at, w.id`)
      .all(userId) as WebhookRow[];
    return rows.map(webhookInfoOf);
  }

  update(userId: string, id: string, changes: WebhookChanges): boolean {
    const { changes: n } = this.statements
      .get("UPDATE webhooks SET url = coalesce(?, url), events = coalesce(?, events) WHERE user_id = ? AND id = ?")
      .run(changes.url ?? null, changes.events?.join(",") ?? null, userId, id);
    this.subscriptions.clear();
    return n === 1;
  }

  rotate(userId: string, id: string, sealedSecret: string, previousUntil: number): boolean {
    return (
      this.statements
        .get("UPDATE webhooks SET previous_secret = secret, previous_until = ?, secret = ? WHERE user_id = ? AND id = ?")
        .run(previousUntil, sealedSecret, userId, id).changes === 1
    );
  }

  private owns(userId: string, id: string): boolean {
    return this.statements.get("SELECT 1 FROM webhooks WHERE user_id = ? AND id = ?").get(userId, id) !== null;
  }

  remove(userId: string, id: string): boolean {
    return this.db.transaction(() => {
      if (!this.owns(userId, id)) return false;
      this.statements.get("DELETE FROM webhook_deliveries WHERE webhook_id = ?").run(id);
      this.statements.get("DELETE FROM webhook_attempts WHERE webhook_id = ?").run(id);
      this.statements.get("DELETE FROM webhooks WHERE id = ?").run(id);
      this.subscriptions.clear();
      return true;
    }).immediate();
  }

  /** One event for one subscription, a delivery row at once (Store.recordWebhookEvent): its resource is its own, so no recorded row need come first. */
  recordFor(userId: string, webhookId: string, event: OutboxEvent): string | undefined {
    return this.db.transaction(() => {
      if (!this.owns(userId, webhookId)) return undefined;
      const m = messageOf(event);
      this.statements
        .get("INSERT INTO webhook_deliveries (webhook_id, event_id, type, resource, payload, created_at, attempts, next_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)")
        .run(webhookId, m.id, event.type, event.resource, m.payload, event.createdAt, event.createdAt);
      return m.id;
    }).immediate();
  }

  attempts(userId: string, webhookId: string): WebhookAttempt[] {
    const rows = this.statements
      .get(`SELECT a.webhook_id, a.event_id, a.type, a.at, a.status, a.duration_ms, a.detail FROM webhook_attempts a
        JOIN webhooks w ON w.id = a.webhook_id WHERE w.user_id = ? AND a.webhook_id = ? ORDER BY a.id DESC LIMIT ${ATTEMPTS_KEPT}`)
      .all(userId, webhookId) as AttemptRow[];
    return rows.map(attemptOf);
  }

  /**
   * The earliest time a delivery row is or was due (recorded, or to be tried again), and the time of
   * the oldest event not yet moved to one; reads only. A row waiting behind an earlier event of its
   * resource counts from when it was recorded.
   */
  waitingSince(): number | undefined {
    const row = this.statements
      .get(`SELECT min(at) AS at FROM (SELECT min(next_at) AS at FROM webhook_deliveries
          UNION ALL SELECT (SELECT at FROM webhook_events ORDER BY seq LIMIT 1))`)
      .get() as { at: number | null };
    return row.at ?? undefined;
  }

  /** The delivery rows due, found by reading them in order (dueInOrder), leaving out the runs other rounds hold and the subscriptions skipped. */
  private dueSeqs(now: number, limit: number, skip: ReadonlySet<string>): number[] {
    return dueInOrder(this.statements.get("SELECT seq, webhook_id, resource, next_at FROM webhook_deliveries ORDER BY seq").iterate() as Iterable<QueuedRow>, now, limit, this.held, skip);
  }

  /**
   * One process delivers (SQLite's single writer): the due delivery rows are found, and when fewer
   * than `limit`, recorded events are moved to delivery rows for the shortfall first (unpack), so a
   * round moves about as many events as it delivers; they are read whole, delivered outside any
   * transaction, then settled. Rounds may overlap (a slow receiver's goes on while the next begins):
   * the runs a round claimed are held until it has settled them, as PostgreSQL's row locks are.
   */
  async deliverDue(now: number, limit: number, deliver: (due: DueDelivery[]) => Promise<DeliveryOutcome[]>, skip: ReadonlySet<string> = new Set()): Promise<number> {
    let seqs = this.dueSeqs(now, limit, skip);
    if (seqs.length < limit && this.unpack(limit - seqs.length)) seqs = this.dueSeqs(now, limit, skip);
    if (seqs.length === 0) return 0;
    const due = (
      this.statements
        .get(`SELECT d.seq, d.webhook_id, w.url, w.secret, w.previous_secret, w.previous_until, d.event_id, d.type, d.resource, d.payload, d.attempts, d.created_at
          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.seq IN (SELECT value FROM json_each(?)) ORDER BY d.seq`)
        .all(JSON.stringify(seqs)) as DueRow[]
    ).map(dueDelivery);
    const runs = new Set(due.map((d) => runKey(d.webhookId, d.resource)));
    for (const run of runs) this.held.add(run);
    try {
      const outcomes = await deliver(due);
      this.settleTx.immediate(outcomes);
    } finally {
      for (const run of runs) this.held.delete(run);
    }
    return due.length;
  }

  /** A round's outcomes: each row retried or gone, then per subscription its attempts and state (settlements). */
  private settle(outcomes: DeliveryOutcome[]): void {
    const done = outcomes.filter((o) => o.result !== "retry").map((o) => o.seq);
    if (done.length) this.statements.get("DELETE FROM webhook_deliveries WHERE seq IN (SELECT value FROM json_each(?))").run(JSON.stringify(done));
    for (const { seq, result, retryAt } of outcomes) {
      if (result === "retry") this.statements.get("UPDATE webhook_deliveries SET attempts = attempts + 1, next_at = ? WHERE seq = ?").run(retryAt!, seq);
    }
    const insert = this.statements.get(`INSERT INTO webhook_attempts (webhook_id, event_id, type, at, status, duration_ms, detail)
      SELECT id, ?, ?, ?, ?, ?, ? FROM webhooks WHERE id = ?`);
    for (const { webhookId, attempts, failing } of settlements(outcomes)) {
      // A subscription deleted meanwhile keeps no attempt.
      let kept = 0;
      for (const a of attempts) kept += insert.run(a.eventId, a.type, a.at, a.status, a.durationMs, a.detail, webhookId).changes;
      if (kept === 0) continue;
      this.statements
        .get(`DELETE FROM webhook_attempts WHERE webhook_id = ? AND id <= (
          SELECT id FROM webhook_attempts WHERE webhook_id = ? ORDER BY id DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT})`)
        .run(webhookId, webhookId);
      if (failing === null) this.statements.get("UPDATE webhooks SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL").run(webhookId);
      else if (failing?.keepEarlier) this.statements.get("UPDATE webhooks SET failing_since = COALESCE(failing_since, ?) WHERE id = ?").run(failing.since, webhookId);
      else if (failing) this.statements.get("UPDATE webhooks SET failing_since = ? WHERE id = ?").run(failing.since, webhookId);
    }
  }
}
