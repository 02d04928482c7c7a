import { beforeEach, describe, expect, test } from "bun:test";
import { ERRORS } from "../../src/http/errors.ts";
import { MAX_WEBHOOKS } from "../../src/webhooks/service.ts";
import { testApp, type Account } from "../helpers/app.ts";

// POST, GET and DELETE /v2/webhooks in process (README, "Webhooks"): exact statuses and bodies, the
// secret shown once and never listed, refused destinations refused when the subscription is made.

type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
let alice: Account;
let inventoryOnly: Account;
const PUBLIC = "https://93.184.215.14/hook";

beforeEach(async () => {
  h = await testApp({ webhookAllowHosts: ["127.0.0.1"] });
  alice = await h.account("alice");
  inventoryOnly = await h.account("ivy", ["inventory.read"]);
});

describe("POST /v2/webhooks refuses", () => {
  const cases: Array<[name: string, body: unknown, status: number, text: string]> = [
    ["no body", undefined, 400, ERRORS.missingBody],
    ["events missing", { url: PUBLIC }, 400, ERRORS.invalidWebhookEvents],
    ["events empty", { url: PUBLIC, events: [] }, 400, ERRORS.invalidWebhookEvents],
    ["an unknown event", { url: PUBLIC, events: ["batch.created", "batch.brewed"] }, 400, ERRORS.unknownWebhookEvent("batch.brewed")],
    ["url missing", { events: ["batch.created"] }, 400, ERRORS.invalidWebhookUrl],
    ["a url of 2,001 characters", { url: `${PUBLIC}/${"a".repeat(2001 - PUBLIC.length - 1)}`, events: ["batch.created"] }, 400, "Invalid url: longer than 2000 characters"],
    ["plain http", { url: "http://93.184.215.14/hook", events: ["batch.created"] }, 400, ERRORS.webhookNotHttps],
    ["a private address", { url: "https://192.168.1.20/hook", events: ["batch.created"] }, 400, ERRORS.webhookRefusedAddress("192.168.1.20", "192.168.1.20")],
    ["loopback not allowed", { url: "https://127.0.0.2/hook", events: ["batch.created"] }, 400, ERRORS.webhookRefusedAddress("127.0.0.2", "127.0.0.2")],
    ["the metadata address", { url: "https://169.254.169.254/", events: ["batch.created"] }, 400, ERRORS.webhookRefusedAddress("169.254.169.254", "169.254.169.254")],
  ];
  for (const [name, body, status, text] of cases) {
    test(`${name}: ${status} ${text}`, async () => {
      const res = await h.call("POST", "/v2/webhooks", alice, body === undefined ? {} : { body });
      expect([res.status, res.text]).toEqual([status, text]);
      expect(await h.store.webhooks("alice")).toEqual([]);
    });
  }

  test("events the key may not read: 403 Forbidden, nothing made", async () => {
    const res = await h.call("POST", "/v2/webhooks", inventoryOnly, { body: { url: PUBLIC, events: ["inventory.negative", "batch.created"] } });
    expect([res.status, res.text]).toEqual([403, ERRORS.forbidden]);
    expect(await h.store.webhooks("ivy")).toEqual([]);
  });

  test("no credentials: 401 before the body is looked at", async () => {
    const res = await h.call("POST", "/v2/webhooks", null, { body: {} });
    expect([res.status, res.text]).toEqual([401, ERRORS.unauthorized]);
  });

  test(`the ${MAX_WEBHOOKS + 1}th subscription of an account`, async () => {
    for (let i = 0; i < MAX_WEBHOOKS; i++) expect((await h.call("POST", "/v2/webhooks", alice, { body: { url: `${PUBLIC}/${i}`, events: ["batch.created"] } })).status).toBe(201);
    const res = await h.call("POST", "/v2/webhooks", alice, { body: { url: PUBLIC, events: ["batch.created"] } });
    expect([res.status, res.text]).toEqual([400, ERRORS.tooManyWebhooks(MAX_WEBHOOKS)]);
  });
});

