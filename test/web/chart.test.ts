import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { niceTicks, timeTicks } from "../../src/web/chart-scale.ts";
import { chartReadings, readingChart, type ChartReading } from "../../src/web/chart.ts";
import { deviceReadings, LAST_READING, manualReadings } from "./data.ts";

const count = (svg: string, re: RegExp) => (svg.match(re) ?? []).length;
const gravityPoints = (svg: string) => count(svg, /<circle class="reading-point gravity/g);
const tempPoints = (svg: string) => count(svg, /<rect class="reading-point temperature/g);

describe("chartReadings", () => {
  test("keeps time, sg and temp, sorts by time and drops readings without a time", () => {
    const out = chartReadings([
      { time: 3, sg: 1.01, temp: 18 },
      { sg: 1.02, temp: 19 },
      { time: 1, sg: null, temp: 20, comment: "manual" },
      { time: "2", sg: 1.03, temp: 18 },
      null,
      { time: 2, sg: Number.NaN, temp: "19" },
    ]);
    expect(out).toEqual([
      { time: 1, sg: null, temp: 20 },
      { time: 2, sg: null, temp: null },
      { time: 3, sg: 1.01, temp: 18 },
    ]);
  });
});

describe("readingChart", () => {
  test("no readings: a sentence instead of a chart", () => {
    const out = readingChart([]).text;
    expect(out).toBe(`<p class="no-readings">This batch has no readings yet.</p>`);
  });

  test("readings without any value: says so, no chart", () => {
    const out = readingChart([{ time: 1, sg: null, temp: null }]).text;
    expect(out).toContain("no gravity or temperature values");
    expect(out).not.toContain("<svg");
  });

  test("one gravity circle per reading with sg and one temperature square per reading with temp", () => {
    const readings = chartReadings([...manualReadings(), ...deviceReadings()]);
    const svg = readingChart(readings).text;
    expect(gravityPoints(svg)).toBe(29);
    expect(tempPoints(svg)).toBe(31);
    expect(count(svg, /class="reading-point/g)).toBe(60);
  });

  test("the last reading in time is highlighted in both series, and named in the caption", () => {
    const readings = chartReadings([...deviceReadings()].reverse());
    const svg = readingChart(readings).text;
    expect(count(svg, /class="reading-point [a-z]+ last"/g)).toBe(2);
    const last = /<circle class="reading-point gravity last"[^>]*r="6"><title>([^<]*)<\/title>/.exec(svg);
    expect(last?.[1]).toBe(`2024-03-09 16:00 UTC: gravity ${LAST_READING.sg!.toFixed(3)}`);
    expect(svg).toContain(`Last reading (2024-03-09 16:00 UTC): gravity 1.013, temperature 19.0 °C`);
  });

  test("a single reading is drawn in the middle of the plot", () => {
    const svg = readingChart([{ time: Date.UTC(2024, 0, 1), sg: 1.05, temp: 20 }]).text;
    expect(svg).toContain(`<circle class="reading-point gravity last" cx="380.0"`);
  });

  test("the chart names itself for screen readers", () => {
    const svg = readingChart(chartReadings(deviceReadings())).text;
    expect(svg).toContain(`role="img" aria-labelledby="chart-title chart-desc"`);
    expect(svg).toContain(`<desc id="chart-desc">29 readings from 2024-03-02 16:00 UTC to 2024-03-09 16:00 UTC.`);
  });

  const reading: fc.Arbitrary<ChartReading> = fc.record({
    time: fc.integer({ min: Date.UTC(2015, 0, 1), max: Date.UTC(2035, 0, 1) }),
    sg: fc.option(fc.double({ min: 0.99, max: 1.2, noNaN: true }), { nil: null }),
    temp: fc.option(fc.double({ min: -5, max: 40, noNaN: true }), { nil: null }),
  });

  test("property: points match the values given and lie inside the drawing", () => {
    fc.assert(
      fc.property(fc.array(reading, { minLength: 1, maxLength: 60 }), (list) => {
        const sorted = [...list].sort((a, b) => a.time - b.time);
        const svg = readingChart(sorted).text;
        const plotted = sorted.filter((r) => r.sg !== null || r.temp !== null);
        if (plotted.length === 0) return expect(svg).toContain("no-readings");
        expect(gravityPoints(svg)).toBe(sorted.filter((r) => r.sg !== null).length);
        expect(tempPoints(svg)).toBe(sorted.filter((r) => r.temp !== null).length);
        const last = plotted.at(-1)!;
        expect(count(svg, /class="reading-point [a-z]+ last"/g)).toBe((last.sg === null ? 0 : 1) + (last.temp === null ? 0 : 1));
        for (const m of svg.matchAll(/c([xy])="(-?[\d.]+)"/g)) {
          const v = Number(m[2]);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(m[1] === "x" ? 760 : 340);
        }
      }),
    );
  });
});

describe("axes", () => {
  test("gravity 1.012 to 1.052 gets ticks every 0.01 from 1.01 to 1.06", () => {
    expect(niceTicks(1.012, 1.052)).toEqual({ lo: 1.01, hi: 1.06, step: 0.01, values: [1.01, 1.02, 1.03, 1.04, 1.05, 1.06] });
  });

  test("a flat range is widened by the padding", () => {
    expect(niceTicks(20, 20, 5, 1)).toEqual({ lo: 19, hi: 21, step: 0.5, values: [19, 19.5, 20, 20.5, 21] });
  });

  test("property: ticks cover the range in equal ascending steps", () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (min, span) => {
        const t = niceTicks(min, min + span);
        // Rounding may leave the range's ends outside by a sliver of one step, which no drawing shows.
        const sliver = t.step * 1e-6;
        expect(t.lo).toBeLessThanOrEqual(min + sliver);
        expect(t.hi + sliver).toBeGreaterThanOrEqual(span < 1e-12 ? min + 1 : min + span);
        expect(t.values[0]).toBe(t.lo);
        expect(t.values.at(-1)).toBe(t.hi);
        for (let i = 1; i < t.values.length; i++) expect(t.values[i]! - t.values[i - 1]!).toBeCloseTo(t.step, 9);
        expect(t.values.length).toBeLessThanOrEqual(12);
      }),
    );
  });

  test("a week of readings gets daily ticks at UTC midnight", () => {
    const from = Date.UTC(2024, 2, 2, 16);
    const ticks = timeTicks(from, from + 7 * 86_400_000);
    expect(ticks.step).toBe(86_400_000);
    expect(ticks.values[0]).toBe(Date.UTC(2024, 2, 3));
    expect(ticks.values).toHaveLength(7);
  });
});
