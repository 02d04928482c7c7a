// What a CPU profile (`bun --cpu-prof`, the Chrome .cpuprofile format) says of a process: the time
// spent in each function by itself (self) and with what it called (inclusive), from its samples.

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  /** Microseconds before each sample since the one before it. */
  timeDeltas: number[];
}

export interface ProfileTimes {
  /** Sampled time (µs) by function, in it alone and with its callees. */
  self: Map<string, number>;
  inclusive: Map<string, number>;
  /** Every sample counted, µs. */
  total: number;
}

/** Samples taken while no JavaScript ran: the event loop waiting, and the profiler's own frames. */
const NOT_WORK = new Set(["(idle)", "(program)", "(root)", "(garbage collector)"]);

/** A function as the tables name it: its name, the last two parts of its file's path and its line. */
export function frameName(f: CpuProfile["nodes"][number]["callFrame"]): string {
  return `${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber}`;
}

/**
 * The time of each function in `profile`. A sample stands for the time until the next one, at most
 * `capUs`: the profiler samples while JavaScript runs, so the gap after the last sample of a busy
 * stretch spans the idle time after it, which no function spent. Samples whose stack holds a frame
 * matching `exclude` are left out (a delivery worker's rounds, say).
 */
export function profileTimes(profile: CpuProfile, capUs: number, exclude?: RegExp): ProfileTimes {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = byId.get(profile.samples[i]!);
    if (!leaf || NOT_WORK.has(leaf.callFrame.functionName)) continue;
    const stack: string[] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      if (!NOT_WORK.has(node.callFrame.functionName)) stack.push(frameName(node.callFrame));
    }
    if (exclude && stack.some((name) => exclude.test(name))) continue;
    const us = Math.min(profile.timeDeltas[i + 1] ?? capUs, capUs);
    total += us;
    self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + us);
    // A recursive function counts once per sample.
    for (const name of new Set(stack)) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
  return { self, inclusive, total };
}

export interface Difference {
  name: string;
  /** µs per request: the subject's, the baseline's. */
  subject: number;
  baseline: number;
}

/** The functions whose time per request differs most between two profiles, largest difference first. */
export function differences(subject: Map<string, number>, subjectRequests: number, baseline: Map<string, number>, baselineRequests: number, top: number): Difference[] {
  const names = new Set([...subject.keys(), ...baseline.keys()]);
  const rows = [...names].map((name) => ({ name, subject: (subject.get(name) ?? 0) / subjectRequests, baseline: (baseline.get(name) ?? 0) / baselineRequests }));
  rows.sort((a, b) => Math.abs(b.subject - b.baseline) - Math.abs(a.subject - a.baseline) || a.name.localeCompare(b.name));
  return rows.slice(0, top);
}
