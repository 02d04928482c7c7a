import { join } from "node:path";

// wrk on its own core (the server has the other), loopback only, fixed connections and duration.

export interface WrkResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  /** Seconds measured, as wrk timed them. */
  durationS: number;
  /** Connect, read, write and timeout errors plus answers other than 2xx/3xx. */
  errors: number;
}

export interface WrkRun {
  url: string;
  connections: number;
  seconds: number;
  /** Authorization header value. */
  auth?: string;
  /** Extra environment for bench/lib/wrk.lua (BENCH_MODE and its inputs). */
  env?: Record<string, string>;
}

const SCRIPT = join(import.meta.dir, "wrk.lua");

export async function wrk(run: WrkRun): Promise<WrkResult> {
  if (!new URL(run.url).hostname.match(/^127\.0\.0\.1$/)) throw new Error(`refusing to load anything but 127.0.0.1: ${run.url}`);
  const args = ["taskset", "-c", "1", "wrk", "-t1", `-c${run.connections}`, `-d${run.seconds}s`, "--timeout", "5s", "-s", SCRIPT];
  if (run.auth) args.push("-H", `Authorization: ${run.auth}`);
  args.push(run.url);
  const proc = Bun.spawn(args, { env: { ...process.env, BENCH_AUTH: run.auth ?? "", ...run.env }, stdout: "pipe", stderr: "pipe" });
  // Bounded: wrk stops itself after the duration; this is only the backstop.
  const killer = setTimeout(() => proc.kill("SIGKILL"), (run.seconds + 30) * 1000);
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  const line = out.split("\n").find((l) => l.startsWith("BENCH "));
  if (!line) throw new Error(`wrk gave no result for ${run.url}: ${out}${err}`);
  const r = JSON.parse(line.slice(6)) as {
    requests: number; duration_us: number; p50_us: number; p99_us: number; max_us: number;
    errors: Record<string, number>;
  };
  return {
    rps: r.requests / (r.duration_us / 1e6),
    p50Ms: r.p50_us / 1000,
    p99Ms: r.p99_us / 1000,
    maxMs: r.max_us / 1000,
    requests: r.requests,
    durationS: r.duration_us / 1e6,
    errors: Object.values(r.errors).reduce((a, b) => a + b, 0),
  };
}
