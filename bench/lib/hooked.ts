import { Database } from "bun:sqlite";
import { copyFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BenchData } from "./generate.ts";
import { cpuTicks, freePort, start, type Running } from "./procs.ts";
import type { RoundResult } from "./report.ts";
import type { WrkResult } from "./wrk.ts";

// Scenario 12: the server with one webhook subscription on its account (batch.updated, so every batch
// PATCH that changes the document records an event and the worker delivers it) against the server
// without one. The subscribed server has its own copy of the benchmark database, made at the start of
// each run, so the subscription, its outbox and its attempts never reach the data of the other
// scenarios. The receiver is a separate process on wrk's core (bench/reference/receiver.ts); every
// event recorded must reach it.

const ROOT = join(import.meta.dir, "..", "..");
/** How long the outbox may take to drain after a slice before the run counts events as stuck. */
const DRAIN_LIMIT_MS = 60_000;

/**
 * A copy of the benchmark database at `path`, made afresh, after a checkpoint so it holds what the
 * database holds and nothing of a WAL. The subscribed server gets a new one every run: a copy kept
 * from run to run carried what the last run left, events never delivered among it (a run stopped
 * early), which the next server then caught up on while it was measured, and an outbox's worth of
 * freed pages that a new copy does not have (docs/performance.md, "Webhooks").
 */
export function freshCopy(d: BenchData, path: string): string {
  const db = new Database(d.dbPath);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
  const tmp = `${path}.tmp`;
  copyFileSync(d.dbPath, tmp);
  renameSync(tmp, path);
  return path;
}

export interface HookedReport {
  /** PATCH answers wrk counted on the subscribed server (warm-ups and the check included). */
  patches: number;
  /** Events written to the outbox meanwhile (a PATCH that leaves a batch as it was makes none). */
  recorded: number;
  /** Deliveries the receiver got, and the distinct event ids among them. */
  received: number;
  distinct: number;
  /** Undelivered events when the run ended. */
  pending: number;
  /** Slices after which the outbox took that long to empty: the longest, and the median. */
  drainMaxMs: number;
  drainMedianMs: number;
  /** Events not delivered within DRAIN_LIMIT_MS of a slice's end. */
  stuck: boolean;
  /** CPU the subscribed server used from the end of each slice's load until its outbox was empty (ticks of 10 ms). */
  drainTicks: number;
}

export class Hooked {
  readonly dbPath: string;
  private receiver: Running | undefined;
  private db: Database | undefined;
  private firstSeq = 0;
  private patches = 0;
  private drains: number[] = [];
  private stuck = false;
  private drainTicks = 0;

  constructor(d: BenchData) {
    this.dbPath = freshCopy(d, d.dbPath.replace(/\.sqlite$/, "-hooked.sqlite"));
  }

  async startReceiver(): Promise<Running> {
    const port = freePort();
    this.receiver = await start({ name: "receiver", cmd: [process.execPath, "bench/reference/receiver.ts"], cwd: ROOT, env: { PORT: String(port) }, port, probe: { path: "/count" }, cpu: "1" });
    return this.receiver;
  }

  /**
   * Through the API of the subscribed server: its account's earlier subscriptions (of an earlier run,
   * to a receiver long gone, or removed by `unsubscribe`) deleted, then one to this run's receiver.
   * Events are counted from the first call on.
   */
  async subscribe(server: Running, auth: string): Promise<void> {
    await this.unsubscribe(server, auth);
    const body = JSON.stringify({ url: `${this.receiver!.url}/hook`, events: ["batch.updated"] });
    const made = await fetch(`${server.url}/v2/webhooks`, { method: "POST", headers: headersOf(auth), body });
    if (made.status !== 201) throw new Error(`POST /v2/webhooks: ${made.status} ${await made.text()}`);
    if (this.db) return;
    this.db = new Database(this.dbPath);
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.firstSeq = this.sequence();
  }

  /** Deletes every subscription of the account (an event not yet delivered goes with it: drain first). */
  async unsubscribe(server: Running, auth: string): Promise<void> {
    const headers = headersOf(auth);
    const listed = await fetch(`${server.url}/v2/webhooks`, { headers });
    if (listed.status !== 200) throw new Error(`GET /v2/webhooks: ${listed.status} ${await listed.text()}`);
    for (const w of (await listed.json()) as Array<{ id: string }>) {
      const gone = await fetch(`${server.url}/v2/webhooks/${w.id}`, { method: "DELETE", headers });
      if (gone.status !== 200) throw new Error(`DELETE /v2/webhooks/${w.id}: ${gone.status}`);
    }
  }

