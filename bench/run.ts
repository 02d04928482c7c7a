import { runSettings } from "./lib/args.ts";
import { cpus, release, totalmem } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate, type BenchData } from "./lib/generate.ts";
import { Database } from "bun:sqlite";
import { pin, start, type Running } from "./lib/procs.ts";
import { checkAnswers } from "./lib/check.ts";
import { loadSlice, pairedSlices } from "./lib/pair.ts";
import { median, summarize, table, type Measured, type RoundResult } from "./lib/report.ts";
import { comparisons, mixedLoad, type Comparison, type Target } from "./lib/scenarios.ts";
import { Hooked, hookedLines, type HookedReport } from "./lib/hooked.ts";
import { ensurePeers, ensureTools } from "./lib/setup.ts";
import { buildTargets, helloOptions, optionsFor, serverOptions, targetOptions } from "./lib/targets.ts";
import { measureStartup, soak } from "./lib/startup.ts";

// The benchmark: one command (`npm run bench`, or `bun bench/run.ts`). Options:
//   --rounds N (3)  --seconds S per side and comparison, in one-second slices (5)  --connections C (32)  --soak (60 s memory check)
//   --only ID,ID (every scenario): those comparisons alone (ids as printed: 1-list, 6-adjust, …),
//   without the cold start and memory checks; for working on one figure, not for the README's table.
// Everything runs on 127.0.0.1: targets pinned to core 0, wrk to core 1. See docs/performance.md.

const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;
const args = process.argv.slice(2);
const settings = { ...runSettings(args), soak: args.includes("--soak") };
const log = (s: string) => console.error(`[bench] ${s}`);
const running: Running[] = [];
/** The subscribed server's database and receiver, when a comparison uses it (scenario 12). */
let hooked: Hooked | undefined;

/** One comparison in one round: both sides in turn, in one-second slices (bench/lib/pair.ts). */
async function measurePair(targets: Record<Target, Running>, c: Comparison, round: number, d: BenchData): Promise<[Measured, Measured]> {
  const sides = [c.subject, c.baseline];
  const slice = async (i: 0 | 1, seconds: number) => {
    const load = sides[i];
    // A write scenario starts each slice from an empty WAL: a side measured after the other would
    // otherwise start on the other's WAL, a state of the database the first never saw.
    if (load.env) checkpoint(d);
    const p = targets[load.target];
    if (PEERS.has(load.target)) pin(p.pid, "0");
    const run = { url: p.url + load.path, connections: c.connections ?? settings.connections, auth: load.auth, env: load.env, seconds };
    // The subscribed server's events must all reach the receiver before anything else runs.
    const result = await loadSlice([p.pid], [run], load.target === "server-hooked" ? (r) => hooked!.drain(r, p.pid) : undefined);
    if (PEERS.has(load.target)) park(p);
    return result;
  };
  const pair = await pairedSlices(slice, round, { ...settings, warmupSeconds: c.warmupSeconds ?? settings.warmupSeconds });
  if (c.subject.env) checkpoint(d);
  return pair;
}

/**
 * Folds the WAL back into the database after a write scenario. Readers that never pause keep the
 * automatic checkpoint from finishing, and a long WAL slows every later read, whichever target runs.
 */
function checkpoint(d: BenchData): void {
  for (const path of [d.dbPath, ...(hooked ? [hooked.dbPath] : [])]) {
    const db = new Database(path);
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
  }
}

async function rawWrites(d: BenchData): Promise<number> {
  const cmd = ["taskset", "-c", "0", BUN, "bench/reference/write-loop.ts", d.dbPath, d.main.userId, "3", d.main.patchBatchIds.join(",")];
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return (JSON.parse(out) as { writesPerSecond: number }).writesPerSecond;
}

/**
 * Fresh processes of the server, the reference and Fastify for a round. One process of a build can
 * land 5% above or below another process of the same build (docs/performance.md), so each round has
 * its own: the median of the rounds is taken over several processes of each side, not over one.
 */
async function startRound(d: BenchData, targets: Record<Target, Running>, used: Set<Target>): Promise<void> {
  await restart(d, targets, used);
  if (targets.fastify) park(targets.fastify);
}

/** Stops the given targets' processes (json-server aside) and starts new ones in their place. */
async function restart(d: BenchData, targets: Record<Target, Running>, which: Set<Target>): Promise<void> {
  for (const t of (["server", "server-full", "server-hooked", "server-plain", "reference", "fastify"] as const).filter((t) => which.has(t))) {
    const old = targets[t];
    if (old) {
      await old.stop();
      running.splice(running.indexOf(old), 1);
    }
    running.push((targets[t] = await start({ ...optionsFor(t, d, hooked?.dbPath), name: t })));
  }
}

/**
 * The peers wait on wrk's core and move to the targets' core for their own comparisons. Idle beside
 * the server on its core, the two Node processes cost its default list about 5% against the reference
 * (docs/performance.md): a measurement of the server or the reference has that core to itself.
 */
const PEERS = new Set<Target>(["fastify", "json-server"]);
const park = (p: Running) => pin(p.pid, "1");

