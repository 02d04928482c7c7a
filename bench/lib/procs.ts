import type { Subprocess } from "bun";
import { readFileSync } from "node:fs";

// Processes under test: spawned pinned to one core, probed until they answer 200, measured through
// /proc, and stopped by their own pid only.

export interface Running {
  name: string;
  pid: number;
  url: string;
  /** Milliseconds from spawn to the first 200 of the readiness probe. */
  readyMs: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  cmd: string[];
  env?: Record<string, string>;
  cwd?: string;
  port: number;
  /** Path and headers of a request that answers 200 once the process is ready. */
  probe: { path: string; headers?: Record<string, string> };
  cpu?: string;
  timeoutMs?: number;
}

/** A port the kernel just handed out on loopback, released for the process to take. */
export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Resident set size in bytes, or 0 when the process is gone. */
export function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** User plus system CPU time of a process in clock ticks, or -1 when it is gone. */
export function cpuTicks(pid: number): number {
  try {
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return -1;
  }
}

/** Moves every thread of a running process to the given cores (taskset's list, such as "0" or "1"). */
export function pin(pid: number, cpu: string): void {
  const p = Bun.spawnSync(["taskset", "-a", "-p", "-c", cpu, String(pid)], { stdout: "ignore", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`taskset could not move process ${pid} to core ${cpu}: ${p.stderr.toString()}`);
}

/** Samples RSS every 100 ms until stopped; returns the peak seen. */
export function rssSampler(pid: number): { stop(): number } {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rss(pid));
    },
  };
}

export async function start(o: StartOptions): Promise<Running> {
  const url = `http://127.0.0.1:${o.port}`;
  const t0 = performance.now();
  // taskset execs the command, so the pid is the measured process itself.
  const proc: Subprocess = Bun.spawn(["taskset", "-c", o.cpu ?? "0", ...o.cmd], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    stdout: "ignore",
    stderr: "pipe",
  });
  const deadline = t0 + (o.timeoutMs ?? 60_000);
  let readyMs = -1;
  while (performance.now() < deadline && proc.exitCode === null) {
    try {
      const res = await fetch(url + o.probe.path, { headers: o.probe.headers });
      await res.arrayBuffer();
      if (res.status === 200) {
        readyMs = performance.now() - t0;
        break;
      }
    } catch {
      // Not listening yet.
    }
    await Bun.sleep(2);
  }
  const stop = async () => {
    if (proc.exitCode !== null) return;
    proc.kill("SIGTERM");
    const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
    if (!done) proc.kill("SIGKILL");
    await proc.exited;
  };
  if (readyMs < 0) {
    await stop();
    const err = await new Response(proc.stderr as ReadableStream).text();
    throw new Error(`${o.name} did not answer 200 on ${o.probe.path} (exit ${proc.exitCode}): ${err.slice(-2000)}`);
  }
  return { name: o.name, pid: proc.pid, url, readyMs, stop };
}
