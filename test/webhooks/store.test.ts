import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DeliveryOutcome, DueDelivery, OutboxHook, Store, StoreChange } from "../../src/store/types.ts";
import { PostgresStore } from "../../src/store/postgres.ts";
import { Database } from "bun:sqlite";
import { KEYS_EPOCH_MAX_AGE_MS, SqliteStore } from "../../src/store/sqlite.ts";
import { installOutbox } from "../../src/webhooks/worker.ts";
import { tempDir } from "../helpers/process.ts";
import { freshPostgres, openTestStore, STORE_KINDS, type OpenedStore, DROP_TIMEOUT_MS } from "../helpers/stores.ts";
import { until } from "./receiver.ts";

// The outbox in both stores: each write records its events in its own transaction, one row per
// subscription that wants the type; a write that does not happen records none; deliveries are claimed
// in order per resource and settled as the worker reports. The hook here records the changes it sees
// and names each event after them, so the assertions read what the store handed over.

const USER = "alice";

function recordingHook(seen: StoreChange[]): OutboxHook {
  let n = 0;
  return (_userId, change, wanted) => {
    seen.push(change);
    const family = change.kind === "reading" ? "reading" : change.kind === "batch" || change.kind === "recipe" ? change.kind : "inventory";
    const what = change.kind === "reading" ? "created" : change.before === undefined ? "created" : change.after === undefined ? "deleted" : "updated";
    const type = `${family}.${what}`;
    if (!wanted.has(type)) return [];
    const resource = change.kind === "reading" ? `batch/${change.batchId}` : `${change.kind}/${change.id}`;
    n++;
    return [{ type, resource, createdAt: 1000 + n, account: _userId, data: { n } }];
  };
}

const hookRow = (id: string, events: string[], userId = USER) => ({ id, userId, url: "https://example.com/hook", events, sealedSecret: "sealed", createdAt: 1, failingSince: null });

/** A SQLite store on a file of its own for `body`, closed and removed after it; `path` for a second connection. */
async function onSqliteFile(name: string, body: (store: SqliteStore, path: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  const path = `${dir.path}/${name}.sqlite`;
  const store = SqliteStore.open(path);
  try {
    await body(store, path);
  } finally {
    await store.close();
    dir.remove();
  }
}

/** Claims what is due at `now` and reports each as `result`; answers what was claimed. */
async function claim(store: Store, now: number, result: DeliveryOutcome["result"] = "delivered", limit = 100): Promise<DueDelivery[]> {
  let claimed: DueDelivery[] = [];
  await store.deliverDue(now, limit, async (due) => {
    claimed = due;
    return due.map((d) => ({
      seq: d.seq,
      result,
      ...(result === "retry" ? { retryAt: now + 500 } : {}),
      attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: now, status: result === "delivered" ? 204 : 500, durationMs: 3, detail: result === "delivered" ? null : "boom" },
    }));
  });
  return claimed;
}

