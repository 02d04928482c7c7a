import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "./lib/generate.ts";
import { Hooked } from "./lib/hooked.ts";
import { loadSlice } from "./lib/pair.ts";
import { differences, profileTimes, type CpuProfile, type Difference } from "./lib/profile.ts";
import { start, type Running } from "./lib/procs.ts";
import { comparisons, type Load } from "./lib/scenarios.ts";
import { ensureTools } from "./lib/setup.ts";
import { buildTargets, optionsFor } from "./lib/targets.ts";

// Where one scenario's time goes, function by function: both sides of a comparison run under Bun's
// CPU profiler (`bun --cpu-prof`), warmed and then loaded in one-second slices taken in turn, as the
// benchmark measures them; the table gives each function's sampled time per request on each side,
// the largest differences first. On these shared machines two processes of one build differ here by
// about 1 µs a request where wrk's CPU figures differ by 2-4 µs (docs/performance.md, "Webhooks"), so
// it shows where a difference lies, not whether a target is met. The profiler costs each side about
// a third more time; kernel work, Bun's native HTTP and the collector are not in the samples.
//
//   bun bench/profile.ts <scenario id> [--cycles N (8)] [--interval µs (250)] [--top N (30)] [--exclude REGEX]
//
// For 12-hooked-patch, --exclude "webhooks/worker.ts|deliverDue|settle|^fetch" leaves the deliveries
// (made between slices) out of the subscribed side's samples. Written to bench/results/profile-<time>.json.

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1] ?? fallback;
};
const id = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const CYCLES = Number(option("--cycles", "8"));
const INTERVAL_US = Number(option("--interval", "250"));
const TOP = Number(option("--top", "30"));
const exclude = args.includes("--exclude") ? new RegExp(option("--exclude", "")) : undefined;
const log = (s: string) => console.error(`[profile] ${s}`);

interface Side {
  load: Load;
  process: Running;
  dir: string;
  /** Requests answered while profiled, the warm-up included: the profile holds them all. */
  requests: number;
}

async function main() {
  await ensureTools(log);
  const data = await generate(join(import.meta.dir, ".cache"), log);
  const every = comparisons(data);
  const c = every.find((x) => x.id === id);
  if (!c) throw new Error(`name a scenario: ${every.map((x) => x.id).join(", ")}`);
  if (c.subject.target === "json-server" || c.baseline.target === "json-server") throw new Error("json-server runs under Node: nothing to profile with Bun");
  log("building the server as deployed (scripts/build.ts)");
  await buildTargets();
  const hooked = [c.subject, c.baseline].some((l) => l.target === "server-hooked") ? new Hooked(data) : undefined;
  const profiles = mkdtempSync(join(tmpdir(), "brewrecords-profile-"));
  const sides: Side[] = [];
  try {
    if (hooked) await hooked.startReceiver();
    for (const [i, load] of [c.subject, c.baseline].entries()) {
      if (load.target === "json-server") continue;
      const dir = join(profiles, String(i));
      mkdirSync(dir);
      const options = optionsFor(load.target, data, hooked?.dbPath);
      // Bun's flags go before the script: `bun --cpu-prof … main.js serve`.
      const cmd = [options.cmd[0]!, "--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`, ...options.cmd.slice(1)];
      sides.push({ load, process: await start({ ...options, cmd, name: `${load.target}-${i}` }), dir, requests: 0 });
    }
    const hookedSide = sides.find((s) => s.load.target === "server-hooked");
    if (hooked && hookedSide) await hooked.subscribe(hookedSide.process, data.main.authorization);
    const slice = async (s: Side, seconds: number) => {
      const run = { url: s.process.url + s.load.path, connections: c.connections ?? 32, auth: s.load.auth, env: s.load.env, seconds };
      const m = await loadSlice([s.process.pid], [run], s.load.target === "server-hooked" ? (r) => hooked!.drain(r, s.process.pid) : undefined);
      s.requests += m.requests;
    };
    log(`${c.id}: warming each side ${c.warmupSeconds ?? 5} s, then ${CYCLES} slices of 1 s each, in turn`);
    for (const s of sides) await slice(s, c.warmupSeconds ?? 5);
    for (let k = 0; k < CYCLES; k++) for (const s of k % 2 ? [...sides].reverse() : sides) await slice(s, 1);
  } finally {
    // A profile is written when its process exits.
    for (const s of sides) await s.process.stop();
    await hooked?.stop();
  }
  const [subject, baseline] = sides.map((s) => {
    const file = readdirSync(s.dir).find((f) => f.endsWith(".cpuprofile"));
    if (!file) throw new Error(`${s.load.target} wrote no profile`);
    return { side: s, times: profileTimes(JSON.parse(readFileSync(join(s.dir, file), "utf8")) as CpuProfile, INTERVAL_US, exclude) };
  }) as [{ side: Side; times: ReturnType<typeof profileTimes> }, { side: Side; times: ReturnType<typeof profileTimes> }];
  rmSync(profiles, { recursive: true, force: true });
  const per = (x: typeof subject) => x.times.total / x.side.requests;
  const self = differences(subject.times.self, subject.side.requests, baseline.times.self, baseline.side.requests, TOP);
  const inclusive = differences(subject.times.inclusive, subject.side.requests, baseline.times.inclusive, baseline.side.requests, TOP);
  const row = (d: Difference) => `${d.subject.toFixed(2).padStart(8)} ${d.baseline.toFixed(2).padStart(8)} ${(d.subject - d.baseline).toFixed(2).padStart(8)}  ${d.name}`;
  const head = `  ${c.subject.target.padStart(6)} ${c.baseline.target.padStart(8)}     diff  (µs sampled per request)`;
  console.log(`${c.id}: ${per(subject).toFixed(2)} µs sampled per request on ${c.subject.target} (${subject.side.requests} requests), ${per(baseline).toFixed(2)} on ${c.baseline.target} (${baseline.side.requests})${exclude ? `, stacks matching ${exclude} left out` : ""}`);
  console.log(`\nself\n${head}\n${self.map(row).join("\n")}\n\ninclusive\n${head}\n${inclusive.map(row).join("\n")}`);
  const out = join(import.meta.dir, "results", `profile-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), scenario: c.id, cycles: CYCLES, intervalUs: INTERVAL_US, exclude: exclude?.source ?? null,
    subject: { target: c.subject.target, requests: subject.side.requests, sampledUsPerRequest: per(subject) },
    baseline: { target: c.baseline.target, requests: baseline.side.requests, sampledUsPerRequest: per(baseline) }, self, inclusive }, null, 2) + "\n");
  log(`written: ${out}`);
}

await main();
