import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";

// The store's side of webhooks (Store.setOutbox and the subscription methods): what a write hands the
// outbox hook, the events it makes, and the rows the delivery worker claims and settles.

/**
 * What a write changed, as the outbox hook sees it inside the write's transaction: a document's stored
 * text before and after (undefined: absent; a create has no `before`, a delete no `after`), with what
 * the store has at hand without parsing the document: the top-level members the write set, with their
 * values, and the stored summary (the list entry's default fields); or a reading appended to a batch
 * (or to an unattached device's own list). A store hands over only a write that changed the document:
 * one that left it as it was is no change.
 */
export type StoreChange =
  | { kind: Kind; id: string; before: string | undefined; after: string | undefined; set?: Doc; summary?: string }
  | { kind: "reading"; batchId: string | null; device?: { type: string; name: string }; reading: Doc & { time: number } };

/**
 * An event as the outbox hook makes it, inside the write: what it is about and what its payload
 * holds. Its id and its payload's text are made when it becomes a delivery row (outbox.ts,
 * `messageOf`): in the PostgreSQL store in the write, in the SQLite store when the worker moves the
 * group's events to delivery rows, so a write records only these parts (docs/performance.md, "Webhooks").
 */
export interface OutboxEvent {
  type: string;
  /** The resource it is about (`batch/<id>`): events of one resource are delivered in the order they happened. */
  resource: string;
  createdAt: number;
  /** The account whose change it is (the payload's `data.account`). */
  account: string;
  /** The payload's `data` members after the account. */
  data: Record<string, unknown>;
  /** The document's stored text, spliced into `data` as `document`, never re-encoded; a reading has none. */
  document?: string;
}

/** Makes the events of a change, of the types an account's subscriptions want; called inside the write's transaction. */
export type OutboxHook = (userId: string, change: StoreChange, wanted: ReadonlySet<string>) => OutboxEvent[];

export interface WebhookRecord {
  id: string;
  userId: string;
  url: string;
  events: string[];
  /** The signing secret, sealed (src/webhooks/secret.ts); never listed. */
  sealedSecret: string;
  createdAt: number;
  /** Since when an event was given up on, until a delivery succeeds again; null while all is well. */
  failingSince: number | null;
}

/** What a subscription's update changes: its receiver, its events, or both. */
export interface WebhookChanges {
  url?: string;
  events?: string[];
}

/** A subscription as it is listed: never its secret. */
export type WebhookInfo = Omit<WebhookRecord, "sealedSecret"> & { pending: number };

/** One attempt to deliver an event. */
export interface WebhookAttempt {
  webhookId: string;
  eventId: string;
  type: string;
  at: number;
  /** The receiver's HTTP status; null when no answer came (refused, unreachable, timed out). */
  status: number | null;
  durationMs: number;
  /** Why it failed, or a short excerpt of a refusing receiver's body; null on success. */
  detail: string | null;
}

/** An event due for one subscription, with what its delivery needs. */
export interface DueDelivery {
  seq: number;
  webhookId: string;
  url: string;
  sealedSecret: string;
  /** A rotated subscription's previous secret, sealed, and until when it still signs (ms). */
  previousSealedSecret?: string;
  previousUntil?: number;
  eventId: string;
  type: string;
  /** What the event is about (`batch/<id>`, …): one resource's events are delivered in order. */
  resource: string;
  payload: string;
  /** Attempts made before this one. */
  attempts: number;
  createdAt: number;
}

/** What became of one due delivery: delivered, to be tried again at `retryAt`, or given up on. */
export interface DeliveryOutcome {
  seq: number;
  attempt: WebhookAttempt;
  result: "delivered" | "retry" | "given-up";
  retryAt?: number;
}

/** The attempts kept per subscription, newest first. */
export const ATTEMPTS_KEPT = 20;
