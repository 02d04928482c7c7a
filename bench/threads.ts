import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { generate } from "./lib/generate.ts";
import { Hooked } from "./lib/hooked.ts";
import { loadSlice } from "./lib/pair.ts";
import { start, type Running } from "./lib/procs.ts";
import { comparisons, type Load } from "./lib/scenarios.ts";
import { ensureTools } from "./lib/setup.ts";
import { buildTargets, optionsFor } from "./lib/targets.ts";

// Where scenario 12's CPU goes, thread by thread, in several processes at once: each side a process
// of the server as deployed, `hooked` (one subscription, on its own copy of the database, with its own
// receiver, drained after each slice as the benchmark does) or `plain`, optionally with settings for
// its environment. All are warmed for five seconds and then loaded in one-second slices taken in turn
// (the order reversed every other cycle). Per request answered while loaded, for each thread of each
// process: user and system CPU (µs), minor page faults and context switches, read from
// /proc/<pid>/task; and the process's read and write calls and bytes (/proc/<pid>/io). Naming the
// same side twice shows how far two processes of one build differ (docs/performance.md, "Webhooks").
// `toggled` is one subscribed process measured as two sides: with its subscription, and with it deleted
// for the slice (and made again after it), so the subscription's cost is read without the spread
// between processes.
//
//   bun bench/threads.ts [--cycles N (8)] hooked plain [plain] [toggled] [hooked+NAME=VALUE,NAME=VALUE] …

const args = process.argv.slice(2);
const at = args.indexOf("--cycles");
const CYCLES = at === -1 ? 8 : Number(args[at + 1]);
if (!Number.isInteger(CYCLES) || CYCLES < 1) throw new Error("--cycles takes a whole number of 1 or more");
const specs = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--cycles");
if (specs.length === 0) specs.push("hooked", "plain");
const log = (s: string) => console.error(`[threads] ${s}`);

type Counters = Record<string, number>;
type Reading = Record<string, Counters>;

/** Every thread's counters, threads of one name (less a trailing number) added up; the main thread apart. */
function read(pid: number): Reading {
  const out: Reading = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    let status: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
    } catch {
      continue; // The thread ended meanwhile.
    }
    const name = tid === String(pid) ? "(main)" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const count = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    const c = (out[name] ??= { userUs: 0, systemUs: 0, minorFaults: 0, switches: 0, preempted: 0 });
    const tickUs = 1e6 / 100; // USER_HZ
    c.userUs! += Number(fields[11]) * tickUs;
    c.systemUs! += Number(fields[12]) * tickUs;
    c.minorFaults! += Number(fields[7]);
    c.switches! += count("voluntary_ctxt_switches");
    c.preempted! += count("nonvoluntary_ctxt_switches");
  }
  const io = readFileSync(`/proc/${pid}/io`, "utf8");
  const get = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, "m").exec(io)?.[1] ?? 0);
  out["(io)"] = { readCalls: get("syscr"), readBytes: get("rchar"), writeCalls: get("syscw"), writeBytes: get("wchar") };
  return out;
}

function addDifference(total: Reading, before: Reading, after: Reading): void {
  for (const [name, counters] of Object.entries(after)) {
    const t = (total[name] ??= {});
    for (const [k, v] of Object.entries(counters)) t[k] = (t[k] ?? 0) + v - (before[name]?.[k] ?? 0);
  }
}

interface Side {
  name: string;
  process: Running;
  load: Load;
  hooked?: Hooked;
  /** A toggled process's side without its subscription: deleted before each slice, made again after. */
  unsubscribed?: Hooked;
  total: Reading;
  requests: number;
}

