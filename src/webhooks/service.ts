import { badRequest, ERRORS, forbidden, HttpError } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { randomBytes } from "../lib/secure.ts";
import type { Store, WebhookAttempt, WebhookInfo } from "../store/types.ts";
import { destinationRefusal, type Resolver } from "./destination.ts";
import { EVENT_TYPES, isEventType, scopeOfEvent, testEvent, type EventType } from "./events.ts";
import { seal, sealingKey } from "./secret.ts";
import { newSecret } from "./signing.ts";

// Subscriptions: made, listed and deleted for the API (routes.ts) and the settings page alike.

/** Subscriptions one account may hold. */
export const MAX_WEBHOOKS = 20;
/** Characters of a receiver URL. */
const MAX_URL = 2000;

export interface NewWebhook {
  id: string;
  /** Shown once, in this answer; kept only sealed. */
  secret: string;
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
  const events = eventsAsked(input.events);
  if (!events.every((e) => scopes.includes(scopeOfEvent(e)))) throw forbidden();
  if (typeof input.url !== "string" || input.url.length > MAX_URL) throw badRequest(ERRORS.invalidWebhookUrl);
  const refusal = await destinationRefusal(input.url, allowHosts, resolve);
  if (refusal) throw badRequest(refusal);
  if ((await store.webhooks(userId)).length >= MAX_WEBHOOKS) throw badRequest(ERRORS.tooManyWebhooks(MAX_WEBHOOKS));
  const id = `wh_${randomBytes(12).toString("base64url")}`;
  const secret = newSecret();
  const sealedSecret = await seal(await sealingKey(store), secret, id);
  await store.addWebhook({ id, userId, url: new URL(input.url).href, events, sealedSecret, createdAt: Date.now(), failingSince: null });
  return { id, secret };
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

export async function deleteWebhook(store: Store, userId: string, id: string): Promise<void> {
  if (!(await store.removeWebhook(userId, id))) throw new HttpError(404, ERRORS.notFound);
}

/** Sends the subscription a `webhook.test` event, delivered (and retried) as any other: its `webhook-id`. */
export async function sendTestEvent(store: Store, userId: string, id: string): Promise<{ eventId: string }> {
  const eventId = await store.recordWebhookEvent(userId, id, testEvent(userId, id));
  if (eventId === undefined) throw new HttpError(404, ERRORS.notFound);
  return { eventId };
}
