import { afterAll, describe, expect, test } from "bun:test";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { DueDelivery } from "../../src/store/types.ts";
import { seal, sealingKey } from "../../src/webhooks/secret.ts";
import { newSecret } from "../../src/webhooks/signing.ts";
import { DeliveryWorker } from "../../src/webhooks/worker.ts";
import { Receiver } from "./receiver.ts";

// A rotated secret still signs beside the new one until its time is up, then no more: one attempt of
// the delivery worker at a time, to a real receiver on 127.0.0.1, each read with the standardwebhooks
// library.

const receiver = new Receiver().start();
const store = SqliteStore.open(":memory:");
const worker = new DeliveryWorker(store, { webhookAllowHosts: ["127.0.0.1"], webhookRetryBaseMs: 1000, webhookMaxAttempts: 3, webhookTimeoutMs: 2000 });
afterAll(async () => {
  await receiver.stop();
  await store.close();
});

const [current, previous] = [newSecret(), newSecret()];

async function attempt(path: string, previousUntil: number) {
  const key = await sealingKey(store);
  const d: DueDelivery = {
    seq: 1, webhookId: "wh_rotated", url: receiver.url(path), eventId: `msg_${path.slice(1)}`, type: "webhook.test", resource: "webhook/wh_rotated",
    payload: JSON.stringify({ type: "webhook.test", data: { id: "wh_rotated" } }), attempts: 0, createdAt: Date.now(),
    sealedSecret: await seal(key, current, "wh_rotated"), previousSealedSecret: await seal(key, previous, "wh_rotated"), previousUntil,
  };
  expect((await worker.attempt(d)).result).toBe("delivered");
  return receiver.at(path)[0]!;
}

describe("a rotated secret", () => {
  test("until its time is up, a delivery carries both signatures and verifies with either secret", async () => {
    const got = await attempt("/both", Date.now() + 60_000);
    expect(got.signature.split(" ")).toHaveLength(2);
    expect([Receiver.verifies(current, got), Receiver.verifies(previous, got), Receiver.verifies(newSecret(), got)]).toEqual([true, true, false]);
  });

  test("after its time, a delivery carries the new secret's signature alone", async () => {
    const got = await attempt("/after", Date.now() - 1);
    expect(got.signature.split(" ")).toHaveLength(1);
    expect([Receiver.verifies(current, got), Receiver.verifies(previous, got)]).toEqual([true, false]);
  });
});
