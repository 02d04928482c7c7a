import type { SQL } from "bun";
import { attemptOf, DUE_SQL, dueDelivery, messageOf, outboxEvents, settlements, webhookInfoOf, type DueRow, type Subscription } from "./outbox.ts";
import { ATTEMPTS_KEPT, type DeliveryOutcome, type DueDelivery, type OutboxEvent, type OutboxHook, type StoreChange, type WebhookAttempt, type WebhookChanges, type WebhookInfo, type WebhookRecord } from "./types.ts";

// Webhook subscriptions and their outbox in the PostgreSQL store. Events are written by `emit`, in the
// transaction of the write that causes them. Several instances deliver: each claims due rows with
// FOR UPDATE SKIP LOCKED and keeps them locked while it delivers, so no two deliver one row, and the
// locks of an instance that dies go with its connection, leaving the rows to the others.

/** An account's subscriptions in one column (`id events;…`), read beside a locked row in one statement. */
export const SUBSCRIPTIONS_COLUMN = (userParam: string) =>
  `(SELECT string_agg(id || ' ' || events, ';') FROM webhooks WHERE user_id = ${userParam}) AS subscriptions`;

export const subscriptionsOf = (column: string | null): Subscription[] =>
  column ? column.split(";").map((s) => ({ id: s.slice(0, s.indexOf(" ")), events: s.slice(s.indexOf(" ") + 1) })) : [];

export class PostgresWebhooks {
  hook: OutboxHook | undefined;

  constructor(private readonly db: () => Promise<SQL>) {}

  /** In the caller's transaction: the change's events, one row per subscription that wants each. */
  async emit(tx: SQL, userId: string, change: StoreChange | (() => StoreChange), subscriptions?: Subscription[]): Promise<void> {
    if (!this.hook) return;
    const subs = subscriptions ?? ((await tx`SELECT id, events FROM webhooks WHERE user_id = ${userId}`) as Subscription[]);
    const events = outboxEvents(this.hook, userId, typeof change === "function" ? change() : change, subs);
    if (events.length === 0) return;
    // An event several subscriptions want is one message, its id the same for each.
    const values = events.flatMap(({ event: e, to }) => {
      const m = messageOf(e);
      return to.ids.map((webhookId) => ({ webhook_id: webhookId, event_id: m.id, type: e.type, resource: e.resource, payload: m.payload, created_at: e.createdAt, attempts: 0, next_at: e.createdAt }));
    });
    await tx`INSERT INTO webhook_deliveries ${tx(values)}`;
  }

  async add(r: WebhookRecord): Promise<void> {
    const sql = await this.db();
    await sql`INSERT INTO webhooks (id, user_id, url, events, secret, created_at, failing_since)
      VALUES (${r.id}, ${r.userId}, ${r.url}, ${r.events.join(",")}, ${r.sealedSecret}, ${r.createdAt}, ${r.failingSince})`;
  }

  async list(userId: string): Promise<WebhookInfo[]> {
    const sql = await this.db();
    const rows = await sql`SELECT w.id, w.user_id, w.url, w.events, w.created_at, w.failing_since,
        (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id) AS pending
      FROM webhooks w WHERE w.user_id = ${userId} ORDER BY w.created_at, w.id`;
    return rows.map(webhookInfoOf);
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const sql = await this.db();
    // Deliveries and attempts go with it (ON DELETE CASCADE).
    return (await sql`DELETE FROM webhooks WHERE user_id = ${userId} AND id = ${id} RETURNING id`).length === 1;
  }

  async update(userId: string, id: string, changes: WebhookChanges): Promise<boolean> {
    const sql = await this.db();
    const rows = await sql`UPDATE webhooks SET url = coalesce(${changes.url ?? null}::text, url), events = coalesce(${changes.events?.join(",") ?? null}::text, events)
      WHERE user_id = ${userId} AND id = ${id} RETURNING id`;
    return rows.length === 1;
  }

  async rotate(userId: string, id: string, sealedSecret: string, previousUntil: number): Promise<boolean> {
    const sql = await this.db();
    const rows = await sql`UPDATE webhooks SET previous_secret = secret, previous_until = ${previousUntil}, secret = ${sealedSecret}
      WHERE user_id = ${userId} AND id = ${id} RETURNING id`;
    return rows.length === 1;
  }

