import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "./lib/generate.ts";
import { freshCopy } from "./lib/hooked.ts";
import { walPages } from "./lib/wal.ts";
import { openStore } from "../src/store/open.ts";
import type { SqliteStore } from "../src/store/sqlite.ts";
import type { Store } from "../src/store/types.ts";
import { installOutbox } from "../src/webhooks/worker.ts";

// Scenario 12's write path without HTTP and without wrk: the store the server uses, on a copy of the
// benchmark database, writing the scenario's PATCH (`measuredOg` of bench-main's PATCH batches) with
// and without one subscription to `batch.updated`, in one process. Writes go in groups started in one
// turn, as concurrent requests reach the store; the events are recorded through the server's own
// outbox hook (no delivery worker: after each subscribed stretch the outbox is emptied through
// `deliverDue`, outside the measured time). The two sides take turns, the first alternating by round,
// and the figure is CPU time per write, its trimmed mean over the rounds: on these shared machines it
// moves by a few µs where wrk's req/s moves by 10-30% (docs/performance.md, "Webhooks").
//
// `--frames N` counts pages instead of time: from a checkpointed start, with automatic checkpoints
// off, N groups of writes on each side, then the WAL read frame by frame, each frame's page named by
// what holds it (SQLite's dbstat: the outbox table, page 1 with the database's size, or the rest),
// per group of writes.
//
//   bun bench/hooked-store.ts [--rounds N (16)] [--writes N (8000)] [--group N (10)] [--frames N]
//
// About half a minute with the defaults on this machine kind, the copy of the 2 GB database included.

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  const value = at === -1 ? fallback : Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number of 1 or more`);
  return value;
};
const ROUNDS = option("--rounds", 16);
const WRITES = option("--writes", 8000);
const GROUP = option("--group", 10);
const FRAMES = args.includes("--frames") ? option("--frames", 0) : undefined;
const WARM_UP = 2000;
const HOOK = "wh_bench_store";
const log = (s: string) => console.error(`[hooked-store] ${s}`);

/** The middle half of the values, averaged: a round disturbed by the machine falls out. */
function trimmedMean(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.slice(Math.floor(sorted.length / 4), Math.ceil((sorted.length * 3) / 4));
  return middle.reduce((a, b) => a + b, 0) / middle.length;
}

async function main() {
  const data = await generate(join(import.meta.dir, ".cache"), log);
  const path = join(tmpdir(), `brewrecords-hooked-store-${process.pid}.sqlite`);
  log(`copying the benchmark database to ${path}`);
  freshCopy(data, path);
  let store: Store | undefined;
  try {
    store = await openStore(path);
    installOutbox(store);
    const s = store;
    const user = data.main.userId;
    for (const w of await s.webhooks(user)) await s.removeWebhook(user, w.id);
    const ids = data.main.patchBatchIds;
    let i = 0;
    const writes = async (count: number) => {
      for (let done = 0; done < count; done += GROUP) {
        const group: Array<Promise<boolean>> = [];
        for (let j = 0; j < GROUP; j++, i++) group.push(Promise.resolve(s.setFields(user, "batch", ids[i % ids.length]!, { measuredOg: 1.04 + (i % 30) / 1000 })));
        await Promise.all(group);
      }
    };
    const subscribe = () => s.addWebhook({ id: HOOK, userId: user, url: "https://receiver.example/hook", events: ["batch.updated"], sealedSecret: "unused", createdAt: Date.now(), failingSince: null });
    const unsubscribe = async () => {
      // Emptied as delivered, so every stretch starts from an empty outbox.
      while ((await s.deliverDue(Date.now(), 10_000, async (due) => due.map((d) => ({ seq: d.seq, result: "delivered" as const, attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: Date.now(), status: 204, durationMs: 0, detail: null } })))) > 0);
      await s.removeWebhook(user, HOOK);
    };
    const stretch = async (subscribed: boolean): Promise<number> => {
      if (subscribed) await subscribe();
      await writes(WARM_UP);
      const before = process.cpuUsage();
      await writes(WRITES);
      const used = process.cpuUsage(before);
      if (subscribed) await unsubscribe();
      return (used.user + used.system) / WRITES;
    };
    await writes(20_000);
    if (FRAMES !== undefined) {
      if (s.kind !== "sqlite") throw new Error("--frames reads SQLite's WAL");
      const db = (s as SqliteStore).db;
      db.exec("PRAGMA wal_autocheckpoint = 0");
      for (let r = 0; r < ROUNDS; r++) {
        for (const subscribed of [true, false]) {
          if (subscribed) await subscribe();
          await writes(WARM_UP);
          db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
          await writes(FRAMES * GROUP);
          const outbox = new Set((db.query("SELECT pageno FROM dbstat WHERE name = 'webhook_events'").values() as number[][]).map(([p]) => p));
          const by: Record<string, number> = { "page 1": 0, webhook_events: 0, "the rest": 0 };
          for (const page of walPages(`${path}-wal`)) by[page === 1 ? "page 1" : outbox.has(page) ? "webhook_events" : "the rest"]! += 1;
          const total = Object.values(by).reduce((a, b) => a + b, 0);
          const parts = Object.entries(by).map(([k, v]) => `${k} ${(v / FRAMES).toFixed(2)}`);
          console.log(`round ${r + 1}, ${subscribed ? "one subscription" : "none"}: ${(total / FRAMES).toFixed(2)} WAL frames a group of ${GROUP} writes (${parts.join(", ")})`);
          if (subscribed) await unsubscribe();
        }
      }
      return;
    }
    const cpu = { subscribed: [] as number[], plain: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const subscribed of r % 2 === 0 ? [true, false] : [false, true]) (subscribed ? cpu.subscribed : cpu.plain).push(await stretch(subscribed));
      log(`round ${r + 1}: ${cpu.subscribed.at(-1)!.toFixed(1)} µs per write with the subscription, ${cpu.plain.at(-1)!.toFixed(1)} without`);
    }
    const withIt = trimmedMean(cpu.subscribed);
    const without = trimmedMean(cpu.plain);
    const extra = trimmedMean(cpu.subscribed.map((c, k) => c - cpu.plain[k]!));
    console.log(`CPU per write (trimmed mean of ${ROUNDS} rounds of ${WRITES} writes, groups of ${GROUP}): ${withIt.toFixed(1)} µs with one subscription, ${without.toFixed(1)} µs without; the round's difference ${extra.toFixed(1)} µs; ratio ${(without / withIt).toFixed(2)}`);
  } finally {
    await store?.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  }
}

if (import.meta.main) await main();
