import type { Comparison } from "./scenarios.ts";
import type { StartupResult, SoakResult } from "./startup.ts";
import type { WrkResult } from "./wrk.ts";

// Per-round figures to one summary row per comparison (medians; peak RSS is the maximum), the printed
// table, and the pass/fail line of each target.

export interface Measured extends WrkResult {
  peakRss: number;
  /** CPU the target used while wrk ran (user and system, clock ticks of 10 ms). */
  cpuTicks: number;
}

export interface RoundResult {
  subject: Measured;
  baseline: Measured;
  /** subject ÷ baseline req/s ("ratio") or baseline ÷ subject req/s ("cost"). */
  ratio: number;
  p99Ratio: number;
}

export interface Side {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMb: number;
  errors: number;
}

export interface SummaryRow {
  id: string;
  title: string;
  subject: Side;
  baseline: Side & { target: string };
  ratio: number;
  p99Ratio: number;
  target: string;
  pass: boolean;
}

/**
 * One side of a comparison measured in several slices: requests over the time measured, and each
 * latency percentile as the slices' figures weighted by their requests (wrk reports percentiles per
 * run, not the samples to pool: an estimate, exact when the slices agree).
 */
export function pooled(slices: Measured[]): Measured {
  const requests = slices.reduce((a, m) => a + m.requests, 0);
  const durationS = slices.reduce((a, m) => a + m.durationS, 0);
  const weighted = (f: (m: Measured) => number) => (requests ? slices.reduce((a, m) => a + f(m) * m.requests, 0) / requests : 0);
  return {
    rps: durationS ? requests / durationS : 0,
    p50Ms: weighted((m) => m.p50Ms),
    p99Ms: weighted((m) => m.p99Ms),
    maxMs: Math.max(...slices.map((m) => m.maxMs)),
    requests,
    durationS,
    errors: slices.reduce((a, m) => a + m.errors, 0),
    peakRss: Math.max(...slices.map((m) => m.peakRss)),
    cpuTicks: slices.reduce((a, m) => a + m.cpuTicks, 0),
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const side = (ms: Measured[]): Side => ({
  rps: median(ms.map((m) => m.rps)),
  p50Ms: median(ms.map((m) => m.p50Ms)),
  p99Ms: median(ms.map((m) => m.p99Ms)),
  peakRssMb: Math.max(...ms.map((m) => m.peakRss)) / 1e6,
  errors: ms.reduce((a, m) => a + m.errors, 0),
});

export function summarize(c: Comparison<string>, rounds: RoundResult[]): SummaryRow {
  const ratio = median(rounds.map((r) => r.ratio));
  const p99Ratio = median(rounds.map((r) => r.p99Ratio));
  const subject = side(rounds.map((r) => r.subject));
  const baseline = side(rounds.map((r) => r.baseline));
  const met = c.target === undefined || (c.kind === "ratio" ? ratio >= c.target : ratio <= c.target);
  let pass = met && subject.errors === 0 && baseline.errors === 0;
  let target = c.target === undefined ? "shown" : `${c.kind === "ratio" ? "≥" : "≤"} ${c.target}×`;
  if (c.p99Target !== undefined) {
    pass &&= p99Ratio <= c.p99Target;
    target += `, p99 ≤ ${c.p99Target}×`;
  }
  return { id: c.id, title: c.title, subject, baseline: { ...baseline, target: c.baseline.target }, ratio, p99Ratio, target, pass };
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

/** A Markdown table: readable in a terminal and pasted as is into docs/performance.md. */
export function table(rows: SummaryRow[], startup?: StartupResult, soakResult?: SoakResult): string {
  const lines = [
    "| scenario | server req/s | p50 ms | p99 ms | peak RSS MB | baseline | req/s | p50 ms | p99 ms | ratio | p99 ratio | target | ok |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const r of rows) {
    const s = r.subject;
    const b = r.baseline;
    const errors = s.errors || b.errors ? ` (errors: ${s.errors}/${b.errors})` : "";
    lines.push(
      `| ${r.id} ${r.title} | ${f0(s.rps)} | ${f1(s.p50Ms)} | ${f1(s.p99Ms)} | ${f0(s.peakRssMb)} | ${b.target} | ${f0(b.rps)} | ${f1(b.p50Ms)} | ${f1(b.p99Ms)} | ${f2(r.ratio)} | ${f2(r.p99Ratio)} | ${r.target} | ${r.target === "shown" && r.pass ? "–" : r.pass ? "yes" : "no"}${errors} |`,
    );
  }
  if (startup) {
    const ms = (xs: { readyMs: number }[]) => f0(median(xs.map((x) => x.readyMs)));
    const mb = (xs: { idleRss: number }[]) => f0(median(xs.map((x) => x.idleRss)) / 1e6);
    // As deployed (both bundled) is what the target is about; from sources is shown beside it.
    for (const [way, label, hello, checked] of [["bundle", "as deployed", "Elysia hello, bundled", true], ["sources", "from sources", "Elysia hello, sources", false]] as const) {
      const p = startup[way];
      const verdict = (r: number) => (checked ? `≤ 1.5× | ${r <= 1.5 ? "yes" : "no"}` : "shown | –");
      lines.push(
        `| cold start to first 200, ${label} (ms) | ${ms(p.server)} | | | | ${hello} | ${ms(p.hello)} | | | ${f2(p.coldStartRatio)} | | ${verdict(p.coldStartRatio)} |`,
        `| idle RSS, ${label} (MB) | ${mb(p.server)} | | | | ${hello} | ${mb(p.hello)} | | | ${f2(p.idleRssRatio)} | | ${verdict(p.idleRssRatio)} |`,
      );
    }
  }
  if (soakResult) {
    const { shortSeconds: a, longSeconds: b, rssAfterShort, rssAfterLong, growth } = soakResult;
    lines.push(
      `| RSS after ${b} s vs ${a} s mixed load (MB) | ${f0(rssAfterLong / 1e6)} | | | | after ${a} s | ${f0(rssAfterShort / 1e6)} | | | ${f2(growth)} | | ≤ 1.2× | ${growth <= 1.2 ? "yes" : "no"} |`,
    );
  }
  return lines.join("\n");
}
