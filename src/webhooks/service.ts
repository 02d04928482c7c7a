import { badRequest, ERRORS, forbidden, notFound, TEXT } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { randomBytes } from "../lib/secure.ts";
import type { Store, WebhookAttempt, WebhookChanges, WebhookInfo } from "../store/types.ts";
import { destinationRefusal, type Resolver } from "./destination.ts";
import { EVENT_TYPES, isEventType, scopeOfEvent, testEvent, type EventType } from "./events.ts";
import { seal, sealingKey } from "./secret.ts";
import { newSecret } from "./signing.ts";

// Subscriptions: made, listed and deleted for the API (routes.ts) and the settings page alike.

/** Subscriptions one account may hold. */
export const MAX_WEBHOOKS = 20;
/** How long a rotated-out secret still signs deliveries beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;
/** Characters of a receiver URL. */
const MAX_URL = 2000;

export interface NewWebhook {
  id: string;
  /** Shown once, in this answer; kept only sealed. */
  secret: string;
}

/** A subscription's new secret, shown once, and until when the one it replaced still signs. */
export interface RotatedSecret extends NewWebhook {
  previousSecretUntil: string;
}

/** A subscription as listed: its state, and its last attempts, never its secret. */
export interface WebhookView extends Omit<WebhookInfo, "userId" | "failingSince"> {
  state: "active" | "failing";
  failingSince: string | null;
  lastDeliveries: Array<{ eventId: string; type: string; at: string; status: number | null; durationMs: number; detail: string | null }>;
}

/** The events asked for: a non-empty array of known names, each once, in the order of EVENT_TYPES. */
export function eventsAsked(value: unknown): EventType[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string")) throw badRequest(ERRORS.invalidWebhookEvents);
  const unknown = value.find((v) => !isEventType(v));
  if (unknown !== undefined) throw badRequest(ERRORS.unknownWebhookEvent(String(unknown)));
  return EVENT_TYPES.filter((e) => value.includes(e));
}

/**
 * Makes a subscription for the account. Its checks in order: the body, the events (400), the key's
 * scopes (403: it may subscribe only to what it may read), the URL and where it leads (400), the
 * number the account holds (400).
 */
export async function createWebhook(store: Store, userId: string, scopes: readonly string[], input: Doc | undefined, allowHosts: readonly string[], resolve?: Resolver): Promise<NewWebhook> {
  if (!input) throw badRequest(ERRORS.missingBody);
  const events = readableEvents(input.events, scopes);
  const url = await receiverUrl(input.url, allowHosts, resolve);
  if ((await store.webhooks(userId)).length >= MAX_WEBHOOKS) throw badRequest(ERRORS.tooManyWebhooks(MAX_WEBHOOKS));
  const id = `wh_${randomBytes(12).toString("base64url")}`;
  const secret = newSecret();
  const sealedSecret = await seal(await sealingKey(store), secret, id);
  await store.addWebhook({ id, userId, url, events, sealedSecret, createdAt: Date.now(), failingSince: null });
  return { id, secret };
}

/** The events asked for (eventsAsked), each one the key may read, else 403. */
function readableEvents(value: unknown, scopes: readonly string[]): EventType[] {
  const events = eventsAsked(value);
  if (!events.every((e) => scopes.includes(scopeOfEvent(e)))) throw forbidden();
  return events;
}

/**
 * The subscription `id` of the account, for a key that may manage it: one that may read every event
 * it sends (404 when there is none; 403 when the key could not have subscribed to it). Changing where
 * it goes, its secret, a test or deleting it otherwise hands what the key may not read to whoever
 * holds the key (docs/decisions.md, Webhooks).
 */
async function manageable(store: Store, userId: string, scopes: readonly string[], id: string): Promise<WebhookInfo> {
  const hook = (await store.webhooks(userId)).find((w) => w.id === id);
  if (!hook) throw notFound();
  if (!hook.events.every((e) => scopes.includes(scopeOfEvent(e as EventType)))) throw forbidden();
  return hook;
}

