import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { ERRORS } from "../../src/http/errors.ts";
import { destinationRefusal, isPublicAddress, RESOLVE_MS } from "../../src/webhooks/destination.ts";
import { changedMembers, eventsOf, EVENT_TYPES, scopeOfEvent } from "../../src/webhooks/events.ts";
import { messageOf, newEventId, payloadText } from "../../src/store/outbox.ts";
import { afterFailure, busy, caughtUp, late, retryDelayMs, runsOf } from "../../src/webhooks/schedule.ts";
import { DELIVERY_ROUNDS, deliveryRoundsFor, dueInOrder, runKey, settlements, type QueuedRow } from "../../src/store/outbox.ts";
import { ATTEMPTS_KEPT, type DeliveryOutcome } from "../../src/store/types.ts";
import { newSecret, signedHeaders } from "../../src/webhooks/signing.ts";

// The rules of webhooks as plain functions: the Standard Webhooks signature (checked with the reference
// library receivers use), the backoff schedule, which destinations are refused, and the events of a change.

const ALL = new Set<string>(EVENT_TYPES);

describe("signing", () => {
  test("a signed delivery verifies with the standardwebhooks library, and a changed body does not", () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: "batch.updated", data: { id: "b1" } });
    const headers = signedHeaders([secret], "msg_1", Date.now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("b1", "b2"), headers)).toThrow();
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  test("signed with a new and a previous secret, a delivery verifies with either, and with no other", () => {
    const [current, previous] = [newSecret(), newSecret()];
    const body = JSON.stringify({ type: "webhook.test", data: { id: "wh_1" } });
    const headers = signedHeaders([current, previous], "msg_2", Date.now(), body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  test("two secrets are never alike", () => {
    expect(new Set(Array.from({ length: 50 }, newSecret)).size).toBe(50);
  });
});

describe("backoff", () => {
  test("waits grow fourfold from the base up to 4096 bases", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 10].map((n) => retryDelayMs(n, 5000) / 5000)).toEqual([1, 4, 16, 64, 256, 1024, 4096, 4096, 4096]);
  });

  test("with the defaults (5 s, 11 attempts) the last attempt comes about a day after the first", () => {
    let waited = 0;
    for (let n = 1; n < 11; n++) waited += retryDelayMs(n, 5000);
    expect(waited / 3_600_000).toBeCloseTo(24.65, 1);
  });

  test("the last allowed attempt gives up; earlier ones retry at their time", () => {
    expect(afterFailure(1, 1000, 10, 3)).toEqual({ result: "retry", retryAt: 1010 });
    expect(afterFailure(2, 1000, 10, 3)).toEqual({ result: "retry", retryAt: 1040 });
    expect(afterFailure(3, 1000, 10, 3)).toEqual({ result: "given-up" });
  });
});

describe("giving way to requests", () => {
  const now = 1_000_000;
  test("what waits is late once it has waited longer than the lag; nothing waiting is never late", () => {
    expect(late(now - 5000, now, 5000)).toBe(false);
    expect(late(now - 5001, now, 5000)).toBe(true);
    expect(late(now + 60_000, now, 5000)).toBe(false);
    expect(late(undefined, now, 5000)).toBe(false);
  });
  test("catching up ends with a round whose oldest new event is recent, or that claimed none", () => {
    expect(caughtUp(now - 250, now, 250)).toBe(true);
    expect(caughtUp(now - 251, now, 250)).toBe(false);
    expect(caughtUp(undefined, now, 250)).toBe(true);
  });
  test("busy is a hundred requests a second or more, over however long the worker looked away", () => {
    expect(busy(25, 250)).toBe(true);
    expect(busy(24, 250)).toBe(false);
    expect(busy(500, 1000)).toBe(true);
    expect(busy(4, 1000)).toBe(false);
    expect(busy(0, 0)).toBe(false);
    expect(busy(1, 0)).toBe(true);
  });
});

