import type { Database } from "bun:sqlite";
import { attemptOf, DUE_SQL, dueDelivery, outboxRows, settlements, webhookInfoOf, type AttemptRow, type DueRow, type Subscription, type WebhookRow } from "./outbox.ts";
import type { StatementCache } from "./sqlite-statements.ts";
import { EpochCache } from "../lib/epoch-cache.ts";
import { ATTEMPTS_KEPT, type DeliveryOutcome, type DueDelivery, type OutboxHook, type StoreChange, type WebhookAttempt, type WebhookInfo, type WebhookRecord } from "./types.ts";

// Webhook subscriptions and their outbox in the SQLite store. Events are written by `emit`, in the
// transaction of the write that causes them; one process delivers them (src/webhooks/worker.ts).

export class SqliteWebhooks {
  hook: OutboxHook | undefined;
  /**
   * Each account's subscriptions as `emit` needs them, read once: every write asks, and nearly all
   * accounts have none. Forgotten when this store adds or removes one, and when another connection
   * has written to the file (the store's epoch, `epoch`), so one added by another process on the same
   * file counts from its next write on, as for keys.
   */
  private readonly subscriptions: EpochCache<Subscription[]>;
  private readonly settleTx;

  constructor(
    private readonly db: Database,
    private readonly statements: StatementCache,
    epoch: () => string | undefined,
  ) {
    this.subscriptions = new EpochCache(epoch);
    this.settleTx = db.transaction(this.settle.bind(this));
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

  /** In the caller's write transaction: the change's events, one row per subscription that wants each. */
  emit(userId: string, change: StoreChange | (() => StoreChange)): void {
    if (!this.hook) return;
    const subs = this.subscriptionsOf(userId);
    if (subs.length === 0) return;
    const rows = outboxRows(this.hook, userId, typeof change === "function" ? change() : change, subs);
    const insert = this.statements.get(`INSERT INTO webhook_deliveries (webhook_id, event_id, type, resource, payload, created_at, attempts, next_at)
      VALUES (?, ?, ?, ?, ?, ?, 0, ?)`);
    for (const { webhookId, event: e } of rows) insert.run(webhookId, e.id, e.type, e.resource, e.payload, e.createdAt, e.createdAt);
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
          (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id) AS pending
        FROM webhooks w WHERE w.user_id = ? ORDER BY w.created_at, w.id`)
      .all(userId) as WebhookRow[];
    return rows.map(webhookInfoOf);
  }

  remove(userId: string, id: string): boolean {
    return this.db.transaction(() => {
      const owned = this.statements.get("SELECT 1 FROM webhooks WHERE user_id = ? AND id = ?").get(userId, id) !== null;
      if (!owned) return false;
      this.statements.get("DELETE FROM webhook_deliveries WHERE webhook_id = ?").run(id);
      this.statements.get("DELETE FROM webhook_attempts WHERE webhook_id = ?").run(id);
      this.statements.get("DELETE FROM webhooks WHERE id = ?").run(id);
      this.subscriptions.clear();
      return true;
    }).immediate();
  }

  attempts(userId: string, webhookId: string): WebhookAttempt[] {
    const rows = this.statements
      .get(`SELECT a.webhook_id, a.event_id, a.type, a.at, a.status, a.duration_ms, a.detail FROM webhook_attempts a
        JOIN webhooks w ON w.id = a.webhook_id WHERE w.user_id = ? AND a.webhook_id = ? ORDER BY a.id DESC LIMIT ${ATTEMPTS_KEPT}`)
      .all(userId, webhookId) as AttemptRow[];
    return rows.map(attemptOf);
  }

  /** One process delivers (SQLite's single writer): claimed rows are read, delivered outside any transaction, then settled. */
  async deliverDue(now: number, limit: number, deliver: (due: DueDelivery[]) => Promise<DeliveryOutcome[]>): Promise<number> {
    const due = (this.statements.get(DUE_SQL.replaceAll("$", "?")).all(now, limit) as DueRow[]).map(dueDelivery);
    if (due.length === 0) return 0;
    const outcomes = await deliver(due);
    this.settleTx.immediate(outcomes);
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