  /**
   * Every event ever recorded in this database counts one: the delivery rows' last sequence number
   * (each event gets one, in turn), and the events recorded not yet given one (webhook_events, see
   * src/store/sqlite-webhooks.ts). One statement: the worker moves events between the two meanwhile.
   */
  private sequence(): number {
    return (this.db!.query(`SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'webhook_deliveries'), 0)
      + (SELECT COALESCE(sum(count), 0) FROM webhook_events) AS n`).get() as { n: number }).n;
  }

  private pending(): number {
    return (this.db!.query(`SELECT (SELECT count(*) FROM webhook_deliveries)
      + (SELECT COALESCE(sum(count), 0) FROM webhook_events) AS n`).get() as { n: number }).n;
  }

  private async counts(): Promise<{ received: number; distinct: number }> {
    return (await fetch(`${this.receiver!.url}/count`)).json() as Promise<{ received: number; distinct: number }>;
  }

  /** A PATCH made outside wrk (the check). */
  countPatch(): void {
    this.patches++;
  }

  /** After a slice on the subscribed server: waits until every event recorded has reached the receiver. */
  async drain(result: WrkResult, pid: number): Promise<void> {
    this.patches += result.requests;
    const t0 = performance.now();
    const ticks = cpuTicks(pid);
    try {
      while (performance.now() - t0 < DRAIN_LIMIT_MS) {
        const recorded = this.sequence() - this.firstSeq;
        if (this.pending() === 0 && (await this.counts()).distinct >= recorded) {
          this.drains.push(performance.now() - t0);
          return;
        }
        await Bun.sleep(10);
      }
      this.stuck = true;
      this.drains.push(DRAIN_LIMIT_MS);
    } finally {
      this.drainTicks += cpuTicks(pid) - ticks;
    }
  }

  async report(): Promise<HookedReport> {
    const { received, distinct } = await this.counts();
    const sorted = [...this.drains].sort((a, b) => a - b);
    return {
      patches: this.patches,
      recorded: this.sequence() - this.firstSeq,
      received,
      distinct,
      pending: this.pending(),
      drainMaxMs: Math.round(sorted.at(-1) ?? 0),
      drainMedianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      stuck: this.stuck,
      drainTicks: this.drainTicks,
    };
  }

  async stop(): Promise<void> {
    this.db?.close();
    this.db = undefined;
    await this.receiver?.stop();
  }
}

const headersOf = (auth: string) => ({ authorization: auth, "content-type": "application/json" });

const TICK_US = 10_000;

/**
 * What the run prints under its table, and the problems it adds (an event lost is one). Beside req/s,
 * the CPU each server used per PATCH while wrk ran (its deliveries during the load included), and what
 * the subscribed one used afterwards until its outbox was empty, per event recorded.
 */
export function hookedLines(r: HookedReport, rounds: RoundResult[]): { text: string; problems: string[] } {
  const perRequest = (side: "subject" | "baseline") => {
    const requests = rounds.reduce((a, x) => a + x[side].requests, 0);
    return requests ? ((rounds.reduce((a, x) => a + x[side].cpuTicks, 0) * TICK_US) / requests).toFixed(0) : "–";
  };
  const text =
    `12-hooked-patch deliveries: ${r.patches} PATCHes answered, ${r.recorded} events recorded, ${r.received} deliveries received ` +
    `(${r.distinct} distinct events), ${r.pending} pending at the end; outbox empty ${r.drainMedianMs} ms (median) and at most ` +
    `${r.drainMaxMs} ms after a slice's load stopped.\n` +
    `12-hooked-patch CPU of the server per PATCH while measured: ${perRequest("subject")} µs with the subscription, ${perRequest("baseline")} µs without; ` +
    `after the load, until the outbox was empty: ${r.recorded ? ((r.drainTicks * TICK_US) / r.recorded).toFixed(0) : "–"} µs per event recorded`;
  const problems: string[] = [];
  if (r.stuck) problems.push(`12-hooked-patch: the outbox did not empty within ${DRAIN_LIMIT_MS} ms of a slice's end`);
  if (r.distinct !== r.recorded || r.pending !== 0) problems.push(`12-hooked-patch: ${r.recorded} events recorded, ${r.distinct} received, ${r.pending} pending`);
  return { text, problems };
}