describe("settling a round", () => {
  type State = { attempts: string[]; failing: number | null };
  // The outcomes applied one after another, as each was recorded before rounds were settled at once.
  const oneByOne = (start: State, outcomes: DeliveryOutcome[]): State => {
    const s = { attempts: [...start.attempts], failing: start.failing };
    for (const o of outcomes) {
      s.attempts = [...s.attempts, o.attempt.eventId].slice(-ATTEMPTS_KEPT);
      if (o.result === "given-up") s.failing ??= o.attempt.at;
      if (o.result === "delivered") s.failing = null;
    }
    return s;
  };
  const atOnce = (start: State, outcomes: DeliveryOutcome[]): State => {
    const [settled] = settlements(outcomes);
    const failing = settled.failing === undefined ? start.failing : settled.failing === null ? null : settled.failing.keepEarlier ? (start.failing ?? settled.failing.since) : settled.failing.since;
    return { attempts: [...start.attempts, ...settled.attempts.map((a) => a.eventId)].slice(-ATTEMPTS_KEPT), failing };
  };
  const outcome = (n: number, result: DeliveryOutcome["result"]): DeliveryOutcome => ({
    seq: n, result, attempt: { webhookId: "wh_1", eventId: `msg_${n}`, type: "batch.updated", at: 1000 + n, status: result === "delivered" ? 204 : 500, durationMs: 1, detail: null },
  });

  test("keeps what recording each outcome in turn keeps: the last attempts, and the failing state", () => {
    const results = ["delivered", "retry", "given-up"] as const;
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 500; run++) {
      const outcomes = Array.from({ length: 1 + Math.floor(random() * 40) }, (_, i) => outcome(i, results[Math.floor(random() * 3)]!));
      const start: State = { attempts: Array.from({ length: Math.floor(random() * 25) }, (_, i) => `old_${i}`), failing: random() < 0.5 ? null : 5 };
      expect(atOnce(start, outcomes)).toEqual(oneByOne(start, outcomes));
    }
  });

  test("one settlement per subscription, each with its own attempts in order", () => {
    const a = outcome(1, "delivered");
    const b = { ...outcome(2, "given-up"), attempt: { ...outcome(2, "given-up").attempt, webhookId: "wh_2" } };
    const c = outcome(3, "retry");
    expect(settlements([a, b, c]).map((s) => [s.webhookId, s.attempts.map((x) => x.eventId), s.failing])).toEqual([
      ["wh_1", ["msg_1", "msg_3"], null],
      ["wh_2", ["msg_2"], { since: 1002, keepEarlier: true }],
    ]);
  });
});