async function main() {
  await ensureTools(log);
  const data = await generate(join(import.meta.dir, ".cache"), log);
  const c = comparisons(data).find((x) => x.id === "12-hooked-patch")!;
  log("building the server as deployed (scripts/build.ts)");
  await buildTargets();
  const sides: Side[] = [];
  try {
    for (const [i, spec] of specs.entries()) {
      const [kind, settings = ""] = spec.split("+");
      if (kind !== "hooked" && kind !== "plain" && kind !== "toggled") throw new Error(`a side is hooked, plain or toggled, with +NAME=VALUE,… for its environment: not ${spec}`);
      const env = Object.fromEntries(settings.split(",").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
      const name = `${i + 1} ${spec}`;
      if (kind === "plain") {
        const o = optionsFor("server-plain", data);
        sides.push({ name, process: await start({ ...o, env: { ...o.env, ...env }, name }), load: c.baseline, total: {}, requests: 0 });
        continue;
      }
      // Each subscribed process has its own copy, made from a link of its own to the database
      // (Hooked names the copy after the path it copies).
      const source = data.dbPath.replace(/\.sqlite$/, `-threads-${i + 1}.sqlite`);
      if (!existsSync(source)) symlinkSync(data.dbPath, source);
      const hooked = new Hooked({ ...data, dbPath: source });
      await hooked.startReceiver();
      const o = optionsFor("server-hooked", data, hooked.dbPath);
      const side: Side = { name, process: await start({ ...o, env: { ...o.env, ...env }, name }), load: c.subject, hooked, total: {}, requests: 0 };
      sides.push(side);
      if (kind === "toggled") sides.push({ ...side, name: `${name} (unsubscribed)`, hooked: undefined, unsubscribed: hooked, total: {} });
      await hooked.subscribe(side.process, data.main.authorization);
    }
    const slice = async (s: Side, seconds: number, counted: boolean) => {
      const run = { url: s.process.url + s.load.path, connections: c.connections ?? 32, auth: s.load.auth, env: s.load.env, seconds };
      if (s.unsubscribed) await s.unsubscribed.unsubscribe(s.process, data.main.authorization);
      const before = read(s.process.pid);
      let after: Reading = {};
      const m = await loadSlice([s.process.pid], [run], async (r) => {
        after = read(s.process.pid);
        await s.hooked?.drain(r, s.process.pid);
      });
      if (s.unsubscribed) await s.unsubscribed.subscribe(s.process, data.main.authorization);
      if (!counted) return;
      addDifference(s.total, before, after);
      s.requests += m.requests;
    };
    log(`warming each side 5 s, then ${CYCLES} slices of 1 s each, in turn`);
    for (const s of sides) await slice(s, 5, false);
    for (let k = 0; k < CYCLES; k++) for (const s of k % 2 ? [...sides].reverse() : sides) await slice(s, 1, true);
    for (const s of sides) {
      console.log(`\n${s.name}: ${(s.requests / CYCLES).toFixed(0)} req/s; per request:`);
      for (const [thread, counters] of Object.entries(s.total)) {
        if (Object.values(counters).every((v) => v === 0)) continue;
        const cells = Object.entries(counters).map(([k, v]) => `${k} ${(v / s.requests).toFixed(2)}`);
        console.log(`  ${thread.padEnd(16)} ${cells.join("  ")}`);
      }
    }
    // A toggled process: its two sides compared, in req/s and in CPU (every thread) a request.
    const cpu = (s: Side) => Object.values(s.total).reduce((sum, c) => sum + (c.userUs ?? 0) + (c.systemUs ?? 0), 0) / s.requests;
    for (const [i, off] of sides.entries()) {
      if (!off.unsubscribed) continue;
      const on = sides[i - 1]!;
      console.log(`\n${on.name}: subscribed ÷ unsubscribed ${(on.requests / off.requests).toFixed(3)} in req/s; CPU a request ${cpu(on).toFixed(1)} against ${cpu(off).toFixed(1)} µs`);
    }
  } finally {
    for (const s of sides) {
      if (s.unsubscribed) continue; // The same process as the side before it.
      await s.process.stop();
      await s.hooked?.stop();
    }
  }
}

await main();