for (const kind of STORE_KINDS) {
  describe(`outbox on ${kind}`, () => {
    let opened: OpenedStore;
    let store: Store;
    const seen: StoreChange[] = [];
    beforeAll(async () => {
      opened = await openTestStore(kind);
      store = opened.store;
      store.setOutbox(recordingHook(seen));
      await store.createUser(USER, null);
      await store.createUser("bob", null);
    });
    afterAll(async () => opened?.close(), DROP_TIMEOUT_MS);

    test("an account without subscriptions records nothing and the hook is not asked", async () => {
      await store.insert(USER, "batch", { _id: "quiet", name: "Quiet" });
      expect(seen).toEqual([]);
      expect(await claim(store, 10_000)).toEqual([]);
    });

    test("each write records its event for every subscription that wants its type, and only those", async () => {
      await store.addWebhook(hookRow("wh-batches", ["batch.created", "batch.updated", "batch.deleted", "reading.created"]));
      await store.addWebhook(hookRow("wh-recipes", ["recipe.created"]));
      await store.addWebhook(hookRow("wh-bob", ["batch.created"], "bob"));
      await store.insert(USER, "batch", { _id: "b1", name: "One" });
      await store.setFields(USER, "batch", "b1", { status: "Fermenting" });
      await store.update(USER, "batch", "b1", (doc) => ({ write: { ...doc!, name: "One again" }, result: null }));
      expect(await store.appendReading(USER, "b1", { time: 5, sg: 1.05 })).toBe(true);
      await store.insert(USER, "recipe", { _id: "r1", name: "Recipe" });
      expect(await store.remove(USER, "batch", "b1")).toBe(true);
      const due = await claim(store, 10_000);
      if (kind === "sqlite") {
        // One process delivers: b1's events come as a run, in the order they happened.
        expect(due.map((d) => [d.webhookId, d.type])).toEqual([
          ["wh-batches", "batch.created"],
          ["wh-batches", "batch.updated"],
          ["wh-batches", "batch.updated"],
          ["wh-batches", "reading.created"],
          ["wh-recipes", "recipe.created"],
          ["wh-batches", "batch.deleted"],
        ]);
      } else {
        expect(due.map((d) => [d.webhookId, d.type])).toEqual([
          ["wh-batches", "batch.created"],
          ["wh-recipes", "recipe.created"],
        ]);
        // The rest of b1's events wait for the one before them; the recipe's is alone.
        const rest: string[] = [];
        for (let round = 0; round < 6; round++) rest.push(...(await claim(store, 10_000)).map((d) => d.type));
        expect(rest).toEqual(["batch.updated", "batch.updated", "reading.created", "batch.deleted"]);
      }
      expect((await store.webhooks(USER)).map((w) => w.pending)).toEqual([0, 0]);
    });

    test("a round under way holds what it claimed: a round begun beside it takes other resources' events, and the held resource's next one waits for the first to settle", async () => {
      while ((await claim(store, 10_000)).length);
      await store.createUser("carol", null);
      await store.addWebhook(hookRow("wh-carol", ["recipe.created", "recipe.updated"], "carol"));
      await store.insert("carol", "recipe", { _id: "held", name: "Held" });
      await store.setFields("carol", "recipe", "held", { name: "Held again" });
      await store.insert("carol", "recipe", { _id: "other", name: "Other" });
      // A round that skips her subscription (an attempt of its under way) claims none of them.
      expect(await store.deliverDue(10_000, 100, async () => { throw new Error("nothing is claimed"); }, new Set(["wh-carol"]))).toBe(0);
      const hold = Promise.withResolvers<void>();
      let firstClaimed: DueDelivery[] = [];
      const first = store.deliverDue(10_000, 1, async (due) => {
        firstClaimed = due;
        await hold.promise;
        return due.map((d) => ({ seq: d.seq, result: "delivered" as const, attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: 10_000, status: 204, durationMs: 3, detail: null } }));
      });
      await until("the first round's claim", () => firstClaimed.length === 1);
      expect(firstClaimed.map((d) => [d.resource, d.type])).toEqual([["recipe/held", "recipe.created"]]);
      const beside = await claim(store, 10_000);
      expect(beside.map((d) => [d.resource, d.type])).toEqual([["recipe/other", "recipe.created"]]);
      hold.resolve();
      expect(await first).toBe(1);
      expect((await claim(store, 10_000)).map((d) => [d.resource, d.type])).toEqual([["recipe/held", "recipe.updated"]]);
      expect((await store.webhooks("carol")).map((w) => w.pending)).toEqual([0]);
      await store.removeWebhook("carol", "wh-carol");
    });

    test("the hook sees the stored texts before and after, and the members a PATCH set", async () => {
      seen.length = 0;
      await store.insert(USER, "batch", { _id: "b2", name: "Two", status: "Planning" });
      await store.setFields(USER, "batch", "b2", { status: "Brewing" });
      await store.remove(USER, "batch", "b2");
      const docs = seen.map((c) => (c.kind === "reading" ? c : { before: c.before && JSON.parse(c.before).status, after: c.after && JSON.parse(c.after).status, set: c.set }));
      expect(docs).toEqual([
        { before: undefined, after: "Planning", set: undefined },
        { before: "Planning", after: "Brewing", set: { status: "Brewing" } },
        { before: "Brewing", after: undefined, set: undefined },
      ]);
      await claim(store, 10_000);
      await claim(store, 10_000);
      await claim(store, 10_000);
    });

    test("a write that does not happen records no event", async () => {
      await store.insert(USER, "batch", { _id: "b3", name: "Three" });
      await claim(store, 10_000);
      // SQLite throws at once, PostgreSQL rejects: either way, as a rejection here.
      const settled = async (write: () => unknown) => write();
      await expect(settled(() => store.update(USER, "batch", "b3", () => { throw new Error("refused"); }))).rejects.toThrow("refused");
      await expect(settled(() => store.setFields(USER, "batch", "b3", () => { throw new Error("refused too"); }))).rejects.toThrow("refused too");
      expect(await store.appendReading(USER, "no-such-batch", { time: 1 })).toBe(false);
      expect(await store.remove(USER, "batch", "no-such-batch")).toBe(false);
      expect(await claim(store, 10_000)).toEqual([]);
    });

    test("a write that leaves the document as it was records no event, and the hook is not shown it", async () => {
      await store.insert(USER, "batch", { _id: "b6", name: "Six", status: "Planning", og: 1.05 });
      await claim(store, 10_000);
      seen.length = 0;
      expect(await store.setFields(USER, "batch", "b6", { status: "Planning" })).toBe(true);
      expect(await store.setFields(USER, "batch", "b6", { og: 1.05, status: "Planning" })).toBe(true);
      await store.update(USER, "batch", "b6", (doc) => ({ write: { ...doc! }, result: null }));
      expect(seen).toEqual([]);
      expect(await claim(store, 10_000)).toEqual([]);
      // The same calls with another value do record their event, one each.
      await store.setFields(USER, "batch", "b6", { status: "Brewing" });
      await store.update(USER, "batch", "b6", (doc) => ({ write: { ...doc!, og: 1.06 }, result: null }));
      const after = (c: StoreChange) => (c.kind === "reading" ? undefined : (JSON.parse(c.after!) as { status: string; og: number }));
      expect(seen.map(after)).toEqual([expect.objectContaining({ status: "Brewing", og: 1.05 }), expect.objectContaining({ status: "Brewing", og: 1.06 })]);
      // SQLite delivers b6's two events as a run; PostgreSQL claims the second once the first is gone.
      expect((await claim(store, 10_000)).map((d) => d.type)).toEqual(kind === "sqlite" ? ["batch.updated", "batch.updated"] : ["batch.updated"]);
      expect((await claim(store, 10_000)).map((d) => d.type)).toEqual(kind === "sqlite" ? [] : ["batch.updated"]);
      expect(await claim(store, 10_000)).toEqual([]);
    });

    test("a retry keeps its event id and waits until it is due; a given-up event marks the subscription failing until a delivery succeeds", async () => {
      await store.insert(USER, "batch", { _id: "b4", name: "Four" });
      const [first] = await claim(store, 20_000, "retry");
      expect(await claim(store, 20_000)).toEqual([]);
      const [again] = await claim(store, 20_500, "given-up");
      expect(again!.eventId).toBe(first!.eventId);
      expect(again!.attempts).toBe(1);
      const hooks = await store.webhooks(USER);
      expect(hooks.find((w) => w.id === "wh-batches")!.failingSince).toBe(20_500);
      const attempts = await store.webhookAttempts(USER, "wh-batches");
      expect(attempts.slice(0, 2).map((a) => [a.eventId, a.status, a.detail])).toEqual([
        [first!.eventId, 500, "boom"],
        [first!.eventId, 500, "boom"],
      ]);
      await store.insert(USER, "batch", { _id: "b5", name: "Five" });
      await claim(store, 30_000);
      expect((await store.webhooks(USER)).find((w) => w.id === "wh-batches")!.failingSince).toBe(null);
    });

    test("a claimed event the worker reports nothing for stays as it was, and comes again with a later round", async () => {
      for (const id of ["run1", "run2"]) {
        await store.insert(USER, "batch", { _id: id, name: id });
        await store.setFields(USER, "batch", id, { status: "Brewing" });
      }
      let first: DueDelivery[] = [];
      await store.deliverDue(10_000, 100, async (due) => {
        first = due;
        // Only the first attempted, as after a run stopped by a failure.
        const d = due[0]!;
        return [{ seq: d.seq, result: "delivered", attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: 10_000, status: 204, durationMs: 1, detail: null } }];
      });
      expect(first.length).toBeGreaterThan(1);
      expect(first[0]!.resource).toBe("batch/run1");
      const later: DueDelivery[] = [];
      for (let round = 0; round < 4; round++) later.push(...(await claim(store, 10_000)));
      // Each event once: the one reported delivered, the others afterwards, none counted as attempted.
      expect(later).toHaveLength(3);
      expect(new Set([first[0]!.eventId, ...later.map((d) => d.eventId)]).size).toBe(4);
      for (const d of first.slice(1)) expect(later.map((l) => l.eventId)).toContain(d.eventId);
      expect(later.every((d) => d.attempts === 0)).toBe(true);
      expect((await store.webhooks(USER)).map((w) => w.pending)).toEqual([0, 0]);
    });

    test("since when something waits: nothing, then the oldest event's time, then the earliest retry's", async () => {
      expect(await store.deliveriesWaitingSince()).toBeUndefined();
      await store.insert(USER, "batch", { _id: "w1", name: "W1" });
      const since = await store.deliveriesWaitingSince();
      expect(since).toBeGreaterThan(1000);
      await store.insert(USER, "batch", { _id: "w2", name: "W2" });
      expect(await store.deliveriesWaitingSince()).toBe(since);
      expect(await claim(store, 40_000, "retry")).toHaveLength(2);
      expect(await store.deliveriesWaitingSince()).toBe(40_500);
      expect(await claim(store, 40_500)).toHaveLength(2);
      expect(await store.deliveriesWaitingSince()).toBeUndefined();
    });

    test("events recorded and not yet delivered are listed as pending", async () => {
      await store.insert(USER, "batch", { _id: "p1", name: "Pending" });
      await store.setFields(USER, "batch", "p1", { status: "Brewing" });
      await Promise.all([store.setFields(USER, "batch", "p1", { status: "Fermenting" }), store.insert(USER, "recipe", { _id: "p2", name: "Also" })]);
      expect((await store.webhooks(USER)).map((w) => [w.id, w.pending])).toEqual([["wh-batches", 3], ["wh-recipes", 1]]);
      const delivered: string[] = [];
      for (let round = 0; round < 4; round++) delivered.push(...(await claim(store, 50_000)).map((d) => d.type));
      expect(delivered.sort()).toEqual(["batch.created", "batch.updated", "batch.updated", "recipe.created"]);
      expect((await store.webhooks(USER)).map((w) => w.pending)).toEqual([0, 0]);
    });

    test("writes made together record the events of those that happened, in the order they were made", async () => {
      await store.insert(USER, "batch", { _id: "g1", name: "Group" });
      await claim(store, 50_000);
      // One turn: on SQLite these share a transaction, the failing one rolled back alone.
      const writes = [
        store.setFields(USER, "batch", "g1", { status: "Brewing" }),
        Promise.resolve().then(() => store.update(USER, "batch", "g1", () => { throw new Error("refused"); })),
        store.setFields(USER, "batch", "g1", { status: "Fermenting" }),
        store.setFields(USER, "batch", "g1", { status: "Conditioning" }),
      ];
      const settled = await Promise.allSettled(writes);
      expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
      const order: unknown[] = [];
      for (let round = 0; round < 4; round++) for (const d of await claim(store, 50_000)) order.push(JSON.parse(d.payload).n);
      expect(order).toHaveLength(3);
      expect(order).toEqual([...order].sort((a, b) => Number(a) - Number(b)));
      // PostgreSQL runs them in transactions of their own: they may take the row in another order.
      const statuses = seen.filter((c) => c.kind === "batch" && c.id === "g1" && c.set).map((c) => String((c as { set?: { status?: unknown } }).set?.status));
      expect(statuses.sort()).toEqual(["Brewing", "Conditioning", "Fermenting"]);
    });

    test("a hook that throws refuses its own write alone: the others of its turn commit with their events", async () => {
      await store.insert(USER, "batch", { _id: "h1", name: "Hooked" });
      await claim(store, 50_000);
      const normal = recordingHook(seen);
      store.setOutbox((userId, change, wanted) => {
        if (change.kind === "batch" && (change as { set?: { status?: unknown } }).set?.status === "Boom") throw new Error("hook failed");
        return normal(userId, change, wanted);
      });
      try {
        const settled = await Promise.allSettled([
          store.setFields(USER, "batch", "h1", { status: "Brewing" }),
          store.setFields(USER, "batch", "h1", { status: "Boom" }),
          store.setFields(USER, "batch", "h1", { batchNo: 7 }),
        ]);
        expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
        expect(String((settled[1] as PromiseRejectedResult).reason)).toContain("hook failed");
        expect(JSON.parse((await store.get(USER, "batch", "h1"))!)).toMatchObject({ status: "Brewing", batchNo: 7 });
        const claimed = [];
        for (let round = 0; round < 3; round++) claimed.push(...(await claim(store, 50_000)));
        expect(claimed.map((d) => [d.type, d.resource])).toEqual([["batch.updated", "batch/h1"], ["batch.updated", "batch/h1"]]);
      } finally {
        store.setOutbox(recordingHook(seen));
      }
    });

    test("many events of few resources come out once each, in order per resource, however few a round claims", async () => {
      // Each event names its resource and when it was made.
      let made = 0;
      store.setOutbox((_userId, change, wanted) => {
        if (change.kind === "reading" || !wanted.has("batch.updated") || change.before === undefined || change.after === undefined) return [];
        const n = ++made;
        return [{ type: "batch.updated", resource: `batch/${change.id}`, createdAt: 1000, account: USER, data: { resource: change.id, n } }];
      });
      try {
        const ids = ["m1", "m2", "m3"];
        for (const id of ids) await store.insert(USER, "batch", { _id: id, name: id });
        const writes: unknown[] = [];
        for (let i = 0; i < 60; i++) writes.push(store.setFields(USER, "batch", ids[i % 3]!, { batchNo: i }));
        await Promise.all(writes);
        const byResource = new Map<string, number[]>();
        const ids_: string[] = [];
        for (let round = 0; round < 200; round++) {
          const due = await claim(store, 60_000, "delivered", 2);
          if (due.length === 0) break;
          for (const d of due) {
            const { resource, n } = JSON.parse(d.payload).data as { resource: string; n: number };
            byResource.set(resource, [...(byResource.get(resource) ?? []), n]);
            ids_.push(d.eventId);
          }
        }
        expect(ids_).toHaveLength(60);
        expect(new Set(ids_).size).toBe(60);
        for (const ns of byResource.values()) {
          expect(ns).toHaveLength(20);
          expect(ns).toEqual([...ns].sort((a, b) => a - b));
        }
        expect((await store.webhooks(USER)).map((w) => w.pending)).toEqual([0, 0]);
      } finally {
        store.setOutbox(recordingHook(seen));
      }
    });

    test("a payload is made of the event's parts, its data and document coming out character for character", async () => {
      const documents = [
        JSON.stringify({ name: "Brü \"quoted\" \\ back\u2028line \u0000 \ud800 end", n: 1.5, big: 1e21, neg: -0.000001, list: [null, true, {}] }),
        '{"document":{"_id":"x","n":1.50,"s":"\\u00e9 é"}}',
      ];
      const data = { kind: "batch", note: "ü \u2028 \"q\"", n: 1e21 };
      let i = 0;
      store.setOutbox((_userId, change, wanted) =>
        change.kind !== "reading" && wanted.has("batch.updated") && change.before !== undefined && change.after !== undefined
          ? [{ type: "batch.updated", resource: `batch/${change.id}`, createdAt: 1000 + i, account: "Ålice \"a\"", data, document: documents[i++ % documents.length]! }]
          : [],
      );
      try {
        await store.insert(USER, "batch", { _id: "t1", name: "Text" });
        await store.setFields(USER, "batch", "t1", { batchNo: 1 });
        await store.setFields(USER, "batch", "t1", { batchNo: 2 });
        const payloads: string[] = [];
        for (let round = 0; round < 4; round++) payloads.push(...(await claim(store, 70_000)).map((d) => d.payload));
        const head = (ms: number) => `{"type":"batch.updated","timestamp":"1970-01-01T00:00:01.00${ms}Z","data":{"account":"Ålice \\"a\\"","kind":"batch","note":"ü \u2028 \\"q\\"","n":1e+21,"document":`;
        expect(payloads).toEqual([`${head(0)}${documents[0]}}}`, `${head(1)}${documents[1]}}}`]);
      } finally {
        store.setOutbox(recordingHook(seen));
      }
    });

    test("an event two subscriptions want is delivered to each with the same id and payload", async () => {
      await store.addWebhook(hookRow("wh-twin", ["batch.created"]));
      try {
        await store.insert(USER, "batch", { _id: "twin", name: "Twin" });
        const due = await claim(store, 80_000);
        expect(due.map((d) => [d.webhookId, d.type, d.resource])).toEqual([
          ["wh-batches", "batch.created", "batch/twin"],
          ["wh-twin", "batch.created", "batch/twin"],
        ]);
        expect(due[1]!.eventId).toBe(due[0]!.eventId);
        expect(due[1]!.payload).toBe(due[0]!.payload);
        expect(due[0]!.eventId).toMatch(/^msg_[\w-]{22}$/);
      } finally {
        await store.removeWebhook(USER, "wh-twin");
      }
    });

    test("an event recorded for one subscription goes to it alone, whatever types it wants, and never to another account's", async () => {
      const event = { type: "webhook.test", resource: "webhook/wh-recipes", createdAt: 90_000, account: USER, data: { kind: "webhook", id: "wh-recipes" } };
      expect(await store.recordWebhookEvent("bob", "wh-recipes", event)).toBeUndefined();
      expect(await store.recordWebhookEvent(USER, "wh-none", event)).toBeUndefined();
      const id = await store.recordWebhookEvent(USER, "wh-recipes", event);
      expect(id).toMatch(/^msg_[\w-]{22}$/);
      const due = await claim(store, 90_000);
      expect(due.map((d): unknown[] => [d.webhookId, d.eventId, d.type, d.resource, d.payload])).toEqual([
        ["wh-recipes", id, "webhook.test", "webhook/wh-recipes", '{"type":"webhook.test","timestamp":"1970-01-01T00:01:30.000Z","data":{"account":"alice","kind":"webhook","id":"wh-recipes"}}'],
      ]);
      expect(await claim(store, 90_000)).toEqual([]);
    });

    test("a subscription's url and events change in place: its waiting events stay, the next write counts the new events", async () => {
      await store.addWebhook(hookRow("wh-moved", ["recipe.deleted"]));
      try {
        await store.insert(USER, "recipe", { _id: "mv1", name: "Moved" });
        await store.remove(USER, "recipe", "mv1");
        expect(await store.updateWebhook("bob", "wh-moved", { url: "https://example.com/stolen" })).toBe(false);
        expect(await store.updateWebhook(USER, "wh-none", { url: "https://example.com/none" })).toBe(false);
        expect(await store.updateWebhook(USER, "wh-moved", { url: "https://example.com/moved", events: ["recipe.created", "recipe.deleted"] })).toBe(true);
        await store.insert(USER, "recipe", { _id: "mv2", name: "Moved 2" });
        expect(await store.updateWebhook(USER, "wh-moved", { events: ["batch.created"] })).toBe(true);
        await store.insert(USER, "recipe", { _id: "mv3", name: "Moved 3" });
        const listed = (await store.webhooks(USER)).find((w) => w.id === "wh-moved")!;
        expect([listed.url, listed.events, listed.pending]).toEqual(["https://example.com/moved", ["batch.created"], 2]);
        const due = (await claim(store, 95_000)).filter((d) => d.webhookId === "wh-moved");
        expect(due.map((d) => [d.type, d.resource, d.url])).toEqual([["recipe.deleted", "recipe/mv1", "https://example.com/moved"], ["recipe.created", "recipe/mv2", "https://example.com/moved"]]);
      } finally {
        await store.removeWebhook(USER, "wh-moved");
      }
    });

    test("a new secret: a due delivery carries it and, until the time given, the one it replaced; never for another account", async () => {
      await store.addWebhook(hookRow("wh-rotated", ["recipe.deleted"]));
      try {
        const event = { type: "webhook.test", resource: "webhook/wh-rotated", createdAt: 96_000, account: USER, data: { kind: "webhook", id: "wh-rotated" } };
        const dueOf = async (at: number) => {
          await store.recordWebhookEvent(USER, "wh-rotated", { ...event, createdAt: at });
          const [d] = (await claim(store, at)).filter((x) => x.webhookId === "wh-rotated");
          return [d!.sealedSecret, d!.previousSealedSecret, d!.previousUntil];
        };
        expect(await dueOf(96_000)).toEqual(["sealed", undefined, undefined]);
        expect(await store.rotateWebhookSecret("bob", "wh-rotated", "sealed-2", 123_456)).toBe(false);
        expect(await store.rotateWebhookSecret(USER, "wh-none", "sealed-2", 123_456)).toBe(false);
        expect(await store.rotateWebhookSecret(USER, "wh-rotated", "sealed-2", 123_456)).toBe(true);
        expect(await dueOf(97_000)).toEqual(["sealed-2", "sealed", 123_456]);
        // A second rotation: the first secret no longer signs.
        expect(await store.rotateWebhookSecret(USER, "wh-rotated", "sealed-3", 234_567)).toBe(true);
        expect(await dueOf(98_000)).toEqual(["sealed-3", "sealed-2", 234_567]);
        expect(JSON.stringify(await store.webhooks(USER))).not.toContain("sealed");
      } finally {
        await store.removeWebhook(USER, "wh-rotated");
      }
    });

    test("subscriptions are listed without their secrets, and deleting one takes its events with it", async () => {
      const listed = await store.webhooks(USER);
      expect(listed.map((w) => w.id)).toEqual(["wh-batches", "wh-recipes"]);
      expect(JSON.stringify(listed)).not.toContain("sealed");
      await store.insert(USER, "batch", { _id: "b6", name: "Six" });
      expect(await store.removeWebhook("bob", "wh-batches")).toBe(false);
      expect(await store.removeWebhook(USER, "wh-batches")).toBe(true);
      expect(await store.removeWebhook(USER, "wh-batches")).toBe(false);
      expect(await claim(store, 40_000)).toEqual([]);
      expect(await store.webhookAttempts(USER, "wh-batches")).toEqual([]);
    });
  });
}