describe("deliveries due", () => {
  const row = (seq: number, resource: string, nextAt: number, webhook = "wh_1"): QueuedRow => ({ seq, webhook_id: webhook, resource, next_at: nextAt });

  test("each resource's events of each subscription in outbox order, up to the first whose time has not come", () => {
    const rows = [row(1, "batch/a", 50), row(2, "batch/a", 0), row(3, "batch/b", 0), row(4, "batch/a", 0, "wh_2"), row(5, "batch/c", 200), row(6, "batch/b", 0), row(7, "batch/d", 0)];
    expect(dueInOrder(rows, 100, 10)).toEqual([1, 2, 3, 4, 6, 7]);
    // A later event waits behind an earlier one being retried, whether or not its own time has come.
    expect(dueInOrder(rows, 10, 10)).toEqual([3, 4, 6, 7]);
    expect(dueInOrder(rows, 100, 2)).toEqual([1, 2]);
    expect(dueInOrder(rows, 100, 0)).toEqual([]);
    // A run another round holds is left whole, later events included; the same resource of another subscription is not.
    expect(dueInOrder(rows, 100, 10, new Set([runKey("wh_1", "batch/a"), runKey("wh_1", "batch/c")]))).toEqual([3, 4, 6, 7]);
    expect(dueInOrder(rows, 100, 10, new Set([runKey("wh_2", "batch/a")]))).toEqual([1, 2, 3, 6, 7]);
    // A subscription skipped (an attempt of its still under way) is left whole.
    expect(dueInOrder(rows, 100, 10, undefined, new Set(["wh_1"]))).toEqual([4]);
  });

  test("stops reading at the limit", () => {
    let read = 0;
    function* counted() {
      for (let i = 1; i <= 1000; i++) {
        read++;
        yield row(i, `batch/${i}`, 0);
      }
    }
    expect(dueInOrder(counted(), 0, 3)).toEqual([1, 2, 3]);
    expect(read).toBe(3);
  });

  test("any rows: those due whose earlier rows of the same subscription and resource are all due, in no run held nor subscription skipped, the first `limit` by seq", () => {
    const rows = fc.uniqueArray(
      fc.record({ seq: fc.integer({ min: 1, max: 500 }), webhook: fc.constantFrom("wh_1", "wh_2"), resource: fc.constantFrom("batch/a", "batch/b", "recipe/c"), nextAt: fc.integer({ min: 0, max: 20 }) }),
      { selector: (r) => r.seq, maxLength: 60 },
    );
    fc.assert(
      fc.property(rows, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 8 }), fc.subarray(["wh_1 batch/a", "wh_2 recipe/c", "wh_1 batch/b"]), fc.subarray(["wh_1", "wh_2"]), (list, now, limit, heldRuns, skipped) => {
        const held = new Set(heldRuns);
        const skip = new Set(skipped);
        const queued = list.map((r) => row(r.seq, r.resource, r.nextAt, r.webhook)).sort((a, b) => a.seq - b.seq);
        const earlier = (d: QueuedRow) => queued.filter((p) => p.webhook_id === d.webhook_id && p.resource === d.resource && p.seq < d.seq);
        const expected = queued
          .filter((d) => !held.has(runKey(d.webhook_id, d.resource)) && !skip.has(d.webhook_id) && d.next_at <= now && earlier(d).every((p) => p.next_at <= now))
          .slice(0, limit)
          .map((d) => d.seq);
        expect(dueInOrder(queued, now, limit, held, skip)).toEqual(expected);
      }),
    );
  });

  test("rounds at once: four, and on a pool of connections a third of it at most, never none", () => {
    expect(DELIVERY_ROUNDS).toBe(4);
    expect([1, 2, 3, 5, 6, 9, 10, 12, 100, 1000].map(deliveryRoundsFor)).toEqual([1, 1, 1, 1, 2, 3, 3, 4, 4, 4]);
  });

  test("runs: the due deliveries by subscription and resource, each in order, in the order their first came", () => {
    const due = (seq: number, resource: string, webhookId = "wh_1") =>
      ({ seq, webhookId, resource, url: "https://example.com/", sealedSecret: "s", eventId: `msg_${seq}`, type: "batch.updated", payload: "{}", attempts: 0, createdAt: seq });
    const runs = runsOf([due(1, "batch/a"), due(2, "batch/b"), due(3, "batch/a", "wh_2"), due(4, "batch/a"), due(5, "batch/b")]);
    expect(runs.map((r) => r.map((d) => d.seq))).toEqual([[1, 4], [2, 5], [3]]);
    expect(runsOf([])).toEqual([]);
  });
});