/** A receiver URL that may be subscribed (destination.ts), as the store keeps it; else 400 naming why. */
async function receiverUrl(value: unknown, allowHosts: readonly string[], resolve?: Resolver): Promise<string> {
  if (typeof value !== "string") throw badRequest(ERRORS.invalidWebhookUrl);
  if (value.length > MAX_URL) throw badRequest(ERRORS.webhookUrlTooLong(MAX_URL));
  const refusal = await destinationRefusal(value, allowHosts, resolve);
  if (refusal) throw badRequest(refusal);
  return new URL(value).href;
}

/**
 * Changes a subscription's `url`, its `events`, or both, keeping its id and secret. Its checks in
 * order: the subscription (404, whatever the body; 403 for a key that may not manage it), the body
 * (400 `Missing body`, `Nothing to update` when it names neither), the events (400, then 403 as when
 * subscribing), the URL (400). Events recorded before stay, and go to the URL the subscription has
 * when they are tried.
 */
export async function updateWebhook(store: Store, userId: string, scopes: readonly string[], id: string, input: Doc | undefined, allowHosts: readonly string[], resolve?: Resolver): Promise<WebhookView> {
  await manageable(store, userId, scopes, id);
  if (!input) throw badRequest(ERRORS.missingBody);
  if (input.url === undefined && input.events === undefined) throw badRequest(TEXT.nothingToUpdate);
  const changes: WebhookChanges = {};
  if (input.events !== undefined) changes.events = readableEvents(input.events, scopes);
  if (input.url !== undefined) changes.url = await receiverUrl(input.url, allowHosts, resolve);
  if (!(await store.updateWebhook(userId, id, changes))) throw notFound();
  return (await listWebhooks(store, userId)).find((w) => w.id === id)!;
}

const iso = (ms: number) => new Date(ms).toISOString();

const deliveryView = (a: WebhookAttempt) => ({ eventId: a.eventId, type: a.type, at: iso(a.at), status: a.status, durationMs: a.durationMs, detail: a.detail });

export async function listWebhooks(store: Store, userId: string): Promise<WebhookView[]> {
  const hooks = await store.webhooks(userId);
  return Promise.all(
    hooks.map(async ({ userId: _, failingSince, ...w }) => ({
      ...w,
      state: failingSince === null ? ("active" as const) : ("failing" as const),
      failingSince: failingSince === null ? null : iso(failingSince),
      lastDeliveries: (await store.webhookAttempts(userId, w.id)).map(deliveryView),
    })),
  );
}

/** Deletes a subscription the key may manage (404, else 403 as `manageable`). */
export async function deleteWebhook(store: Store, userId: string, scopes: readonly string[], id: string): Promise<void> {
  await manageable(store, userId, scopes, id);
  if (!(await store.removeWebhook(userId, id))) throw notFound();
}

/** Sends the subscription a `webhook.test` event, delivered (and retried) as any other: its `webhook-id`. 404, else 403 as `manageable`. */
export async function sendTestEvent(store: Store, userId: string, scopes: readonly string[], id: string): Promise<{ eventId: string }> {
  await manageable(store, userId, scopes, id);
  const eventId = await store.recordWebhookEvent(userId, id, testEvent(userId, id));
  if (eventId === undefined) throw notFound();
  return { eventId };
}

/**
 * A new signing secret for the subscription, shown only in this answer. Deliveries carry signatures
 * of both it and the one it replaces for PREVIOUS_SECRET_MS, so receivers move to it without missing
 * one; a rotation within that time replaces the older previous secret. 404, else 403 as `manageable`.
 */
export async function rotateSecret(store: Store, userId: string, scopes: readonly string[], id: string, now = Date.now()): Promise<RotatedSecret> {
  await manageable(store, userId, scopes, id);
  const secret = newSecret();
  const sealed = await seal(await sealingKey(store), secret, id);
  const until = now + PREVIOUS_SECRET_MS;
  if (!(await store.rotateWebhookSecret(userId, id, sealed, until))) throw notFound();
  return { id, secret, previousSecretUntil: iso(until) };
}
