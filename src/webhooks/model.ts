import { Type } from "@sinclair/typebox";
import { EVENT_TYPES, TEST_EVENT } from "./events.ts";

// Schemas of the webhook endpoints (beyond the hosted API), written once for the OpenAPI document; the
// checks that hold to them are service.ts's, whose exact refusals the document's 400 lists.

const EventName = Type.Union(EVENT_TYPES.map((e) => Type.Literal(e)), { description: "An event type" });

export const WebhookCreateSchema = Type.Object({
  url: Type.String({ format: "uri", maxLength: 2000, description: "The receiver: https, on a public address unless the operator allows the host (WEBHOOK_ALLOW_HOSTS)" }),
  events: Type.Array(EventName, { minItems: 1, description: "The events to receive; each needs the read scope of its kind (batches.read for batch and reading events)" }),
});

export const WebhookCreatedSchema = Type.Object({
  id: Type.String(),
  secret: Type.String({ pattern: "^whsec_", description: "The Standard Webhooks signing secret: shown in this answer only" }),
});

const Delivery = Type.Object({
  eventId: Type.String({ description: "The `webhook-id` of the event" }),
  type: Type.Union([...EVENT_TYPES, TEST_EVENT].map((e) => Type.Literal(e)), { description: "An event type, or `webhook.test` for a test event" }),
  at: Type.String({ format: "date-time" }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when none came" }),
  durationMs: Type.Integer(),
  detail: Type.Union([Type.String(), Type.Null()], { description: "Why it failed, or the start of a refusing receiver's body" }),
});

export const WebhookViewSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventName),
  createdAt: Type.Integer({ description: "ms" }),
  pending: Type.Integer({ description: "Events not yet delivered" }),
  state: Type.Union([Type.Literal("active"), Type.Literal("failing")], { description: "`failing` once an event was given up after about a day of retries, until a delivery succeeds" }),
  failingSince: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  lastDeliveries: Type.Array(Delivery, { description: "The last attempts, newest first" }),
});

export const WebhookListSchema = Type.Array(WebhookViewSchema);

export const WebhookUpdateSchema = Type.Partial(WebhookCreateSchema, { minProperties: 1, description: "The receiver, the events, or both; the id and secret stay" });

export const WebhookTestSentSchema = Type.Object({
  eventId: Type.String({ description: "The test event's `webhook-id`: the same on every attempt, and in `lastDeliveries`" }),
});

export const WebhookSecretSchema = Type.Object({
  id: Type.String(),
  secret: Type.String({ pattern: "^whsec_", description: "The new signing secret: shown in this answer only" }),
  previousSecretUntil: Type.String({ format: "date-time", description: "Until then deliveries are signed with the previous secret too" }),
});