describe("destinations", () => {
  const inside = ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1",
    "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "ff02::1"];
  const outside = ["93.184.215.14", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"];
  test.each(inside)("%s is not a public address", (ip) => expect(isPublicAddress(ip)).toBe(false));
  test.each(outside)("%s is a public address", (ip) => expect(isPublicAddress(ip)).toBe(true));

  const resolveTo = (addresses: string[]) => async () => addresses;
  test.each([
    ["not a url", ERRORS.invalidWebhookUrl],
    ["ftp://example.com/x", ERRORS.invalidWebhookUrl],
    ["http://example.com/hook", ERRORS.webhookNotHttps],
    ["https://10.0.0.5/hook", ERRORS.webhookRefusedAddress("10.0.0.5", "10.0.0.5")],
    ["https://[::1]:8443/hook", ERRORS.webhookRefusedAddress("::1", "::1")],
    ["https://169.254.169.254/latest/meta-data", ERRORS.webhookRefusedAddress("169.254.169.254", "169.254.169.254")],
  ])("%s is refused: %s", async (url, message) => {
    expect(await destinationRefusal(url, [], resolveTo(["93.184.215.14"]))).toBe(message);
  });

  test("a name is refused when any of its addresses is inside, and when it does not resolve", async () => {
    expect(await destinationRefusal("https://hooks.example/x", [], resolveTo(["93.184.215.14", "192.168.0.9"]))).toBe(ERRORS.webhookRefusedAddress("hooks.example", "192.168.0.9"));
    expect(await destinationRefusal("https://hooks.example/x", [], async () => { throw new Error("ENOTFOUND"); })).toBe(ERRORS.webhookUnresolvable("hooks.example"));
    expect(await destinationRefusal("https://hooks.example/x", [], resolveTo(["93.184.215.14"]))).toBeUndefined();
  });

  test("a name that does not resolve in time is refused at the limit (settledWithin, whose timer ends with the lookup)", async () => {
    const started = performance.now();
    expect(await destinationRefusal("https://silent.example/x", [], () => new Promise(() => {}), 50)).toBe(ERRORS.webhookResolveTimeout("silent.example", 50));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(ERRORS.webhookResolveTimeout("silent.example", RESOLVE_MS)).toBe("Invalid url: silent.example does not resolve within 5 s");
  });

  test("an allowed host may be plain HTTP on loopback; its neighbours are still refused", async () => {
    expect(await destinationRefusal("http://127.0.0.1:9999/hook", ["127.0.0.1"])).toBeUndefined();
    expect(await destinationRefusal("http://localhost:9999/hook", ["127.0.0.1"])).toBe(ERRORS.webhookNotHttps);
    expect(await destinationRefusal("https://localhost:9999/hook", ["127.0.0.1"])).toBe(ERRORS.webhookRefusedAddress("localhost", "127.0.0.1"));
  });
});

describe("events", () => {
  const batch = (fields: Record<string, unknown>) => JSON.stringify({ _id: "b1", name: "Pale", ...fields });

  test("each event type needs the read scope of its kind", () => {
    expect(Object.fromEntries(EVENT_TYPES.map((t) => [t, scopeOfEvent(t)]))).toEqual({
      "batch.created": "batches.read", "batch.updated": "batches.read", "batch.deleted": "batches.read", "reading.created": "batches.read",
      "recipe.created": "recipes.read", "recipe.updated": "recipes.read", "recipe.deleted": "recipes.read",
      "inventory.created": "inventory.read", "inventory.updated": "inventory.read", "inventory.deleted": "inventory.read", "inventory.negative": "inventory.read",
    });
  });

  test("the payload splices the stored document in as it is", () => {
    const text = payloadText("batch.updated", Date.UTC(2025, 0, 2), "alice", '{"kind":"batch","id":"b1"}', '{"_id":"b1","n":1.50}');
    expect(text).toBe('{"type":"batch.updated","timestamp":"2025-01-02T00:00:00.000Z","data":{"account":"alice","kind":"batch","id":"b1","document":{"_id":"b1","n":1.50}}}');
  });

  test("the payload is the JSON of its type, time and data, the account first", () => {
    // Members are named by the server (kind, id, changed…): never `account`, never an array index.
    const data = fc.dictionary(fc.string().filter((k) => k !== "account" && !/^(0|[1-9]\d*)$/.test(k)), fc.jsonValue(), { maxKeys: 6 });
    fc.assert(
      fc.property(fc.constantFrom(...EVENT_TYPES), fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.string(), data, (type, at, account, members) => {
        expect(payloadText(type, at, account, JSON.stringify(members))).toBe(JSON.stringify({ type, timestamp: new Date(at).toISOString(), data: { account, ...members } }));
      }),
    );
  });

  test("event ids differ from one another, across the blocks they are cut from", () => {
    const ids = Array.from({ length: 5000 }, newEventId);
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids) expect(id).toMatch(/^msg_[\w-]{22}$/);
    // 5,000 ids span 77 blocks of 65: every character of the alphabet turns up in every position.
    for (let at = 4; at < 26; at++) expect(new Set(ids.map((id) => id[at])).size).toBe(64);
  });

  // A write that changed nothing is not handed to the hook at all (StoreChange; test/webhooks/store.test.ts).
  test("an update names the members that changed with their values, bookkeeping left out", () => {
    expect(changedMembers({ a: 1, b: [1], c: 3, _rev: "x" }, { a: 1, b: [2], d: 4, _rev: "y" })).toEqual({ b: [2], d: 4, c: null });
    const [event] = eventsOf("alice", { kind: "batch", id: "b1", before: batch({ status: "Fermenting" }), after: batch({ status: "Conditioning" }) }, ALL, 0);
    expect(JSON.parse(messageOf(event!).payload)).toEqual({
      type: "batch.updated",
      timestamp: "1970-01-01T00:00:00.000Z",
      data: { account: "alice", kind: "batch", id: "b1", changed: ["status"], changes: { status: "Conditioning" }, document: { _id: "b1", name: "Pale", status: "Conditioning" } },
    });
  });

  test("what the store set and its list entry are sent as they are, without reading the document", () => {
    const change = { kind: "batch" as const, id: "b1", before: "not parsed", after: "not parsed either", set: { status: "Brewing", _rev: "r2" }, summary: '{"_id":"b1","status":"Brewing"}' };
    const [event] = eventsOf("alice", change, ALL, 0);
    expect(event!.document).toBe(change.summary);
    expect(JSON.parse(messageOf(event!).payload).data).toEqual({ account: "alice", kind: "batch", id: "b1", changed: ["status"], changes: { status: "Brewing" }, document: { _id: "b1", status: "Brewing" } });
  });

  test("stock going below zero is inventory.negative once, beside inventory.updated", () => {
    const hop = (inventory: number) => JSON.stringify({ _id: "h1", name: "Cascade", inventory });
    const types = (before: number, after: number) => eventsOf("alice", { kind: "hops", id: "h1", before: hop(before), after: hop(after) }, ALL).map((e) => e.type);
    expect(types(10, -5)).toEqual(["inventory.updated", "inventory.negative"]);
    expect(types(-5, -8)).toEqual(["inventory.updated"]);
    expect(types(-5, 3)).toEqual(["inventory.updated"]);
    expect(eventsOf("alice", { kind: "hops", id: "h1", before: undefined, after: hop(-1) }, ALL).map((e) => e.type)).toEqual(["inventory.created", "inventory.negative"]);
  });

  test("only the types wanted are made, each with its resource, and each message with an id of its own", () => {
    const change = { kind: "reading" as const, batchId: "b1", reading: { time: 5, sg: 1.01 } };
    expect(eventsOf("alice", change, new Set(["batch.updated"]))).toEqual([]);
    const [event] = eventsOf("alice", change, ALL, 7);
    expect(event).toEqual({ type: "reading.created", resource: "batch/b1", createdAt: 7, account: "alice", data: { kind: "reading", batchId: "b1", reading: { time: 5, sg: 1.01 } } });
    const [a, b] = [messageOf(event!), messageOf(event!)];
    expect(a.id).toMatch(/^msg_[\w-]{22}$/);
    expect(a.id).not.toBe(b.id);
    expect(JSON.parse(a.payload)).toEqual({ type: "reading.created", timestamp: "1970-01-01T00:00:00.007Z", data: { account: "alice", kind: "reading", batchId: "b1", reading: { time: 5, sg: 1.01 } } });
  });
});