test("sqlite: four delivery rounds at once, holding no connection", async () => {
  const store = SqliteStore.open(":memory:");
  try {
    expect(store.deliveryRoundsAtOnce).toBe(4);
  } finally {
    await store.close();
  }
});

if (STORE_KINDS.includes("postgres")) {
  test("postgres: delivery rounds at once are a third of the pool at most (`?max=`), so requests keep the rest", async () => {
    const db = await freshPostgres();
    const stores = [PostgresStore.open(db.url), PostgresStore.open(`${db.url}${db.url.includes("?") ? "&" : "?"}max=6`), PostgresStore.open(`${db.url}${db.url.includes("?") ? "&" : "?"}max=2`)];
    try {
      expect(stores.map((s) => s.deliveryRoundsAtOnce)).toEqual([3, 2, 1]);
    } finally {
      for (const s of stores) await s.close();
      await db.drop();
    }
  }, 30_000);

  test("postgres: two instances claiming at once never claim one row twice, and a rolled-back claim leaves its rows", async () => {
    const db = await freshPostgres();
    const a = PostgresStore.open(db.url);
    const b = PostgresStore.open(db.url);
    try {
      await Promise.all([a.ready, b.ready]);
      a.setOutbox(recordingHook([]));
      await a.createUser(USER, null);
      await a.addWebhook(hookRow("wh", ["batch.created"]));
      for (let i = 0; i < 40; i++) await a.insert(USER, "batch", { _id: `p${i}`, name: `P${i}` });
      // Each instance holds its claim while the other claims.
      const hold = Promise.withResolvers<void>();
      const claimedBy = (store: Store) =>
        store.deliverDue(10_000_000_000_000, 25, async (due) => {
          await hold.promise;
          return due.map((d) => ({ seq: d.seq, result: "delivered" as const, attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: 1, status: 200, durationMs: 1, detail: null } }));
        });
      const first = claimedBy(a);
      await Bun.sleep(200);
      const second = claimedBy(b);
      await Bun.sleep(200);
      hold.resolve();
      expect([await first, await second]).toEqual([25, 15]);
      // A claim whose delivery throws rolls back: its rows stay for the next.
      await a.insert(USER, "batch", { _id: "late", name: "Late" });
      await expect(a.deliverDue(10_000_000_000_000, 5, async () => { throw new Error("instance died"); })).rejects.toThrow("instance died");
      expect(await b.deliverDue(10_000_000_000_000, 5, async (due) => due.map((d) => ({ seq: d.seq, result: "delivered" as const, attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: 1, status: 200, durationMs: 1, detail: null } })))).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  }, 30_000);
}

