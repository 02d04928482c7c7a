import { buildTargets, serverOn } from "../lib/targets.ts";
import { cpuTicks, start, type Running } from "../lib/procs.ts";
import { settle } from "../lib/pair.ts";
import { wrk } from "../lib/wrk.ts";
import { admin, createDatabase, dropDatabase, pgComparisons, referenceOptions } from "./setup.ts";

// CPU time per request, the server against the reference on PostgreSQL: the process's own and that of
// its PostgreSQL backends, from /proc, over a few seconds of wrk load. On a machine shared with other
// work, req/s moves with the neighbours' load; CPU time per request moves much less, so it shows what a
// change to the PostgreSQL store saves while the machine is busy. Not a target: npm run bench:postgres is.
//
//   bun bench/postgres/cpu.ts [--seconds S (3)] [--rounds N (3)] [scenario ids, as bench:postgres prints them]

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const seconds = opt("--seconds", 3);
const rounds = opt("--rounds", 3);
const chosen = args.filter((a, i) => !a.startsWith("--") && !["--seconds", "--rounds"].includes(args[i - 1]));
const log = (s: string) => console.error(`[cpu] ${s}`);
const TICK_MS = 1000 / 100;
const running: Running[] = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Transactions committed in the database so far (each statement outside a transaction is one). */
async function commits(database: string): Promise<number> {
  const [row] = await admin`SELECT pg_stat_force_next_flush(), xact_commit FROM pg_stat_database WHERE datname = ${database}`;
  return Number(row.xact_commit);
}

async function backends(database: string): Promise<number[]> {
  const rows = await admin`SELECT pid FROM pg_stat_activity WHERE datname = ${database} AND pid <> pg_backend_pid()`;
  return rows.map((r: { pid: number }) => Number(r.pid));
}

try {
  await buildTargets();
  const data = await createDatabase(log);
  const database = new URL(data.url).pathname.slice(1);
  const server = await start(serverOn(data.url, data.authorization));
  const reference = await start(referenceOptions(data));
  running.push(server, reference);
  const list = pgComparisons(data).filter((c) => c.baseline.target === "reference" && (!chosen.length || chosen.includes(c.id)));
  console.log("| scenario | side | req/s | process µs/req | PostgreSQL µs/req | total µs/req | transactions/req |\n|---|---|---:|---:|---:|---:|---:|");
  for (const c of list) {
    const sides = [[c.subject, server], [c.baseline, reference]] as const;
    const samples = sides.map(() => ({ app: [] as number[], pg: [] as number[], rps: [] as number[], tx: [] as number[] }));
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 ? [1, 0] : [0, 1]) {
        const [load, p] = sides[k];
        const run = { url: p.url + load.path, connections: 32, auth: load.auth, env: load.env };
        await wrk({ ...run, seconds: 1 });
        await settle(p.pid);
        // Backends report their counts at most once a second.
        await Bun.sleep(1100);
        const pids = await backends(database);
        const before = [cpuTicks(p.pid), pids.reduce((a, pid) => a + Math.max(0, cpuTicks(pid)), 0), await commits(database)];
        const result = await wrk({ ...run, seconds });
        await settle(p.pid);
        await Bun.sleep(1100);
        const after = [cpuTicks(p.pid), pids.reduce((a, pid) => a + Math.max(0, cpuTicks(pid)), 0), await commits(database)];
        samples[k].app.push(((after[0] - before[0]) * TICK_MS * 1000) / result.requests);
        samples[k].pg.push(((after[1] - before[1]) * TICK_MS * 1000) / result.requests);
        samples[k].rps.push(result.rps);
        samples[k].tx.push((after[2] - before[2]) / result.requests);
      }
    }
    sides.forEach(([load], k) => {
      const s = samples[k];
      const app = median(s.app);
      const pg = median(s.pg);
      console.log(`| ${c.id} | ${load.target} | ${median(s.rps).toFixed(0)} | ${app.toFixed(0)} | ${pg.toFixed(0)} | ${(app + pg).toFixed(0)} | ${median(s.tx).toFixed(2)} |`);
    });
  }
} finally {
  for (const p of running) await p.stop();
  await dropDatabase(log);
}
