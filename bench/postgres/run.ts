import { runSettings } from "../lib/args.ts";
import { cpus, release, totalmem } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_POOL_SIZE } from "../../src/store/postgres.ts";
import { checkAnswers } from "../lib/check.ts";
import { loadSlice, pairedSlices } from "../lib/pair.ts";
import { pin, start, type Running } from "../lib/procs.ts";
import { summarize, table, type RoundResult } from "../lib/report.ts";
import type { Comparison } from "../lib/scenarios.ts";
import { ensureTools } from "../lib/setup.ts";
import { buildTargets, serverOn } from "../lib/targets.ts";
import { admin, createDatabase, dropDatabase, pgComparisons, referenceOptions, type PgData, type PgTarget } from "./setup.ts";

// The PostgreSQL benchmark: one command (`npm run bench:postgres`, or `bun bench/postgres/run.ts`).
//   --rounds N (3)  --seconds S per side and comparison, in one-second slices (5)  --connections C (32)
//   --only ID,ID (every scenario): those comparisons alone (ids as printed: pg-1-list, pg-2x-adjust, …).
// A database is created on TEST_POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432/postgres)
// as a copy of a template filled once with the SQLite benchmark's account bench-main through the
// PostgreSQL store's own import (bench/postgres/setup.ts), and dropped at the end. The server (as
// deployed) and the reference (bench/postgres/reference.ts) are pinned to core 0 and wrk to core 1, as
// in bench/run.ts; PostgreSQL's own processes are left where the kernel puts them, on either core
// (docs/performance.md, "PostgreSQL").

const args = process.argv.slice(2);
const settings = runSettings(args);
const log = (s: string) => console.error(`[bench:postgres] ${s}`);
const running: Running[] = [];

/** Fresh processes for a round: the server, a second server for the pair, the reference. */
async function startRound(d: PgData, procs: Record<string, Running>, needed: string[]): Promise<void> {
  for (const name of needed) {
    const old = procs[name];
    if (old) {
      await old.stop();
      running.splice(running.indexOf(old), 1);
    }
    const options = name === "reference" ? referenceOptions(d) : { ...serverOn(d.url, d.authorization), name };
    running.push((procs[name] = await start(options)));
  }
  // The second server waits on wrk's core while it is not measured, as the peers do in bench/run.ts.
  if (procs.second) pin(procs.second.pid, "1");
}

async function main() {
  if (cpus().length < 2) throw new Error("the benchmark pins the server and wrk to different cores: it needs 2 or more");
  await ensureTools(log);
  log("building the server as deployed (scripts/build.ts)");
  await buildTargets();
  const data = await createDatabase(log);
  const every = pgComparisons(data);
  const list = every.filter((c) => !settings.only || settings.only.includes(c.id));
  const unknown = settings.only?.filter((id) => !every.some((c) => c.id === id)) ?? [];
  if (unknown.length) throw new Error(`--only: no scenario ${unknown.join(", ")}; they are ${every.map((c) => c.id).join(", ")}`);
  const used = new Set(list.flatMap((c) => [c.subject.target, c.baseline.target]));
  const needed = ["server", ...(used.has("reference") ? ["reference"] : []), ...(used.has("pair") ? ["second"] : [])];
  const procs: Record<string, Running> = {};

  const slice = async (target: PgTarget, c: Comparison<PgTarget>, seconds: number) => {
    const load = target === c.subject.target ? c.subject : c.baseline;
    const run = { auth: load.auth, env: load.env, seconds };
    if (target !== "pair") {
      const p = procs[target];
      return loadSlice([p.pid], [{ ...run, url: p.url + load.path, connections: settings.connections }]);
    }
    const pair = [procs.server, procs.second];
    pin(procs.second.pid, "0");
    // One wrk per instance, both on wrk's core, each with half of the connections.
    const half = Math.floor(settings.connections / 2);
    const result = await loadSlice(pair.map((p) => p.pid), pair.map((p) => ({ ...run, url: p.url + load.path, connections: half })));
    pin(procs.second.pid, "1");
    return result;
  };

  let problems: string[] = [];
  const rounds: Record<string, RoundResult[]> = Object.fromEntries(list.map((c) => [c.id, []]));
  for (let r = 0; r < settings.rounds; r++) {
    log(`round ${r + 1}: starting ${needed.join(", ")}`);
    await startRound(data, procs, needed);
    const urlOf = (t: PgTarget) => procs[t === "pair" ? "second" : t].url;
    if (r === 0) {
      problems = (await Promise.all(list.map((c) => checkAnswers(urlOf, c)))).flat();
      for (const p of problems) log(`CHECK FAILED ${p}`);
    }
    for (const c of list) {
      const sides = [c.subject.target, c.baseline.target];
      const [s, b] = await pairedSlices((i, seconds) => slice(sides[i], c, seconds), r, settings);
      const ratio = s.rps / b.rps;
      rounds[c.id].push({ subject: s, baseline: b, ratio, p99Ratio: s.p99Ms / b.p99Ms });
      log(`round ${r + 1} ${c.id}: ${c.subject.target} ${s.rps.toFixed(0)} req/s, ${c.baseline.target} ${b.rps.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}`);
    }
  }
  for (const p of running.splice(0)) await p.stop();

  const summary = list.map((c) => summarize(c, rounds[c.id]));
  console.log(table(summary));
  const perRound = list.map((c) => `${c.id}: ${rounds[c.id].map((x) => `${x.subject.rps.toFixed(0)}/${x.baseline.rps.toFixed(0)} = ${x.ratio.toFixed(2)}`).join(", ")}`);
  console.log(`\nper round (subject req/s / baseline req/s = ratio):\n${perRound.join("\n")}`);
  if (problems.length) console.log(`\nchecks failed:\n${problems.join("\n")}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const out = join(import.meta.dir, "..", "results", `postgres-${stamp}.json`);
  mkdirSync(join(import.meta.dir, "..", "results"), { recursive: true });
  const [version] = await admin`SHOW server_version`;
  const machine = { cpu: cpus()[0]?.model, cores: cpus().length, memoryBytes: totalmem(), kernel: release(), bun: Bun.version, postgres: version.server_version };
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine, settings, poolSize: DEFAULT_POOL_SIZE, problems, summary, rounds }, null, 2) + "\n");
  console.log(`\nwritten: ${out}`);
}

// Stops only the processes this run started and drops only the database it made, on any exit path.
const cleanup = async () => {
  for (const p of running.splice(0)) await p.stop().catch(() => {});
  await dropDatabase(log);
};
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => void cleanup().then(() => process.exit(143)));
try {
  await main();
  await cleanup();
} catch (e) {
  console.error(`[bench:postgres] ${(e as Error).stack ?? e}`);
  await cleanup();
  process.exit(1);
}
