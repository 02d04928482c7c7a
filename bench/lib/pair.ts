import { cpuTicks, rssSampler } from "./procs.ts";
import { pooled, type Measured } from "./report.ts";
import { wrk, type WrkResult, type WrkRun } from "./wrk.ts";

// Two sides of a comparison measured in turn, and one side's slice: wrk against one or more processes.

/** The length of one measured slice; a side gets `seconds` of them per comparison and round. */
export const SLICE_SECONDS = 1;

/**
 * Both sides warmed, then measured in one-second slices taken in turn (A B B A A B …, the first side
 * alternating by round) until each has `seconds` of them. The load of these machines drifts by 10–30%
 * from one few-second stretch to the next; one side's five seconds measured after the other's took
 * that drift into the ratio (docs/performance.md, "Running it").
 */
export async function pairedSlices(
  slice: (side: 0 | 1, seconds: number) => Promise<Measured>,
  round: number,
  o: { seconds: number; warmupSeconds: number },
): Promise<[Measured, Measured]> {
  const slices: Measured[][] = [[], []];
  const first = (round % 2) as 0 | 1;
  const other = (i: 0 | 1) => (1 - i) as 0 | 1;
  for (const i of [first, other(first)]) await slice(i, o.warmupSeconds);
  for (let k = 0; k < o.seconds; k++) {
    const a = ((first + k) % 2) as 0 | 1;
    slices[a].push(await slice(a, SLICE_SECONDS));
    slices[other(a)].push(await slice(other(a), SLICE_SECONDS));
  }
  return [pooled(slices[0]), pooled(slices[1])];
}

/**
 * One slice against one or more processes serving the same thing: a wrk each, run together, their
 * connections split evenly; requests added up, latencies weighted by requests, peak RSS added up.
 * Returns once every process has gone quiet, so the next slice starts on an idle machine.
 */
export async function loadSlice(pids: number[], runs: WrkRun[], afterLoad?: (result: WrkResult) => Promise<void>): Promise<Measured> {
  const samplers = pids.map((pid) => rssSampler(pid));
  const ticks = pids.map((pid) => cpuTicks(pid));
  const results = await Promise.all(runs.map((r) => wrk(r)));
  const peakRss = samplers.reduce((sum, s) => sum + s.stop(), 0);
  // CPU used while the load ran, by every process serving it.
  const used = pids.reduce((sum, pid, i) => sum + cpuTicks(pid) - ticks[i]!, 0);
  if (afterLoad) await afterLoad(results[0]!);
  for (const pid of pids) await settle(pid);
  if (results.length === 1) return { ...results[0]!, peakRss, cpuTicks: used };
  // Side by side, not one after the other: rates add up over the common duration.
  const combined = pooled(results.map((r) => ({ ...r, peakRss: 0, cpuTicks: 0 })));
  const durationS = Math.max(...results.map((r) => r.durationS));
  return { ...combined, durationS, rps: combined.requests / durationS, peakRss, cpuTicks: used };
}

/** Waits until a process has used no CPU for 200 ms: a slow target may still drain queued requests. */
export async function settle(pid: number): Promise<void> {
  let last = cpuTicks(pid);
  for (let quiet = 0, i = 0; quiet < 2 && i < 200; i++) {
    await Bun.sleep(100);
    const now = cpuTicks(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}
