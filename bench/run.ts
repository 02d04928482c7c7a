import { cpus, release, totalmem } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate, type BenchData } from "./lib/generate.ts";
import { Database } from "bun:sqlite";
import { cpuTicks, pin, rssSampler, start, type Running } from "./lib/procs.ts";
import { median, pooled, summarize, table, type Measured, type RoundResult } from "./lib/report.ts";
import { comparisons, mixedLoad, type Comparison, type Load, type Target } from "./lib/scenarios.ts";
import { Hooked, hookedLines, type HookedReport } from "./lib/hooked.ts";
import { ensurePeers, ensureTools } from "./lib/setup.ts";
import { buildTargets, helloOptions, serverOptions, targetOptions } from "./lib/targets.ts";
import { measureStartup, soak } from "./lib/startup.ts";
import { wrk } from "./lib/wrk.ts";

// The benchmark: one command (`npm run bench`, or `bun bench/run.ts`). Options:
//   --rounds N (3)  --seconds S per side and comparison, in one-second slices (5)  --connections C (32)  --soak (60 s memory check)
//   --only ID,ID (every scenario): those comparisons alone (ids as printed: 1-list, 6-adjust, …),
//   without the cold start and memory checks; for working on one figure, not for the README's table.
// Everything runs on 127.0.0.1: targets pinned to core 0, wrk to core 1. See docs/performance.md.

const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;
const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const settings = {
  rounds: opt("--rounds", 3),
  seconds: opt("--seconds", 5),
  warmupSeconds: 1,
  connections: opt("--connections", 32),
  soak: args.includes("--soak"),
  only: args.includes("--only") ? (args[args.indexOf("--only") + 1] ?? "").split(",") : undefined,
};
const log = (s: string) => console.error(`[bench] ${s}`);
const running: Running[] = [];
/** The subscribed server's database and receiver, when a comparison uses it (scenario 12). */
let hooked: Hooked | undefined;

/** The length of one measured slice; a side gets `--seconds` of them per comparison and round. */
const SLICE_SECONDS = 1;

/**
 * One comparison in one round: both sides warmed, then measured in one-second slices taken in turn
 * (A B B A A B …, the first side alternating by round) until each has `seconds` of them. The load of
 * these machines drifts by 10–30% from one few-second stretch to the next; one side's five seconds
 * measured after the other's took that drift into the ratio (docs/performance.md, "Running it").
 */
async function measurePair(targets: Record<Target, Running>, c: Comparison, round: number, d: BenchData): Promise<[Measured, Measured]> {
  const sides = [c.subject, c.baseline];
  const slices: Measured[][] = [[], []];
  const slice = async (i: number, seconds: number, keep: boolean) => {
    const load = sides[i];
    // A write scenario starts each slice from an empty WAL: a side measured after the other would
    // otherwise start on the other's WAL, a state of the database the first never saw.
    if (load.env) checkpoint(d);
    const p = targets[load.target];
    if (PEERS.has(load.target)) pin(p.pid, "0");
    const sampler = rssSampler(p.pid);
    const ticks = cpuTicks(p.pid);
    const result = await wrk({ url: p.url + load.path, connections: c.connections ?? settings.connections, auth: load.auth, env: load.env, seconds });
    const peakRss = sampler.stop();
    const used = cpuTicks(p.pid) - ticks;
    // The subscribed server's events must all reach the receiver before anything else runs.
    if (load.target === "server-hooked") await hooked!.drain(result, p.pid);
    await settle(p.pid);
    if (PEERS.has(load.target)) park(p);
    if (keep) slices[i].push({ ...result, peakRss, cpuTicks: used });
  };
  const first = round % 2;
  for (const i of [first, 1 - first]) await slice(i, settings.warmupSeconds, false);
  for (let k = 0; k < settings.seconds; k++) {
    const a = (first + k) % 2;
    await slice(a, SLICE_SECONDS, true);
    await slice(1 - a, SLICE_SECONDS, true);
  }
  if (c.subject.env) checkpoint(d);
  return [pooled(slices[0]), pooled(slices[1])];
}