describe("a subscription's life", () => {
  test("201 with the id and a whsec_ secret; listed with its state, never its secret; deleted once", async () => {
    const made = await h.call("POST", "/v2/webhooks", inventoryOnly, { body: { url: "http://127.0.0.1:9/hook", events: ["inventory.negative", "inventory.updated", "inventory.updated"] } });
    expect(made.status).toBe(201);
    const { id, secret } = made.json();
    expect(secret).toMatch(/^whsec_/);
    const list = await h.call("GET", "/v2/webhooks", inventoryOnly);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(secret);
    expect(list.json()).toEqual([
      { id, url: "http://127.0.0.1:9/hook", events: ["inventory.updated", "inventory.negative"], createdAt: expect.any(Number), pending: 0, state: "active", failingSince: null, lastDeliveries: [] },
    ]);
    expect((await h.call("GET", "/v2/webhooks", alice)).json()).toEqual([]);
    expect((await h.call("DELETE", `/v2/webhooks/${id}`, alice)).status).toBe(404);
    const gone = await h.call("DELETE", `/v2/webhooks/${id}`, inventoryOnly);
    expect([gone.status, gone.text]).toEqual([200, "Deleted"]);
    expect((await h.call("DELETE", `/v2/webhooks/${id}`, inventoryOnly)).status).toBe(404);
  });

  test("a test event: 202 with its webhook-id, waiting to be delivered; another account's or an unknown subscription is 404", async () => {
    const { id } = (await h.call("POST", "/v2/webhooks", inventoryOnly, { body: { url: "http://127.0.0.1:9/hook", events: ["inventory.deleted"] } })).json();
    const sent = await h.call("POST", `/v2/webhooks/${id}/test`, inventoryOnly);
    expect(sent.status).toBe(202);
    expect(sent.json()).toEqual({ eventId: expect.stringMatching(/^msg_[\w-]{22}$/) });
    expect((await h.call("GET", "/v2/webhooks", inventoryOnly)).json()[0].pending).toBe(1);
    for (const [who, path] of [[alice, `/v2/webhooks/${id}/test`], [inventoryOnly, "/v2/webhooks/wh_unknown/test"]] as const) {
      const refused = await h.call("POST", path, who);
      expect([refused.status, refused.text]).toEqual([404, "Not Found"]);
    }
    expect((await h.call("GET", "/v2/webhooks", inventoryOnly)).json()[0].pending).toBe(1);
  });

  test("PATCH changes the events and the url, keeping the id and secret; the next write counts the new events", async () => {
    const { id } = (await h.call("POST", "/v2/webhooks", alice, { body: { url: "http://127.0.0.1:9/hook", events: ["recipe.deleted"] } })).json();
    await h.load("alice", { batches: [{ _id: "b1", name: "Pale", status: "Fermenting" }] });
    // Not yet wanted: no event.
    expect((await h.call("PATCH", "/v2/batches/b1", alice, { body: { status: "Conditioning" } })).status).toBe(200);
    const changed = await h.call("PATCH", `/v2/webhooks/${id}`, alice, { body: { events: ["batch.updated", "recipe.deleted"], url: "http://127.0.0.1:9/other" } });
    expect(changed.status).toBe(200);
    expect(changed.json()).toEqual({ id, url: "http://127.0.0.1:9/other", events: ["batch.updated", "recipe.deleted"], createdAt: expect.any(Number), pending: 0, state: "active", failingSince: null, lastDeliveries: [] });
    expect((await h.call("PATCH", "/v2/batches/b1", alice, { body: { status: "Completed" } })).status).toBe(200);
    expect((await h.call("GET", "/v2/webhooks", alice)).json()).toEqual([{ ...changed.json(), pending: 1 }]);
    // Only the url: the events stay.
    const moved = await h.call("PATCH", `/v2/webhooks/${id}`, alice, { body: { url: "http://127.0.0.1:9/third" } });
    expect([moved.status, moved.json().url, moved.json().events]).toEqual([200, "http://127.0.0.1:9/third", ["batch.updated", "recipe.deleted"]]);
  });

  test("PATCH refuses as subscribing does, and changes nothing: 404 first, then the body, the events, the scopes, the url", async () => {
    const { id } = (await h.call("POST", "/v2/webhooks", inventoryOnly, { body: { url: "http://127.0.0.1:9/hook", events: ["inventory.updated"] } })).json();
    const cases: Array<[string, Account, string, unknown, number, string]> = [
      ["another account's", alice, id, { events: ["batch.updated"] }, 404, "Not Found"],
      ["an unknown id, with a bad body", inventoryOnly, "wh_unknown", { url: 5 }, 404, "Not Found"],
      ["neither url nor events", inventoryOnly, id, { name: "x" }, 400, "Nothing to update"],
      ["an unknown event", inventoryOnly, id, { events: ["batch.exploded"] }, 400, ERRORS.unknownWebhookEvent("batch.exploded")],
      ["no events", inventoryOnly, id, { events: [] }, 400, ERRORS.invalidWebhookEvents],
      ["an event the key may not read", inventoryOnly, id, { events: ["batch.updated"] }, 403, "Forbidden"],
      ["a plain http url", inventoryOnly, id, { url: "http://93.184.215.14/hook" }, 400, ERRORS.webhookNotHttps],
      ["a url that is no string", inventoryOnly, id, { url: 5, events: ["inventory.deleted"] }, 400, ERRORS.invalidWebhookUrl],
    ];
    for (const [name, who, target, body, status, text] of cases) {
      const res = await h.call("PATCH", `/v2/webhooks/${target}`, who, { body });
      expect([name, res.status, res.text]).toEqual([name, status, text]);
    }
    const empty = await h.call("PATCH", `/v2/webhooks/${id}`, inventoryOnly, { raw: "" });
    expect([empty.status, empty.text]).toEqual([400, "Missing body"]);
    expect((await h.call("GET", "/v2/webhooks", inventoryOnly)).json().map((w: { url: string; events: string[] }) => [w.url, w.events])).toEqual([["http://127.0.0.1:9/hook", ["inventory.updated"]]]);
  });

  test("a key that may not read every event of a subscription may not change, rotate, test or delete it: 403, nothing changed", async () => {
    // The owner subscribes with a key that reads everything; the account's key is then regenerated
    // with batches.read alone (an account has one key).
    const made = (await h.call("POST", "/v2/webhooks", alice, { body: { url: "http://127.0.0.1:9/owner", events: ["batch.updated", "inventory.updated"] } })).json();
    const batchesOnly = await h.account("alice", ["batches.read"]);
    const before = await h.store.webhooks("alice");
    const cases: Array<[string, string, string, unknown]> = [
      ["moved elsewhere", "PATCH", `/v2/webhooks/${made.id}`, { url: "http://127.0.0.1:9/elsewhere" }],
      ["its events changed to readable ones", "PATCH", `/v2/webhooks/${made.id}`, { events: ["batch.updated"] }],
      ["its secret rotated", "POST", `/v2/webhooks/${made.id}/secret`, undefined],
      ["a test event sent", "POST", `/v2/webhooks/${made.id}/test`, undefined],
      ["deleted", "DELETE", `/v2/webhooks/${made.id}`, undefined],
    ];
    for (const [name, method, path, body] of cases) {
      const res = await h.call(method, path, batchesOnly, body === undefined ? {} : { body });
      expect([name, res.status, res.text]).toEqual([name, 403, ERRORS.forbidden]);
    }
    // An unknown id is still 404 for that key, and nothing was changed or recorded.
    expect((await h.call("DELETE", "/v2/webhooks/wh_unknown", batchesOnly)).status).toBe(404);
    expect(await h.store.webhooks("alice")).toEqual(before);
    expect((await h.call("GET", "/v2/webhooks", batchesOnly)).json().map((w: { id: string; pending: number }) => [w.id, w.pending])).toEqual([[made.id, 0]]);
    // A subscription it may read wholly, it manages.
    const own = (await h.call("POST", "/v2/webhooks", batchesOnly, { body: { url: "http://127.0.0.1:9/own", events: ["batch.updated"] } })).json();
    expect((await h.call("POST", `/v2/webhooks/${own.id}/secret`, batchesOnly)).status).toBe(200);
    expect((await h.call("DELETE", `/v2/webhooks/${own.id}`, batchesOnly)).text).toBe("Deleted");
  });

  test("an API write to a subscribed account records its event at once; a refused write records none", async () => {
    await h.call("POST", "/v2/webhooks", alice, { body: { url: "http://127.0.0.1:9/hook", events: ["batch.updated"] } });
    await h.load("alice", { batches: [{ _id: "b1", name: "Pale", status: "Fermenting" }] });
    expect((await h.call("PATCH", "/v2/batches/b1", alice, { body: { status: "Conditioning" } })).status).toBe(200);
    expect((await h.call("PATCH", "/v2/batches/b1", alice, { body: { status: "Bottled" } })).status).toBe(400);
    expect((await h.call("GET", "/v2/webhooks", alice)).json()[0].pending).toBe(1);
  });
});
