import { randomBytes } from "../lib/secure.ts";
import { ATTEMPTS_KEPT, type DeliveryOutcome, type OutboxEvent, type OutboxHook, type StoreChange, type WebhookAttempt, type WebhookInfo } from "./types.ts";

// What both stores share of the outbox: which subscription gets which event of a change, and the id
// and payload an event is delivered with. Each store writes the rows in the transaction of the change
// (sqlite-webhooks.ts, postgres-webhooks.ts).

// Random text for event ids: a block of random bytes encoded at once, each id a slice of it (22
// characters, 132 random bits). A Buffer per id took about as long as the event's payload.
const ID_CHARS = 22;
let idText = "";
let idAt = 0;

/** A Standard Webhooks message id: the `webhook-id` of every attempt. */
export function newEventId(): string {
  if (idAt + ID_CHARS > idText.length) {
    // 1,088 bytes are 1,451 characters, each but the last carrying six random bits: 65 whole ids.
    idText = randomBytes(1088).toString("base64url");
    idAt = 0;
  }
  const id = idText.slice(idAt, (idAt += ID_CHARS));
  return `msg_${id}`;
}

// Events that come together share a millisecond: its text is made once.
let isoAt = NaN;
let isoText = "";
const isoTime = (at: number) => (at === isoAt ? isoText : ((isoAt = at), (isoText = new Date(at).toISOString())));

/**
 * The payload: `type`, `timestamp` and `data` (Standard Webhooks' shape), `data` holding the account,
 * then the event's members (`dataText`, a JSON object's text), then the document's text as stored,
 * spliced in, never re-encoded.
 */
export function payloadText(type: string, at: number, account: string, dataText: string, document?: string): string {
  const head = `{"type":${JSON.stringify(type)},"timestamp":"${isoTime(at)}","data":{"account":${JSON.stringify(account)}${dataText.length > 2 ? `,${dataText.slice(1, -1)}` : ""}`;
  return document === undefined ? `${head}}}` : `${head},"document":${document}}}`;
}

/** What an event is delivered with: its id, the same on every attempt, and its payload. */
export interface EventMessage {
  id: string;
  payload: string;
}

export const messageOf = (e: OutboxEvent): EventMessage => ({ id: newEventId(), payload: payloadText(e.type, e.createdAt, e.account, JSON.stringify(e.data), e.document) });

/** A subscription as the write path reads it: its id and the event types it wants, as stored (comma list). */
export interface Subscription {
  id: string;
  events: string;
}

/** The subscriptions that want an event's type: their ids, and the same as a JSON array's text. */
export interface Recipients {
  ids: readonly string[];
  text: string;
}

/** An event with the subscriptions that want it. */
export interface AddressedEvent {
  event: OutboxEvent;
  to: Recipients;
}

/** Each subscription's event types as a set, every type any of them wants, and who wants each type (made as asked). */
interface Wants {
  each: Array<{ id: string; types: Set<string> }>;
  any: Set<string>;
  byType: Map<string, Recipients>;
}

// A store keeps an account's subscriptions as one array until they change: their sets are made once.
const wantsOf = new WeakMap<readonly Subscription[], Wants>();

function wants(subscriptions: readonly Subscription[]): Wants {
  let w = wantsOf.get(subscriptions);
  if (!w) {
    const each = subscriptions.map((s) => ({ id: s.id, types: new Set(s.events.split(",")) }));
    wantsOf.set(subscriptions, (w = { each, any: new Set(each.flatMap((e) => [...e.types])), byType: new Map() }));
  }
  return w;
}

function recipients(w: Wants, type: string): Recipients {
  let r = w.byType.get(type);
  if (!r) {
    const ids = w.each.filter((e) => e.types.has(type)).map((e) => e.id);
    w.byType.set(type, (r = { ids, text: JSON.stringify(ids) }));
  }
  return r;
}

/** The events a change makes for an account's subscriptions, each with those that want it; none, and the hook is not called, when none wants anything. */
export function outboxEvents(hook: OutboxHook | undefined, userId: string, change: StoreChange, subscriptions: readonly Subscription[]): AddressedEvent[] {
  if (!hook || subscriptions.length === 0) return [];
  const w = wants(subscriptions);
  const out: AddressedEvent[] = [];
  for (const event of hook(userId, change, w.any)) {
    const to = recipients(w, event.type);
    if (to.ids.length) out.push({ event, to });
  }
  return out;
}

/**
 * What a round's outcomes leave for one subscription, recorded in one go rather than outcome by
 * outcome: the attempts to keep (the last ATTEMPTS_KEPT of the round, in order: earlier ones would be
 * trimmed at once), and its failing state afterwards: null, cleared (a delivery succeeded after any
 * event given up); `since`, set to that time, or kept when already set if `keepEarlier`; undefined,
 * as it was. The same as applying the outcomes one after another.
 */
export interface Settlement {
  webhookId: string;
  attempts: WebhookAttempt[];
  failing?: { since: number; keepEarlier: boolean } | null;
}