test("sqlite: a subscription added or removed through another connection counts from the next write after the epoch bound", async () => {
  const dir = tempDir();
  const path = `${dir.path}/hooks.sqlite`;
  const served = SqliteStore.open(path);
  const other = SqliteStore.open(path);
  try {
    served.setOutbox(recordingHook([]));
    await served.createUser(USER, null);
    // The served store has read the account's (empty) subscriptions before the other connection adds one.
    await served.insert(USER, "batch", { _id: "before", name: "Before" });
    await other.addWebhook(hookRow("wh-other", ["batch.created"]));
    await Bun.sleep(KEYS_EPOCH_MAX_AGE_MS + 5);
    await served.insert(USER, "batch", { _id: "after", name: "After" });
    expect((await claim(served, 10_000)).map((d) => d.type)).toEqual(["batch.created"]);
    // Its own removal is seen at once; one through the other connection after the bound.
    await served.addWebhook(hookRow("wh-own", ["batch.created"]));
    await served.insert(USER, "batch", { _id: "two", name: "Two" });
    expect((await claim(served, 20_000)).map((d) => d.webhookId).sort()).toEqual(["wh-other", "wh-own"]);
    expect(await other.removeWebhook(USER, "wh-other")).toBe(true);
    expect(await served.removeWebhook(USER, "wh-own")).toBe(true);
    await Bun.sleep(KEYS_EPOCH_MAX_AGE_MS + 5);
    await served.insert(USER, "batch", { _id: "none", name: "None" });
    expect(await claim(served, 30_000)).toEqual([]);
  } finally {
    await served.close();
    await other.close();
    dir.remove();
  }
});