/** Waits until a process has used no CPU for 200 ms: a slow target may still drain queued requests. */
async function settle(pid: number): Promise<void> {
  let last = cpuTicks(pid);
  for (let quiet = 0, i = 0; quiet < 2 && i < 200; i++) {
    await Bun.sleep(100);
    const now = cpuTicks(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
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

/** Each baseline must give what the server gives, or the ratio means nothing. */
async function check(targets: Record<Target, Running>, c: Comparison): Promise<string[]> {
  const problems: string[] = [];
  const fetchOnce = async (l: Load) => {
    const url = targets[l.target].url + (l.env ? "" : l.path);
    if (!l.env) return fetch(url, { headers: l.auth ? { authorization: l.auth } : {} });
    if (l.env.BENCH_MODE === "stream") {
      const body = '{"name":"bench-check","temp":18.5,"gravity":1.012,"gravity_unit":"G"}';
      return fetch(`${url}/stream?id=${l.env.BENCH_LOGGING_ID}`, { method: "POST", body, headers: { "content-type": "application/json" } });
    }
    if (l.env.BENCH_MODE === "append") {
      const body = '{"time":4000000000000,"sg":1.01,"temp":18.5}';
      return fetch(`${url}/v2/batches/${l.env.BENCH_IDS}/readings`, { method: "POST", body, headers: { authorization: l.auth!, "content-type": "application/json" } });
    }
    const path = l.env.BENCH_MODE === "adjust" ? `${l.env.BENCH_BASE}/${l.env.BENCH_IDS.split(",")[0]}` : `/v2/batches/${l.env.BENCH_IDS.split(",")[0]}`;
    const body = l.env.BENCH_MODE === "adjust" ? '{"inventory_adjust":0}' : '{"measuredOg":1.05}';
    return fetch(targets[l.target].url + path, { method: "PATCH", body, headers: { authorization: l.auth!, "content-type": "application/json" } });
  };
  const [a, b] = await Promise.all([fetchOnce(c.subject), fetchOnce(c.baseline)]);
  const [ta, tb] = await Promise.all([a.text(), b.text()]);
  const expected = c.subject.env?.BENCH_MODE === "append" ? 201 : 200;
  if (a.status !== expected || b.status !== expected) problems.push(`${c.id}: status ${a.status} (server) / ${b.status} (${c.baseline.target})`);
  else if (c.kind === "ratio" && c.baseline.target !== "json-server" && ta !== tb) problems.push(`${c.id}: the ${c.baseline.target} answer differs from the server's`);
  return problems;
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
  for (const t of (["server", "server-full", "server-hooked", "reference", "fastify"] as const).filter((t) => used.has(t))) {
    const old = targets[t];
    if (old) {
      await old.stop();
      running.splice(running.indexOf(old), 1);
    }
    const options =
      t === "server" ? serverOptions(d)
      : t === "server-full" ? serverOptions(d, "bundle", { SQLITE_SYNCHRONOUS: "FULL" })
      // Plain HTTP to the receiver on loopback is what the operator's allow list permits.
      : t === "server-hooked" ? serverOptions({ ...d, dbPath: hooked!.dbPath }, "bundle", { WEBHOOK_ALLOW_HOSTS: "127.0.0.1" })
      : targetOptions(d, t);
    running.push((targets[t] = await start({ ...options, name: t })));
  }
  if (targets.fastify) park(targets.fastify);
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
      problems = (await Promise.all(list.map((c) => check(targets, c)))).flat();
      for (const c of list) if (c.subject.target === "server-hooked") hooked!.countPatch();
      for (const p of problems) log(`CHECK FAILED ${p}`);
    }
    for (const c of list) {
      const [s, b] = await measurePair(targets, c, r, data);
      const ratio = c.kind === "ratio" ? s.rps / b.rps : b.rps / s.rps;
      rounds[c.id].push({ subject: s, baseline: b, ratio, p99Ratio: s.p99Ms / b.p99Ms });
      log(`round ${r + 1} ${c.id}: server ${s.rps.toFixed(0)} req/s, ${c.baseline.target} ${b.rps.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}`);
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
