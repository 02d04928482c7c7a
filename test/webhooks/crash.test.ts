import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir } from "../helpers/process.ts";
import { firstOfEach, Receiver, until } from "./receiver.ts";

// kill -9 under write load: after a restart exactly the committed events are delivered, each at least
// once and none for a write that did not commit. Each batch is written by one writer, one PATCH at a
// time, setting measuredBatchSize 1, 2, 3, …: the committed events of a batch are exactly 1..its stored value.

const dir = tempDir();
const receiver = new Receiver().start();
afterAll(async () => {
  await receiver.stop();
  dir.remove();
});

const BATCHES = 4;

test("SIGKILL during writes: after a restart every committed event is delivered, and no other", async () => {
  const env = {
    DATABASE_URL: join(dir.path, "kill.sqlite"), RATE_LIMIT_V2_PER_HOUR: "1000000",
    WEBHOOK_ALLOW_HOSTS: "127.0.0.1", WEBHOOK_RETRY_BASE_MS: "20", WEBHOOK_TIMEOUT_MS: "2000",
  };
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const key = cli(["key", "generate", "alice", "--scopes", "all"], env).stdout.trim();
  const headers = { authorization: basic("alice", key), "content-type": "application/json" };
  const first = await startServerProcess(env);
  const send = (base: string, path: string, method: string, body?: unknown) =>
    fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).catch(() => undefined);
  for (let i = 0; i < BATCHES; i++) expect((await send(first.url, "/v2/batches", "POST", { recipe: { name: `R${i}` } }))?.status).toBe(201);
  const ids = (await (await send(first.url, "/v2/batches?limit=50", "GET"))!.json()).map((b: { _id: string }) => b._id) as string[];
  expect(ids).toHaveLength(BATCHES);
  const made = await send(first.url, "/v2/webhooks", "POST", { url: receiver.url("/kill"), events: ["batch.updated"] });
  expect(made?.status).toBe(201);
  // Slow answers keep deliveries in flight when the process dies.
  receiver.answer = () => Bun.sleep(5).then(() => new Response(null, { status: 204 }));

  const acked = new Array<number>(BATCHES).fill(0);
  let running = true;
  const writer = async (i: number) => {
    for (let v = 1; running; v++) {
      const res = await send(first.url, `/v2/batches/${ids[i]}`, "PATCH", { measuredBatchSize: v });
      if (!res) return;
      expect(res.status).toBe(200);
      acked[i] = v;
      // A steady load the server counts as busy (several hundred writes a second), at a pace whose
      // backlog a restart can deliver within the test's time: its deliveries start once events have
      // waited 5 s, and one batch's events go one after another to a receiver that takes 5 ms each.
      await Bun.sleep(5);
    }
  };
  const writers = Array.from({ length: BATCHES }, (_, i) => writer(i));
  await until("some writes and deliveries", () => acked.every((v) => v >= 20) && receiver.at("/kill").length >= 10);
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  const beforeRestart = receiver.at("/kill").length;
  running = false;
  await Promise.all(writers);

  const second = await startServerProcess(env);
  try {
    await until("the outbox empty", async () => (await (await send(second.url, "/v2/webhooks", "GET"))!.json())[0].pending === 0, 30_000);
    const events = firstOfEach(receiver.at("/kill"));
    // The restarted process delivered what the killed one had not.
    expect(receiver.at("/kill").length).toBeGreaterThan(beforeRestart);
    // One id, one event: a repeat carries the same body.
    for (const r of receiver.at("/kill")) expect(r.body).toBe(events.find((e) => e.id === r.id)!.body);
    for (let i = 0; i < BATCHES; i++) {
      const stored = (await (await send(second.url, `/v2/batches/${ids[i]}`, "GET"))!.json()).measuredBatchSize as number;
      expect(stored).toBeGreaterThanOrEqual(acked[i]!);
      const values = events.filter((e) => e.json.data.id === ids[i]).map((e) => e.json.data.changes.measuredBatchSize);
      expect({ batch: i, values }).toEqual({ batch: i, values: Array.from({ length: stored }, (_, v) => v + 1) });
    }
  } finally {
    await second.stop();
  }
}, 60_000);