test("sqlite: writes made together record one compressed row, each event once with the subscriptions that want it", () =>
  onSqliteFile("row", async (store) => {
    store.setOutbox(recordingHook([]));
    await store.createUser(USER, null);
    await store.addWebhook(hookRow("wh-1", ["batch.updated"]));
    await store.addWebhook(hookRow("wh-2", ["batch.updated"]));
    const summary = { name: "A batch with a name of some length", status: "Fermenting", brewer: "Somebody" };
    for (let i = 0; i < 20; i++) await store.insert(USER, "batch", { _id: `g${i}`, ...summary, batchNo: i });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.setFields(USER, "batch", `g${i}`, { measuredOg: 1.05 + i / 1000 })));
    const rows = store.db.query("SELECT count, counts, at, events FROM webhook_events").all() as Array<{ count: number; counts: string; at: number; events: Uint8Array }>;
    expect(rows.map((r) => [r.count, JSON.parse(r.counts), r.events instanceof Uint8Array])).toEqual([[40, { "wh-1": 20, "wh-2": 20 }, true]]);
    const text = Bun.zstdDecompressSync(rows[0]!.events).toString();
    const events = JSON.parse(text) as unknown[][];
    expect(events.map((e) => [e[0], e[1], e[2]])).toEqual(Array.from({ length: 20 }, (_, i) => [["wh-1", "wh-2"], "batch.updated", `batch/g${i}`]));
    expect(rows[0]!.at).toBe(events[0]![3] as number);
    expect(rows[0]!.events.length).toBeLessThan(text.length / 3);
    const due = await claim(store, Date.now() + 1000);
    expect(due).toHaveLength(40);
    expect(due.filter((d) => d.webhookId === "wh-1").map((d) => d.eventId)).toEqual(due.filter((d) => d.webhookId === "wh-2").map((d) => d.eventId));
  }));