  async attempts(userId: string, webhookId: string): Promise<WebhookAttempt[]> {
    const sql = await this.db();
    const rows = await sql`SELECT a.webhook_id, a.event_id, a.type, a.at, a.status, a.duration_ms, a.detail FROM webhook_attempts a
      JOIN webhooks w ON w.id = a.webhook_id WHERE w.user_id = ${userId} AND a.webhook_id = ${webhookId} ORDER BY a.id DESC LIMIT ${ATTEMPTS_KEPT}`;
    return rows.map(attemptOf);
  }

  /** One event for one subscription of the account (Store.recordWebhookEvent); its message id, or undefined when there is no such subscription. */
  async recordFor(userId: string, webhookId: string, event: OutboxEvent): Promise<string | undefined> {
    const sql = await this.db();
    const m = messageOf(event);
    const rows = await sql`INSERT INTO webhook_deliveries (webhook_id, event_id, type, resource, payload, created_at, attempts, next_at)
      SELECT id, ${m.id}, ${event.type}, ${event.resource}, ${m.payload}, ${event.createdAt}, 0, ${event.createdAt} FROM webhooks
      WHERE user_id = ${userId} AND id = ${webhookId} RETURNING seq`;
    return rows.length ? m.id : undefined;
  }

  /** The earliest time an undelivered event is or was due (recorded, or to be tried again). */
  async waitingSince(): Promise<number | undefined> {
    const sql = await this.db();
    const [row] = await sql`SELECT min(next_at) AS at FROM webhook_deliveries`;
    return row.at === null ? undefined : Number(row.at);
  }

  async deliverDue(now: number, limit: number, deliver: (due: DueDelivery[]) => Promise<DeliveryOutcome[]>, skip: ReadonlySet<string> = new Set()): Promise<number> {
    const sql = await this.db();
    return sql.begin(async (tx) => {
      const rows = (await tx.unsafe(`${DUE_SQL} FOR UPDATE OF d SKIP LOCKED`, [now, limit, textArray(skip)])) as DueRow[];
      if (rows.length === 0) return 0;
      const outcomes = await deliver(rows.map(dueDelivery));
      await settle(tx, outcomes);
      return rows.length;
    });
  }
}

/** A PostgreSQL text[] literal of `values`, each quoted. */
const textArray = (values: Iterable<string>): string => `{${[...values].map((v) => `"${v.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;

/** A round's outcomes: each row retried or gone, then per subscription its attempts and state (settlements). */
async function settle(tx: SQL, outcomes: DeliveryOutcome[]): Promise<void> {
  for (const { seq, result, retryAt } of outcomes) {
    if (result === "retry") await tx`UPDATE webhook_deliveries SET attempts = attempts + 1, next_at = ${retryAt!} WHERE seq = ${seq}`;
    else await tx`DELETE FROM webhook_deliveries WHERE seq = ${seq}`;
  }
  for (const { webhookId, attempts, failing } of settlements(outcomes)) {
    // A subscription deleted meanwhile keeps no attempt.
    let kept = 0;
    for (const a of attempts) {
      kept += (await tx`INSERT INTO webhook_attempts (webhook_id, event_id, type, at, status, duration_ms, detail)
        SELECT id, ${a.eventId}, ${a.type}, ${a.at}, ${a.status}, ${a.durationMs}, ${a.detail} FROM webhooks WHERE id = ${webhookId} RETURNING id`).length;
    }
    if (kept === 0) continue;
    await tx`DELETE FROM webhook_attempts WHERE webhook_id = ${webhookId} AND id <= (
      SELECT id FROM webhook_attempts WHERE webhook_id = ${webhookId} ORDER BY id DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT})`;
    if (failing === null) await tx`UPDATE webhooks SET failing_since = NULL WHERE id = ${webhookId} AND failing_since IS NOT NULL`;
    else if (failing?.keepEarlier) await tx`UPDATE webhooks SET failing_since = COALESCE(failing_since, ${failing.since}) WHERE id = ${webhookId}`;
    else if (failing) await tx`UPDATE webhooks SET failing_since = ${failing.since} WHERE id = ${webhookId}`;
  }
}
