import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { firstOfEach, Receiver, until, type Received } from "./receiver.ts";

// Deliveries from the real server process to a real receiver on 127.0.0.1 (allowed by
// WEBHOOK_ALLOW_HOSTS), with a short retry base and timeout so retries take milliseconds.

const dir = tempDir();
const receiver = new Receiver().start();
let server: ServerProcess;
let auth: string;
let loggingId: string;

beforeAll(async () => {
  const env = { DATABASE_URL: join(dir.path, "hooks.sqlite") };
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const key = cli(["key", "generate", "alice", "--scopes", "all"], env).stdout.trim();
  loggingId = cli(["logging-id", "alice"], env).stdout.trim().split(/\s+/).pop()!;
  auth = basic("alice", key);
  server = await startServerProcess({
    ...env, LOGGING_MIN_INTERVAL_SECONDS: "0", RATE_LIMIT_V2_PER_HOUR: "1000000",
    WEBHOOK_ALLOW_HOSTS: "127.0.0.1", WEBHOOK_RETRY_BASE_MS: "40", WEBHOOK_TIMEOUT_MS: "400", WEBHOOK_MAX_ATTEMPTS: "4",
  });
}, 30_000);

afterAll(async () => {
  await server?.stop();
  await receiver.stop();
  dir.remove();
});

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; text: string; json: () => any }> {
  const res = await fetch(server.url + path, { method, headers: { authorization: auth, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

async function subscribe(path: string, events: string[]): Promise<{ id: string; secret: string }> {
  const res = await api("POST", "/v2/webhooks", { url: receiver.url(path), events });
  expect(res.status).toBe(201);
  return res.json();
}

const typesAt = (path: string) => firstOfEach(receiver.at(path)).map((r) => r.json.type);

/** Three hops at stock 0, named after `name`, with a subscription to their updates at `path`. */
async function hopsWatchedAt(path: string, name: string): Promise<string[]> {
  const hops: string[] = [];
  for (let i = 0; i < 3; i++) hops.push((await api("POST", "/v2/inventory/hops", { name: `${name} ${i}`, inventory: 0 })).json().id);
  await subscribe(path, ["inventory.updated"]);
  return hops;
}

/**
 * Eight clients for `ms`, each request a stock change of one of `hops` or a read, pausing `pauseMs`
 * after each: the worker sees requests arriving all the while. Answers how many stock changes were made.
 */
async function steadyLoad(hops: string[], ms: number, pauseMs = 0): Promise<number> {
  let written = 0;
  const end = Date.now() + ms;
  const clients = Array.from({ length: 8 }, async (_, c) => {
    for (let i = c; Date.now() < end; i++) {
      if (i % 2) expect((await api("GET", "/v2/inventory/hops")).status).toBe(200);
      else {
        expect((await api("PATCH", `/v2/inventory/hops/${hops[i % hops.length]}`, { inventory_adjust: 1 })).status).toBe(200);
        written++;
      }
      if (pauseMs) await Bun.sleep(pauseMs);
    }
  });
  await Promise.all(clients);
  return written;
}

/** Waits for `written` events at `path`, then checks each arrived once and each hop's in the order its stock rose. */
async function everyEventInOrder(path: string, written: number, hops: string[]): Promise<void> {
  await until(`${written} events`, () => firstOfEach(receiver.at(path)).length >= written, 20_000);
  const got = firstOfEach(receiver.at(path));
  expect(got).toHaveLength(written);
  for (const hop of hops) {
    const stocks = got.filter((r) => r.json.data.id === hop).map((r) => r.json.data.document.inventory);
    expect(stocks).toEqual(Array.from({ length: stocks.length }, (_, i) => i + 1));
  }
}

describe("deliveries to a real receiver", () => {
  test("every event type arrives, signed so the standardwebhooks library verifies it, with the document", async () => {
    const all = ["batch.created", "batch.updated", "batch.deleted", "reading.created", "recipe.created", "recipe.updated", "recipe.deleted",
      "inventory.created", "inventory.updated", "inventory.deleted", "inventory.negative"];
    const { secret } = await subscribe("/all", all);
    const recipe = (await api("POST", "/v2/recipes", { name: "Hook Pale" })).json().id;
    expect((await api("PATCH", `/v2/recipes/${recipe}`, { name: "Hook Pale 2" })).status).toBe(200);
    const batch = (await api("POST", "/v2/batches", { recipeId: recipe })).json().id;
    expect((await api("PATCH", `/v2/batches/${batch}`, { status: "Conditioning" })).status).toBe(200);
    expect((await api("POST", `/v2/batches/${batch}/readings`, { sg: 1.012, time: 1_700_000_000_000 })).status).toBe(201);
    // A device's reading: an unattached device keeps it, and says so.
    const posted = await fetch(`${server.url}/ispindel?id=${loggingId}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Red", gravity: 12.5, temperature: 18 }) });
    expect(posted.status).toBe(200);
    const hop = (await api("POST", "/v2/inventory/hops", { name: "Cascade", inventory: 10 })).json().id;
    expect((await api("PATCH", `/v2/inventory/hops/${hop}`, { inventory_adjust: -15 })).status).toBe(200);
    for (const path of [`/v2/inventory/hops/${hop}`, `/v2/recipes/${recipe}`, `/v2/batches/${batch}`]) expect((await api("DELETE", path)).status).toBe(200);

    await until("12 events", () => firstOfEach(receiver.at("/all")).length >= 12);
    // At least once: an attempt that timed out on a busy machine comes again, with the same id and body.
    expect(receiver.at("/all").every((r) => Receiver.verifies(secret, r))).toBe(true);
    const got = firstOfEach(receiver.at("/all"));
    expect(receiver.at("/all").every((r) => got.find((g) => g.id === r.id)!.body === r.body)).toBe(true);
    expect(got).toHaveLength(12);
    const by = (resource: string) => got.filter((r) => `${r.json.data.kind}/${r.json.data.id}` === resource || r.json.data.batchId === resource.split("/")[1]).map((r) => r.json.type);
    expect(by(`recipe/${recipe}`)).toEqual(["recipe.created", "recipe.updated", "recipe.deleted"]);
    expect(by(`batch/${batch}`)).toEqual(["batch.created", "batch.updated", "reading.created", "batch.deleted"]);
    expect(by(`hops/${hop}`)).toEqual(["inventory.created", "inventory.updated", "inventory.negative", "inventory.deleted"]);
    const updated = got.find((r) => r.json.type === "batch.updated")!.json;
    expect([updated.data.account, updated.data.changed, updated.data.changes, updated.data.document.status, updated.data.document._id]).toEqual(["alice", ["status"], { status: "Conditioning" }, "Conditioning", batch]);
    const negative = got.find((r) => r.json.type === "inventory.negative")!.json.data;
    expect([negative.kind, negative.inventory, negative.document.name]).toEqual(["hops", -5, "Cascade"]);
    const device = got.find((r) => r.json.type === "reading.created" && r.json.data.batchId === null)!.json.data;
    expect([device.device, device.reading.sg]).toEqual([{ type: "iSpindel", name: "Red" }, 1.0505]);
  }, 30_000);

  test("a test event reaches a subscription of other types, signed, with the webhook-id it was answered with, and shows in its deliveries", async () => {
    const { id, secret } = await subscribe("/tested", ["recipe.deleted"]);
    const sent = await api("POST", `/v2/webhooks/${id}/test`);
    expect(sent.status).toBe(202);
    const { eventId } = sent.json();
    await until("the test event", () => receiver.at("/tested").length >= 1);
    const got = receiver.at("/tested")[0]!;
    expect(Receiver.verifies(secret, got)).toBe(true);
    expect([got.id, got.json.type, got.json.data]).toEqual([eventId, "webhook.test", { account: "alice", kind: "webhook", id }]);
    await until("its delivery recorded", async () => (await api("GET", "/v2/webhooks")).json().find((w: any) => w.id === id).lastDeliveries.length === 1);
    const listed = (await api("GET", "/v2/webhooks")).json().find((w: any) => w.id === id);
    expect([listed.lastDeliveries[0].eventId, listed.lastDeliveries[0].type, listed.lastDeliveries[0].status, listed.pending]).toEqual([eventId, "webhook.test", 204, 0]);
  }, 30_000);

  test("a new secret, shown once: deliveries then verify with it and, for a day, with the one it replaced", async () => {
    const { id, secret: first } = await subscribe("/rotated", ["recipe.deleted"]);
    const before = Date.now();
    const rotated = await api("POST", `/v2/webhooks/${id}/secret`);
    expect(rotated.status).toBe(200);
    const { secret, previousSecretUntil, ...rest } = rotated.json();
    expect(rest).toEqual({ id });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(first);
    expect(Date.parse(previousSecretUntil) - before).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(Date.parse(previousSecretUntil) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const listed = await api("GET", "/v2/webhooks");
    expect([listed.text.includes(secret.slice(6)), listed.text.includes(first.slice(6))]).toEqual([false, false]);
    expect((await api("POST", `/v2/webhooks/${id}/test`)).status).toBe(202);
    await until("the test event", () => receiver.at("/rotated").length >= 1);
    const got = receiver.at("/rotated")[0]!;
    expect([Receiver.verifies(secret, got), Receiver.verifies(first, got), got.signature.split(" ").length]).toEqual([true, true, 2]);
    const missing = await api("POST", "/v2/webhooks/wh_missing/secret");
    expect([missing.status, missing.text]).toEqual([404, "Not Found"]);
  }, 30_000);

  test("after a 500 and a timeout the same event comes again with the same webhook-id, and the page's record shows each attempt", async () => {
    const { id } = await subscribe("/flaky", ["recipe.created"]);
    receiver.answer = (request, r, n) => {
      if (r.path !== "/flaky") return new Response(null, { status: 204 });
      const tries = receiver.at("/flaky").length;
      if (tries === 1) return new Response("database down", { status: 500 });
      if (tries === 2) return Bun.sleep(1000).then(() => new Response(null, { status: 204 }));
      return new Response(null, { status: 202 });
    };
    await api("POST", "/v2/recipes", { name: "Flaky" });
    await until("a third attempt", () => receiver.at("/flaky").length >= 3);
    receiver.answer = () => new Response(null, { status: 204 });
    expect(new Set(receiver.at("/flaky").map((r) => r.id)).size).toBe(1);
    await until("the success recorded", async () => (await api("GET", "/v2/webhooks")).json().find((w: any) => w.id === id).lastDeliveries.length === 3);
    const listed = (await api("GET", "/v2/webhooks")).json().find((w: any) => w.id === id);
    expect(listed.lastDeliveries.map((d: any) => [d.status, d.detail])).toEqual([[202, null], [null, "no answer within 400 ms"], [500, "database down"]]);
    expect([listed.state, listed.pending]).toEqual(["active", 0]);
  }, 30_000);

  test("a receiver that keeps failing: the event is given up after the last attempt and the subscription shows failing", async () => {
    const { id } = await subscribe("/broken", ["recipe.created"]);
    receiver.answer = (_req, r) => new Response(r.path === "/broken" ? "no" : null, { status: r.path === "/broken" ? 503 : 204 });
    await api("POST", "/v2/recipes", { name: "Never" });
    await until("the subscription failing", async () => (await api("GET", "/v2/webhooks")).json().find((w: any) => w.id === id).state === "failing");
    receiver.answer = () => new Response(null, { status: 204 });
    expect(receiver.at("/broken").length).toBe(4);
    const listed = (await api("GET", "/v2/webhooks")).json().find((w: any) => w.id === id);
    expect([listed.pending, listed.lastDeliveries.length, typeof listed.failingSince]).toEqual([0, 4, "string"]);
  }, 30_000);

  test("a receiver down for a while gets every event afterwards, each resource's in order", async () => {
    const down = new Receiver().start();
    try {
      const { secret } = await (async () => {
        const res = await api("POST", "/v2/webhooks", { url: down.url("/later"), events: ["recipe.created", "recipe.updated"] });
        return res.json();
      })();
      await down.stop();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await api("POST", "/v2/recipes", { name: `Later ${i}` })).json().id);
      for (let round = 1; round <= 2; round++) for (const id of ids) await api("PATCH", `/v2/recipes/${id}`, { name: `Later ${id} ${round}` });
      await Bun.sleep(300);
      down.start();
      await until("9 events", () => firstOfEach(down.received).length >= 9);
      const events = firstOfEach(down.received);
      expect(events.every((r) => Receiver.verifies(secret, r))).toBe(true);
      for (const id of ids) {
        expect(events.filter((r) => r.json.data.id === id).map((r) => r.json.data.document.name)).toEqual([`Later ${ids.indexOf(id)}`, `Later ${id} 1`, `Later ${id} 2`]);
      }
    } finally {
      await down.stop();
    }
  }, 30_000);

  test("concurrent writes to one item are delivered in the order they were stored, also through failed attempts", async () => {
    const hop = (await api("POST", "/v2/inventory/hops", { name: "Order", inventory: 0 })).json().id;
    await subscribe("/order", ["inventory.updated"]);
    // Every third delivery fails once: retries must not let a later event overtake.
    receiver.answer = (_req, r) => new Response(null, { status: r.path === "/order" && receiver.at("/order").length % 3 === 0 ? 500 : 204 });
    const writers = Array.from({ length: 6 }, async () => {
      for (let i = 0; i < 8; i++) expect((await api("PATCH", `/v2/inventory/hops/${hop}`, { inventory_adjust: 1 })).status).toBe(200);
    });
    await Promise.all(writers);
    await until("48 events", () => firstOfEach(receiver.at("/order")).length >= 48, 20_000);
    receiver.answer = () => new Response(null, { status: 204 });
    const stocks = firstOfEach(receiver.at("/order")).map((r: Received) => r.json.data.document.inventory);
    expect(stocks).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
  }, 40_000);

  test("writes under a steady load of requests: deliveries give way, then every event arrives once, each resource's in order", async () => {
    const hops = await hopsWatchedAt("/load", "Load");
    await everyEventInOrder("/load", await steadyLoad(hops, 1500), hops);
  }, 40_000);
  test("a slow receiver's run of events ends its round after about a second, so another subscription's next event is not held behind it", async () => {
    const hop = (await api("POST", "/v2/inventory/hops", { name: "Slow", inventory: 0 })).json().id;
    await subscribe("/slow", ["inventory.updated"]);
    await subscribe("/fast", ["recipe.created"]);
    let slowFirstAt: number | undefined;
    let fastAt: number | undefined;
    receiver.answer = async (_req, r) => {
      if (r.path === "/slow") {
        slowFirstAt ??= Date.now();
        await Bun.sleep(300);
      } else if (r.path === "/fast") fastAt ??= Date.now();
      return new Response(null, { status: 204 });
    };
    try {
      // Eight events of one item, each answered in 300 ms: one after another they take 2.4 s.
      await Promise.all(Array.from({ length: 8 }, () => api("PATCH", `/v2/inventory/hops/${hop}`, { inventory_adjust: 1 })));
      await until("the first slow delivery", () => slowFirstAt !== undefined);
      expect((await api("POST", "/v2/recipes", { name: "Fast" })).status).toBe(201);
      await until("the fast delivery", () => fastAt !== undefined, 10_000);
      expect(fastAt! - slowFirstAt!).toBeLessThan(1700);
      await until("eight slow deliveries", () => firstOfEach(receiver.at("/slow")).length >= 8, 10_000);
      expect(firstOfEach(receiver.at("/slow")).map((r) => r.json.data.document.inventory)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    } finally {
      receiver.answer = () => new Response(null, { status: 204 });
    }
  }, 30_000);

  test("under a load that does not ease, deliveries start once events have waited about five seconds, before the load ends", async () => {
    const hops = await hopsWatchedAt("/steady", "Steady");
    let firstAt: number | undefined;
    receiver.answer = (_req, r) => {
      if (r.path === "/steady") firstAt ??= Date.now();
      return new Response(null, { status: 204 });
    };
    try {
      const start = Date.now();
      // Pausing 5 ms after each request: several hundred a second, a busy process, for 8 s.
      const written = await steadyLoad(hops, 8000, 5);
      const duringLoad = receiver.at("/steady").length;
      // The bound (MAX_LAG_MS, 5 s) and a round or two of catching up.
      expect(firstAt).toBeDefined();
      expect(firstAt! - start).toBeLessThan(7000);
      expect(duringLoad).toBeGreaterThan(0);
      await everyEventInOrder("/steady", written, hops);
    } finally {
      receiver.answer = () => new Response(null, { status: 204 });
    }
  }, 40_000);
});