export function settlements(outcomes: readonly DeliveryOutcome[]): Settlement[] {
  const by = new Map<string, Settlement>();
  for (const { attempt, result } of outcomes) {
    let s = by.get(attempt.webhookId);
    if (!s) by.set(attempt.webhookId, (s = { webhookId: attempt.webhookId, attempts: [] }));
    s.attempts.push(attempt);
    if (result === "delivered") s.failing = null;
    // Given up: failing since then, unless it already was (earlier in the round, or before it).
    else if (result === "given-up" && !s.failing) s.failing = { since: attempt.at, keepEarlier: s.failing === undefined };
  }
  for (const s of by.values()) s.attempts = s.attempts.slice(-ATTEMPTS_KEPT);
  return [...by.values()];
}

/**
 * Delivery rounds under way at once (Store.deliveryRoundsAtOnce): each holds what it claimed until its
 * slowest receiver has answered or timed out; on PostgreSQL that is a pooled connection with its row
 * locks, so there at most a third of the pool, leaving the rest to requests.
 */
export const DELIVERY_ROUNDS = 4;
export const deliveryRoundsFor = (connections: number): number => Math.max(1, Math.min(DELIVERY_ROUNDS, Math.floor(connections / 3)));

/** What one run of events is kept apart by: a subscription and a resource (`batch/<id>`, …). */
export const runKey = (webhookId: string, resource: string): string => `${webhookId} ${resource}`;

/** An outbox row as the walk for due deliveries reads it. */
export interface QueuedRow {
  seq: number;
  webhook_id: string;
  resource: string;
  next_at: number;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The deliveries due among outbox rows read in outbox order from the first: at most `limit` whose
 * time has come and whose resource's earlier events (of the same subscription) are all among them.
 * A resource's events come as a run, delivered one after another (src/webhooks/worker.ts); a later
 * event waits while an earlier one is not due (being retried), and every event of a run that a round
 * still under way holds (`held`, run keys) waits for that round, as does every event of a subscription
 * in `skip` (webhook ids). Stops reading at the limit.
 */
export function dueInOrder(rows: Iterable<QueuedRow>, now: number, limit: number, held: ReadonlySet<string> = NONE, skip: ReadonlySet<string> = NONE): number[] {
  const due: number[] = [];
  if (limit <= 0) return due;
  // Per subscription and resource: whether every event read so far was taken.
  const open = new Map<string, boolean>();
  for (const r of rows) {
    const key = runKey(r.webhook_id, r.resource);
    if (open.get(key) === false || held.has(key) || skip.has(r.webhook_id)) continue;
    const take = r.next_at <= now;
    open.set(key, take);
    if (take && due.push(r.seq) === limit) break;
  }
  return due;
}

/**
 * The deliveries due as PostgreSQL claims them, in outbox order, each the earliest of its subscription
 * and resource ($1: now, $2: limit, $3: the webhook ids to skip, a text[] literal; its index on
 * (webhook_id, resource, seq) answers the NOT EXISTS): the first of each run dueInOrder would take.
 * Only the first: another instance may hold an earlier event locked, which this query skips without
 * seeing it, so a later one is safe to claim only when no earlier one exists at all.
 */
export const DUE_SQL = `SELECT d.seq, d.webhook_id, w.url, w.secret, w.previous_secret, w.previous_until, d.event_id, d.type, d.resource, d.payload, d.attempts, d.created_at
  FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.next_at <= $1 AND NOT (d.webhook_id = ANY($3::text[])) AND NOT EXISTS (
    SELECT 1 FROM webhook_deliveries p WHERE p.webhook_id = d.webhook_id AND p.resource = d.resource AND p.seq < d.seq)
  ORDER BY d.seq LIMIT $2`;

export interface DueRow {
  seq: number | string;
  webhook_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | string | null;
  event_id: string;
  type: string;
  resource: string;
  payload: string;
  attempts: number | string;
  created_at: number | string;
}

export const dueDelivery = (r: DueRow) => ({
  seq: Number(r.seq),
  webhookId: r.webhook_id,
  url: r.url,
  sealedSecret: r.secret,
  ...(r.previous_secret === null ? {} : { previousSealedSecret: r.previous_secret, previousUntil: Number(r.previous_until) }),
  eventId: r.event_id,
  type: r.type,
  resource: r.resource,
  payload: r.payload,
  attempts: Number(r.attempts),
  createdAt: Number(r.created_at),
});

// Rows as both stores read them (PostgreSQL hands BIGINT over as text).
export interface WebhookRow { id: string; user_id: string; url: string; events: string; created_at: number; failing_since: number | null; pending: number }
export interface AttemptRow { webhook_id: string; event_id: string; type: string; at: number; status: number | null; duration_ms: number; detail: string | null }

export const attemptOf = (r: AttemptRow): WebhookAttempt => ({
  webhookId: r.webhook_id, eventId: r.event_id, type: r.type, at: Number(r.at), status: r.status === null ? null : Number(r.status), durationMs: Number(r.duration_ms), detail: r.detail,
});

export const webhookInfoOf = (r: WebhookRow): WebhookInfo => ({
  id: r.id, userId: r.user_id, url: r.url, events: r.events.split(","), createdAt: Number(r.created_at),
  failingSince: r.failing_since === null ? null : Number(r.failing_since), pending: Number(r.pending),
});

