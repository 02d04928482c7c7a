// Addition: change notifications. `POST /v2/webhooks` with `{"url": …, "events": [ … ]}` answers 201
// `{"id": …, "secret": "whsec_…"}` (the secret only there); `GET /v2/webhooks` lists the account's
// subscriptions, never a secret; `PATCH /v2/webhooks/{id}` changes its url or events and answers it as
// listed; `DELETE /v2/webhooks/{id}` answers `Deleted`; `POST /v2/webhooks/{id}/test` sends one
// `webhook.test` event and answers 202 `{"eventId": …}`; `POST /v2/webhooks/{id}/secret` answers a new
// secret once, with `previousSecretUntil`. Receivers must be https on a public address
// unless the operator allows the host; a refused subscription is 400, its text the server's choice. The kit subscribes only to CONTRACTS_WEBHOOK_URL (a receiver
// the target accepts), to `inventory.negative`, which nothing the kit does causes, so the receiver
// gets the one test event; the subscription is deleted by the last check, else by the teardown.
import type { Exchange } from "../../client.ts";
import { parseJson } from "../../client.ts";
import type { Check, Ctx } from "../../engine.ts";
import { assert, expectArray, expectJson, expectObject, expectStatus, expectText, fail, show } from "../../expect.ts";
import { missingId } from "../../data.ts";
import { call, made, skipUnlessOffered } from "./made.ts";

const PATH = "/v2/webhooks";
/** A public address given as such, so no name need resolve; no subscription to it is ever kept. */
const PUBLIC = "93.184.215.14";
const EVENTS = ["inventory.negative"];

/** GET /v2/webhooks once: a target answering 404 or 405 does not offer webhooks. */
function offered(ctx: Ctx): Promise<Exchange> {
  return ctx.once("extensions webhooks offered", async () => {
    const ex = await call(ctx, { method: "GET", path: PATH });
    skipUnlessOffered(ctx, ex, "webhooks");
    return ex;
  });
}

/** POST /v2/webhooks as sent; a subscription it makes (any 2xx with an id) is recorded for deletion, its delete counted now. */
async function subscribe(ctx: Ctx, json: unknown, account = ctx.main): Promise<Exchange> {
  const ex = await ctx.client.call({ method: "POST", path: PATH, account, json });
  const v = ex.status >= 200 && ex.status < 300 ? parseJson(ex) : undefined;
  const id = v?.ok ? (v.value as { id?: unknown })?.id : undefined;
  if (typeof id === "string" && id && account === ctx.main) {
    made(ctx).webhooks.push(id);
    ctx.budget.reserve("main", 1);
  }
  return ex;
}

/** A subscription the target must refuse: 400, whatever its text. */
async function refused(ctx: Ctx, json: unknown, why: string): Promise<void> {
  await offered(ctx);
  const ex = await subscribe(ctx, json);
  if (ex.status !== 400) fail(`a subscription ${why} answered ${ex.status} ${ex.body.slice(0, 120)}, expected 400`, ex);
}

/** The kit's one subscription, to CONTRACTS_WEBHOOK_URL: the answer and its id. */
function kitSubscription(ctx: Ctx): Promise<{ ex: Exchange; id: string }> {
  return ctx.once("extensions webhook", async () => {
    await offered(ctx);
    const ex = await subscribe(ctx, { url: ctx.config.webhookUrl, events: EVENTS });
    const v = ex.status >= 200 && ex.status < 300 ? parseJson(ex) : undefined;
    const id = v?.ok ? (v.value as { id?: unknown })?.id : undefined;
    if (typeof id !== "string" || !id) fail(`POST ${PATH} with CONTRACTS_WEBHOOK_URL answered ${ex.status} ${ex.body.slice(0, 120)}, not 201 {"id": …, "secret": …}`, ex);
    return { ex, id };
  });
}

const listed = async (ctx: Ctx): Promise<{ ex: Exchange; items: Record<string, unknown>[] }> => {
  const ex = await call(ctx, { method: "GET", path: PATH });
  return { ex, items: expectArray(ex) };
};

/** A call on a subscription that does not exist: 404 `Not Found`. */
const onNoSubscription = (method: string, suffix: string, json?: unknown): Check => ({
  name: `${method} /v2/webhooks/{id}${suffix} of no subscription answers 404 \`Not Found\``,
  tags: ["text"],
  async run(ctx) {
    await offered(ctx);
    expectText(ctx, await call(ctx, { method, path: `${PATH}/${missingId(ctx)}${suffix}`, ...(json === undefined ? {} : { json }) }), 404, "Not Found");
  },
});

