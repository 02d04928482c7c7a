// The benchmark pools a side's one-second slices into one figure: req/s over the time measured, and
// each latency percentile weighted by the slices' requests (bench/lib/report.ts).
import { describe, expect, test } from "bun:test";
import { pooled, type Measured } from "../../bench/lib/report.ts";

const slice = (requests: number, durationS: number, p50Ms: number, p99Ms: number, extra: Partial<Measured> = {}): Measured => ({
  rps: requests / durationS, p50Ms, p99Ms, maxMs: p99Ms * 2, requests, durationS, errors: 0, peakRss: 50e6, cpuTicks: 10, ...extra,
});

describe("pooled", () => {
  test("req/s is all requests over all measured time, not the mean of the slices' rates", () => {
    // 10,000 in 1 s and 2,000 in 1 s: 6,000 req/s. Slices of unequal length weigh by their time.
    expect(pooled([slice(10_000, 1, 1, 2), slice(2_000, 1, 1, 2)]).rps).toBe(6_000);
    expect(pooled([slice(9_000, 1.5, 1, 2), slice(1_000, 0.5, 1, 2)]).rps).toBe(5_000);
  });

  test("percentiles weigh each slice by its requests; max, errors, peak RSS and CPU combine as such", () => {
    const p = pooled([
      slice(3_000, 1, 1, 4, { maxMs: 9, errors: 2, peakRss: 60e6, cpuTicks: 90 }),
      slice(1_000, 1, 2, 8, { maxMs: 30, errors: 1, peakRss: 55e6, cpuTicks: 40 }),
    ]);
    expect(p.cpuTicks).toBe(130);
    expect(p.p50Ms).toBe(1.25);
    expect(p.p99Ms).toBe(5);
    expect(p.maxMs).toBe(30);
    expect(p.errors).toBe(3);
    expect(p.peakRss).toBe(60e6);
    expect(p.requests).toBe(4_000);
    expect(p.durationS).toBe(2);
  });

  test("one slice is itself (percentiles to rounding)", () => {
    const one = slice(4_321, 1.002, 1.7, 3.9, { errors: 1 });
    const { p50Ms, p99Ms, ...rest } = pooled([one]);
    expect(rest).toEqual({ rps: one.rps, maxMs: one.maxMs, requests: one.requests, durationS: one.durationS, errors: 1, peakRss: one.peakRss, cpuTicks: one.cpuTicks });
    expect(p50Ms).toBeCloseTo(1.7, 12);
    expect(p99Ms).toBeCloseTo(3.9, 12);
  });
});
