import type { Deps } from "../http/deps.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText, TEXT } from "../http/errors.ts";
import { canonicalJson } from "../lib/json.ts";
import { READ_SCOPES } from "../lib/scopes.ts";
import { badRequestText, json, jsonBody, NOT_FOUND, ok } from "../openapi/operations.ts";
import { WebhookCreatedSchema, WebhookCreateSchema, WebhookListSchema, WebhookSecretSchema, WebhookTestSentSchema, WebhookUpdateSchema, WebhookViewSchema } from "./model.ts";
import { createWebhook, deleteWebhook, listWebhooks, rotateSecret, sendTestEvent, updateWebhook } from "./service.ts";

// Change notifications, beyond the hosted API (README, "Webhooks"). A key with a read scope lists the
// account's subscriptions; it makes, changes, tests or deletes one only when it may read every event
// the subscription asks for (service.ts).

/** What every request on one subscription says of its scopes (service.ts, `manageable`). */
const MANAGED = " A key that may not read every event the subscription asks for gets 403.";

const ID_PARAMETER = { name: "id", in: "path" as const, required: true, schema: { type: "string" }, description: "The subscription's `id`" };

export function webhookRoutes(deps: Deps): void {
  const { store, config } = deps;
  // The scopes of the account's key: a subscription may send only what its key may read (service.ts).
  const keyScopes = async (userId: string) => (await store.getApiKey(userId))?.scopes ?? [];
  new ApiRoutes(deps, { version: 2, tag: "Webhooks", addition: true })
    .post(
      "/v2/webhooks",
      {
        scope: READ_SCOPES,
        body: "object",
        answer: "reply",
        doc: {
          summary: "Subscribe to change notifications",
          description:
            "Deliveries follow the Standard Webhooks specification: headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,` HMAC-SHA256 over `id.timestamp.body`, keyed with the secret). The secret is in this answer only.",
          requestBody: jsonBody(WebhookCreateSchema, "The receiver and the events"),
          responses: {
            "201": json(WebhookCreatedSchema, "Subscribed"),
            "400": badRequestText("Invalid url: only https URLs are accepted"),
          },
        },
      },
      async ({ userId, body }) => {
        const created = await createWebhook(store, userId, await keyScopes(userId), body, config.webhookAllowHosts);
        return jsonText(canonicalJson(created), 201);
      },
    )
    .get(
      "/v2/webhooks",
      { scope: READ_SCOPES, answer: "json", doc: { summary: "List webhook subscriptions", description: "With their state and last deliveries; never their secrets.", responses: { "200": json(WebhookListSchema, "The account's subscriptions") } } },
      async ({ userId }) => canonicalJson(await listWebhooks(store, userId)),
    )
    .patch(
      "/v2/webhooks/:id",
      {
        scope: READ_SCOPES,
        body: "object",
        answer: "json",
        doc: {
          summary: "Change a webhook subscription",
          description:
            "Sets its `url`, its `events`, or both, checked as when subscribing; its id and secret stay. Events recorded before stay, and go to the URL it has when they are tried. An unknown id is 404 whatever the body." + MANAGED,
          parameters: [ID_PARAMETER],
          requestBody: jsonBody(WebhookUpdateSchema, "What changes"),
          responses: {
            "200": json(WebhookViewSchema, "The subscription as listed"),
            "400": badRequestText(TEXT.nothingToUpdate),
            "404": NOT_FOUND,
          },
        },
      },
      async ({ params, userId, body }) => {
        return canonicalJson(await updateWebhook(store, userId, await keyScopes(userId), params.id!, body, config.webhookAllowHosts));
      },
    )
    .post(
      "/v2/webhooks/:id/secret",
      {
        scope: READ_SCOPES,
        answer: "json",
        doc: {
          summary: "Rotate a webhook's signing secret",
          description:
            "A new `whsec_` secret, in this answer only. For 24 hours deliveries carry two signatures in `webhook-signature` (Standard Webhooks' space-separated list), the new secret's and the previous one's, so a receiver verifies with either while it moves to the new one. A body, if any, is not read." + MANAGED,
          parameters: [ID_PARAMETER],
          responses: { "200": json(WebhookSecretSchema, "The new secret"), "404": NOT_FOUND },
        },
      },
      async ({ params, userId }) => canonicalJson(await rotateSecret(store, userId, await keyScopes(userId), params.id!)),
    )
    .post(
      "/v2/webhooks/:id/test",
      {
        scope: READ_SCOPES,
        answer: "reply",
        doc: {
          summary: "Send a test event",
          description:
            "Sends the subscription one `webhook.test` event (`data`: the `account`, `kind` `webhook` and the subscription's `id`), whatever events it asked for, signed and retried as any other. Answers at once with its `webhook-id`; the delivery follows as any event's does and shows in the list's `lastDeliveries`." + MANAGED,
          parameters: [ID_PARAMETER],
          responses: { "202": json(WebhookTestSentSchema, "Recorded; to be delivered"), "404": NOT_FOUND },
        },
      },
      async ({ params, userId }) => jsonText(canonicalJson(await sendTestEvent(store, userId, await keyScopes(userId), params.id!)), 202),
    )
    .delete(
      "/v2/webhooks/:id",
      {
        scope: READ_SCOPES,
        answer: "text",
        doc: {
          summary: "Delete a webhook subscription",
          description: `Its undelivered events go with it.${MANAGED}`,
          parameters: [ID_PARAMETER],
          responses: { "200": ok("Deleted"), "404": NOT_FOUND },
        },
      },
      async ({ params, userId }) => {
        await deleteWebhook(store, userId, await keyScopes(userId), params.id!);
        return TEXT.deleted;
      },
    );
}