export const WEBHOOK_CHECKS: Check[] = [
  {
    name: "POST /v2/webhooks with a plain http:// receiver is refused with 400 (the text is the server's choice)",
    needs: ["creates"],
    run: (ctx) => refused(ctx, { url: `http://${PUBLIC}/hook`, events: EVENTS }, "to http://"),
  },
  {
    name: "POST /v2/webhooks with an https receiver on a private address (10.0.0.7) is refused with 400 (the text is the server's choice)",
    needs: ["creates"],
    run: (ctx) => refused(ctx, { url: "https://10.0.0.7/hook", events: EVENTS }, "to a private address"),
  },
  {
    name: "POST /v2/webhooks asking for an event that is none of the documented ones is refused with 400 (the text is the server's choice)",
    needs: ["creates"],
    run: (ctx) => refused(ctx, { url: `https://${PUBLIC}/hook`, events: ["batch.exploded"] }, "for the event batch.exploded"),
  },
  {
    name: "POST /v2/webhooks: 401 `Unauthorized` without credentials, before its body is looked at",
    tags: ["text"],
    async run(ctx) {
      await offered(ctx);
      expectText(ctx, await ctx.client.call({ method: "POST", path: PATH, json: { url: "ftp://nowhere", events: [] } }), 401, "Unauthorized");
    },
  },
  onNoSubscription("DELETE", ""),
  onNoSubscription("POST", "/test"),
  {
    name: "a subscription to CONTRACTS_WEBHOOK_URL answers 201 with its id and a whsec_ secret, and is listed with its url and events, never its secret",
    needs: ["creates", "webhook"],
    async run(ctx) {
      const { ex, id } = await kitSubscription(ctx);
      expectStatus(ex, 201);
      const secret = expectObject(ex, 201).secret;
      assert(typeof secret === "string" && secret.startsWith("whsec_"), `the secret is a whsec_ string, got ${show(typeof secret)}`, ex);
      const list = await listed(ctx);
      const item = list.items.find((w) => w.id === id);
      if (!item) fail(`the new subscription ${id} is not listed`, list.ex);
      assert(item.url === ctx.config.webhookUrl && JSON.stringify(item.events) === JSON.stringify(EVENTS), `listed as ${show({ url: item.url, events: item.events })}`, list.ex);
      assert(!list.ex.body.includes(secret.slice(6)) && !("secret" in item), "the list shows the secret", list.ex);
    },
  },
  {
    name: "POST /v2/webhooks/{id}/test answers 202 with the test event's id",
    needs: ["creates", "webhook"],
    async run(ctx) {
      const { id } = await kitSubscription(ctx);
      const ex = await call(ctx, { method: "POST", path: `${PATH}/${id}/test` });
      skipUnlessOffered(ctx, ex, "POST /v2/webhooks/{id}/test");
      const answer = expectJson(ex, 202) as { eventId?: unknown };
      assert(typeof answer?.eventId === "string" && answer.eventId.length > 0, `202 {"eventId": …}, got ${ex.body.slice(0, 120)}`, ex);
    },
  },
  onNoSubscription("PATCH", "", { events: EVENTS }),
  {
    name: "PATCH /v2/webhooks/{id} with new events answers the subscription as listed, with those events and its url",
    needs: ["creates", "webhook"],
    async run(ctx) {
      const { id } = await kitSubscription(ctx);
      const events = ["inventory.deleted", "inventory.negative"];
      const ex = await call(ctx, { method: "PATCH", path: `${PATH}/${id}`, json: { events } });
      skipUnlessOffered(ctx, ex, "PATCH /v2/webhooks/{id}");
      const answer = expectObject(ex);
      const list = await listed(ctx);
      const item = list.items.find((w) => w.id === id);
      if (!item) fail(`the changed subscription ${id} is not listed`, list.ex);
      for (const [what, v] of [["the answer", answer], ["the list", item]] as const) {
        assert(v.id === id && v.url === ctx.config.webhookUrl && JSON.stringify(v.events) === JSON.stringify(events), `${what} shows ${show({ id: v.id, url: v.url, events: v.events })}, expected the events ${show(events)}`, what === "the answer" ? ex : list.ex);
      }
    },
  },
  onNoSubscription("POST", "/secret"),
  {
    name: "POST /v2/webhooks/{id}/secret answers 200 with a new whsec_ secret and until when the previous one still signs, and the list does not show it",
    needs: ["creates", "webhook"],
    async run(ctx) {
      const { ex: made, id } = await kitSubscription(ctx);
      const first = (parseJson(made) as { ok: boolean; value?: { secret?: unknown } }).value?.secret;
      const ex = await call(ctx, { method: "POST", path: `${PATH}/${id}/secret` });
      skipUnlessOffered(ctx, ex, "POST /v2/webhooks/{id}/secret");
      const answer = expectObject(ex);
      const { secret, previousSecretUntil } = answer;
      assert(answer.id === id && typeof secret === "string" && secret.startsWith("whsec_") && secret !== first, `200 {"id": ${show(id)}, "secret": a new whsec_ secret, …}, got ${ex.body.slice(0, 40)}…`, ex);
      assert(typeof previousSecretUntil === "string" && Date.parse(previousSecretUntil) > Date.now(), `previousSecretUntil is a time to come, got ${show(previousSecretUntil)}`, ex);
      const list = await listed(ctx);
      assert(!list.ex.body.includes(secret.slice(6)), "the list shows the new secret", list.ex);
    },
  },
  {
    name: "DELETE /v2/webhooks/{id} answers 200 `Deleted`; then it is not listed, and deleting it again is 404",
    needs: ["creates", "webhook"],
    tags: ["text"],
    async run(ctx) {
      const { id } = await kitSubscription(ctx);
      expectText(ctx, await call(ctx, { method: "DELETE", path: `${PATH}/${id}` }), 200, "Deleted");
      const list = await listed(ctx);
      if (list.items.some((w) => w.id === id)) fail(`the deleted subscription ${id} is still listed`, list.ex);
      expectText(ctx, await call(ctx, { method: "DELETE", path: `${PATH}/${id}` }), 404, "Not Found");
      made(ctx).webhooks.splice(made(ctx).webhooks.indexOf(id), 1);
    },
  },
];