test("sqlite: a group's row keeps each event's own type and account when they change from event to event", () =>
  onSqliteFile("mixed", async (store) => {
    store.setOutbox(recordingHook([]));
    await store.createUser(USER, null);
    await store.createUser("bob", null);
    await store.addWebhook(hookRow("wh-a", ["batch.created", "batch.updated"]));
    await store.addWebhook(hookRow("wh-b", ["batch.updated"], "bob"));
    await store.insert(USER, "batch", { _id: "a1", name: "A" });
    await store.insert("bob", "batch", { _id: "b1", name: "B" });
    store.db.exec("DELETE FROM webhook_events");
    // One group: alice creates, bob updates, alice updates, bob updates, alice creates.
    await Promise.all([
      store.insert(USER, "batch", { _id: "a2", name: "A2" }),
      store.setFields("bob", "batch", "b1", { name: "B'" }),
      store.setFields(USER, "batch", "a1", { name: "A'" }),
      store.setFields("bob", "batch", "b1", { name: "B''" }),
      store.insert(USER, "batch", { _id: "a3", name: "A3" }),
    ]);
    const rows = store.db.query("SELECT events FROM webhook_events").all() as Array<{ events: Uint8Array }>;
    expect(rows).toHaveLength(1);
    const events = JSON.parse(Bun.zstdDecompressSync(rows[0]!.events).toString()) as unknown[][];
    expect(events.map((e) => [e[0], e[1], e[2], e[4]])).toEqual([
      [["wh-a"], "batch.created", "batch/a2", USER],
      [["wh-b"], "batch.updated", "batch/b1", "bob"],
      [["wh-a"], "batch.updated", "batch/a1", USER],
      [["wh-b"], "batch.updated", "batch/b1", "bob"],
      [["wh-a"], "batch.created", "batch/a3", USER],
    ]);
    const due = await claim(store, Date.now() + 1000);
    expect(due.map((d) => [d.webhookId, d.type, (JSON.parse(d.payload) as { data: { account: string } }).data.account])).toEqual([
      ["wh-a", "batch.created", USER],
      ["wh-b", "batch.updated", "bob"],
      ["wh-a", "batch.updated", USER],
      ["wh-b", "batch.updated", "bob"],
      ["wh-a", "batch.created", USER],
    ]);
  }));

