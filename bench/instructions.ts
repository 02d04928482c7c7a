import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, type BenchData } from "./lib/generate.ts";
import { start, type Running, type StartOptions } from "./lib/procs.ts";
import { comparisons, type Load } from "./lib/scenarios.ts";
import { buildTargets, serverOptions, targetOptions } from "./lib/targets.ts";

// Instructions per request: the server and the reference each run under valgrind's callgrind, which
// counts the instructions a process executes. Unlike req/s on a shared machine (which moves by 15-50%
// from one minute to the next), the count repeats to within about 2% for reads and 5% for writes
// (SQLite's WAL checkpoints land in some windows and not others), so it shows changes that a wrk run
// cannot. Two things make it repeat: the JIT and the garbage collector run on the request thread
// (their own threads would land their work in the count whenever they got to it), and a long
// uninstrumented warm-up, so that the optimising tiers have compiled the request path before counting
// starts (with a short one, compiling was about a quarter of one count). It counts user-space work
// only: the kernel's share (sockets, SQLite's file locks and writes) is the same for both.
//
//   bun bench/instructions.ts [--requests N (2000)] [--warm-up N (20000)] [scenario ids: 1-list … 6-adjust, 7a-deep-id, 7b-deep-brewdate, 11-stream]
//
// Needs valgrind (Debian: apt-get install valgrind). Each process first answers the warm-up requests
// uninstrumented, then N counted ones, four at a time. All eight scenarios take about seven minutes
// on an idle machine.

const args = process.argv.slice(2);
const at = args.indexOf("--requests");
const requests = at === -1 ? 2000 : Number(args[at + 1]);
const chosen = args.filter((a, i) => !a.startsWith("--") && !["--requests", "--warm-up"].includes(args[i - 1]));
const at2 = args.indexOf("--warm-up");
const WARM_UP = at2 === -1 ? 20_000 : Number(args[at2 + 1]);
const log = (s: string) => console.error(`[instructions] ${s}`);

function have(bin: string): void {
  if (Bun.which(bin) === null) throw new Error(`${bin} is required (Debian: apt-get install valgrind)`);
}

/** One request of a scenario's load, the i-th: the same shapes as bench/lib/wrk.lua. */
function request(url: string, load: Load, i: number): Promise<Response> {
  const headers = { authorization: load.auth!, "content-type": "application/json" };
  const ids = load.env?.BENCH_IDS?.split(",") ?? [];
  if (load.env?.BENCH_MODE === "patch-batch") {
    const body = `{"measuredOg":${(1.04 + (i % 30) / 1000).toFixed(3)}}`;
    return fetch(`${url}/v2/batches/${ids[i % ids.length]}`, { method: "PATCH", headers, body });
  }
  if (load.env?.BENCH_MODE === "adjust") {
    const body = `{"inventory_adjust":${i % 2 === 0 ? 1 : -1}}`;
    return fetch(`${url}${load.env.BENCH_BASE}/${ids[i % ids.length]}`, { method: "PATCH", headers, body });
  }
  if (load.env?.BENCH_MODE === "stream") {
    const body = `{"name":"bench-${i % 100}","temp":${(18 + (i % 10) / 10).toFixed(1)},"gravity":${(1.01 + (i % 30) / 1000).toFixed(3)},"gravity_unit":"G"}`;
    return fetch(`${url}/stream?id=${load.env.BENCH_LOGGING_ID}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  }
  return fetch(url + load.path, { headers: { authorization: load.auth! } });
}

async function drive(url: string, load: Load, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const res = await request(url, load, next++);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${load.path}: status ${res.status}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

// The JIT and the garbage collector work on threads of their own, whenever they get to it, and
// callgrind counts every thread: here they work on the thread that asked, so a count repeats.
const STEADY = { BUN_JSC_useConcurrentJIT: "0", BUN_JSC_useConcurrentGC: "0" };

async function control(pid: number, flag: string): Promise<void> {
  const proc = Bun.spawn(["callgrind_control", flag, String(pid)], { stdout: "ignore", stderr: "pipe" });
  if ((await proc.exited) !== 0) throw new Error(`callgrind_control ${flag} ${pid} failed`);
}

/** Instructions per request of one target serving one load. */
async function count(options: StartOptions, load: Load): Promise<number> {
  const out = join(tmpdir(), `brewrecords-callgrind-${process.pid}-${options.name}.out`);
  rmSync(out, { force: true });
  const cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${out}`, ...options.cmd];
  let running: Running | undefined;
  try {
    running = await start({ ...options, cmd, env: { ...options.env, ...STEADY }, timeoutMs: 180_000 });
    await drive(running.url, load, WARM_UP);
    await control(running.pid, "--instr=on");
    await drive(running.url, load, requests);
    await control(running.pid, "--instr=off");
    // The counts are written when the process exits: it stops gracefully on SIGTERM.
    process.kill(running.pid, "SIGTERM");
    for (let i = 0; i < 600 && !/^totals: \d+/m.test(existsSync(out) ? readFileSync(out, "utf8") : ""); i++) await Bun.sleep(100);
    const totals = /^totals: (\d+)/m.exec(readFileSync(out, "utf8"));
    if (!totals) throw new Error(`no totals in ${out}`);
    return Number(totals[1]) / requests;
  } finally {
    await running?.stop();
    rmSync(out, { force: true });
  }
}

async function main() {
  have("valgrind");
  have("callgrind_control");
  const data: BenchData = await generate(join(import.meta.dir, ".cache"), log);
  await buildTargets();
  // Against the reference (scenarios 1-6), and the deep pages against the server's own first page (7).
  const list = comparisons(data).filter((c) => ["reference", "server"].includes(c.baseline.target) && (chosen.length === 0 || chosen.includes(c.id)));
  const rows: string[] = ["| scenario | instructions/request | baseline | instructions/request | ratio |", "|---|---:|---|---:|---:|"];
  const options = (load: Load) => (load.target === "server" ? serverOptions(data) : targetOptions(data, "reference"));
  const n = (x: number) => Math.round(x).toLocaleString("en");
  for (const c of list) {
    log(`${c.id}: ${c.subject.target}`);
    const subject = await count(options(c.subject), c.subject);
    log(`${c.id}: ${c.baseline.target}`);
    const baseline = await count(options(c.baseline), c.baseline);
    // As in the req/s table: baseline ÷ server for a ratio (higher is better), deep ÷ first for a cost.
    const ratio = c.kind === "ratio" ? baseline / subject : subject / baseline;
    rows.push(`| ${c.id} ${c.title} | ${n(subject)} | ${c.baseline.target} | ${n(baseline)} | ${ratio.toFixed(2)} |`);
    log(rows.at(-1)!);
  }
  console.log(rows.join("\n"));
}

await main();