async function main() {
  if (cpus().length < 2) throw new Error("the benchmark pins the server and wrk to different cores: it needs 2 or more");
  await ensureTools(log);
  const data = await generate(join(import.meta.dir, ".cache"), log);
  const every = comparisons(data);
  const list = every.filter((c) => !settings.only || settings.only.includes(c.id));
  const unknown = settings.only?.filter((id) => !every.some((c) => c.id === id)) ?? [];
  if (unknown.length) throw new Error(`--only: no scenario ${unknown.join(", ")}; they are ${every.map((c) => c.id).join(", ")}`);
  const used = new Set(list.flatMap((c) => [c.subject.target, c.baseline.target]));
  if (used.has("fastify") || used.has("json-server")) await ensurePeers(log);
  log("building the server and the hello-world as deployed (scripts/build.ts)");
  await buildTargets();
  const targets = {} as Record<Target, Running>;
  if (used.has("server-hooked")) {
    hooked = new Hooked(data);
    running.push(await hooked.startReceiver());
  }
  // json-server takes seconds to start and is compared at 10×: one process serves every round.
  if (used.has("json-server")) {
    running.push((targets["json-server"] = await start(targetOptions(data, "json-server"))));
    park(targets["json-server"]);
  }
  let problems: string[] = [];

  const rounds: Record<string, RoundResult[]> = Object.fromEntries(list.map((c) => [c.id, []]));
  const rawWriteRates: number[] = [];
  for (let r = 0; r < settings.rounds; r++) {
    log(`round ${r + 1}: starting ${[...used].filter((t) => t !== "json-server").join(", ")}`);
    await startRound(data, targets, used);
    if (r === 0) {
      if (hooked) await hooked.subscribe(targets["server-hooked"], data.main.authorization);
      problems = (await Promise.all(list.map((c) => checkAnswers((t) => targets[t].url, c)))).flat();
      for (const c of list) if (c.subject.target === "server-hooked") hooked!.countPatch();
      for (const p of problems) log(`CHECK FAILED ${p}`);
    }
    for (const c of list) {
      const pairs = c.processPairs ?? 1;
      for (let k = 0; k < pairs; k++) {
        // Each pair after the first on new processes of both sides (Comparison.processPairs).
        if (k > 0) await restart(data, targets, new Set([c.subject.target, c.baseline.target]));
        const [s, b] = await measurePair(targets, c, r * pairs + k, data);
        const ratio = c.kind === "ratio" ? s.rps / b.rps : b.rps / s.rps;
        rounds[c.id].push({ subject: s, baseline: b, ratio, p99Ratio: s.p99Ms / b.p99Ms });
        const pair = pairs > 1 ? ` (pair ${k + 1} of ${pairs})` : "";
        log(`round ${r + 1} ${c.id}${pair}: server ${s.rps.toFixed(0)} req/s, ${c.baseline.target} ${b.rps.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}`);
      }
    }
    rawWriteRates.push(await rawWrites(data));
    checkpoint(data);
  }
  let hookedReport: HookedReport | undefined;
  if (hooked) {
    hookedReport = await hooked.report();
    await hooked.stop();
  }
  for (const p of running.splice(0)) await p.stop();

  let startupResult, soakResult;
  if (!settings.only) {
    log("cold start and idle memory, server vs Elysia hello-world, as deployed and from sources");
    startupResult = await measureStartup((way) => serverOptions(data, way), helloOptions, Math.max(3, settings.rounds));
    const [short, long] = settings.soak ? [10, 60] : [10, 30];
    log(`memory after ${short} s and ${long} s of mixed load`);
    soakResult = await soak(serverOptions(data), data.main.authorization, mixedLoad(data), settings.connections, short, long);
  }

  const summary = list.map((c) => summarize(c, rounds[c.id]));
  const text = table(summary, startupResult, soakResult);
  console.log(text);
  const rawWritesPerSecond = median(rawWriteRates);
  console.log(`\nbare bun:sqlite write loop (no HTTP, same pragmas): ${rawWritesPerSecond.toFixed(0)} writes/s`);
  if (hookedReport) {
    const { text, problems: lost } = hookedLines(hookedReport, rounds["12-hooked-patch"] ?? []);
    console.log(`\n${text}`);
    problems.push(...lost);
  }
  if (problems.length) console.log(`\nchecks failed:\n${problems.join("\n")}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const out = join(import.meta.dir, "results", `${stamp}.json`);
  mkdirSync(join(import.meta.dir, "results"), { recursive: true });
  const machine = { cpu: cpus()[0]?.model, cores: cpus().length, memoryBytes: totalmem(), kernel: release(), bun: Bun.version };
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine, settings, problems, summary, startup: startupResult, soak: soakResult, rawWritesPerSecond, deliveries: hookedReport, rounds }, null, 2) + "\n");
  console.log(`\nwritten: ${out}`);
}

// Stops only the processes this run started, on any exit path.
const cleanup = async () => {
  for (const p of running.splice(0)) await p.stop().catch(() => {});
};
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => void cleanup().then(() => process.exit(143)));
try {
  await main();
} catch (e) {
  console.error(`[bench] ${(e as Error).stack ?? e}`);
  await cleanup();
  process.exit(1);
}