test("sqlite: the outbox tells a waiting listener once a group of writes has committed, and a listener not waiting nothing", () =>
  onSqliteFile("told", async (store, path) => {
    const other = new Database(path, { readonly: true });
    try {
      // What another connection sees when the listener is told: only what has committed.
      const told: number[] = [];
      let waiting = true;
      installOutbox(store, { nudge: () => told.push((other.query("SELECT count(*) AS n FROM webhook_events").get() as { n: number }).n), waiting: () => waiting });
      await store.createUser(USER, null);
      await store.addWebhook(hookRow("wh-1", ["batch.created", "batch.updated"]));
      await Promise.all(Array.from({ length: 5 }, (_, i) => store.insert(USER, "batch", { _id: `t${i}`, name: `T${i}` })));
      await Bun.sleep(20);
      expect(told).toEqual([1]);
      waiting = false;
      await Promise.all(Array.from({ length: 5 }, (_, i) => store.setFields(USER, "batch", `t${i}`, { name: `U${i}` })));
      await Bun.sleep(20);
      expect(told).toEqual([1]);
      expect((other.query("SELECT count(*) AS n FROM webhook_events").get() as { n: number }).n).toBe(2);
      waiting = true;
      await store.setFields(USER, "batch", "t0", { name: "V" });
      await Bun.sleep(20);
      expect(told).toEqual([1, 3]);
    } finally {
      other.close();
    }
  }));
