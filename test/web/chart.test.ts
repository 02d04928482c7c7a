import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { atLeastSpan, niceTicks, timeLabel, timeTicks } from "../../src/web/chart-scale.ts";
import { chartReadings, fittingTimeTicks, NARROW, readingChart, WIDE, type ChartReading } from "../../src/web/chart.ts";
import { deviceReadings, LAST_READING, manualReadings } from "./data.ts";

const count = (svg: string, re: RegExp) => (svg.match(re) ?? []).length;
const gravityPoints = (svg: string) => count(svg, /<circle class="reading-point gravity/g);
const tempPoints = (svg: string) => count(svg, /<rect class="reading-point temperature/g);
/** The wide and the narrow drawing of one chart, in that order. */
const drawings = (out: string) => [...out.matchAll(/<svg class="reading-chart (wide|narrow)"[\s\S]*?<\/svg>/g)].map((m) => ({ name: m[1], svg: m[0] }));
const wide = (out: string) => drawings(out).find((d) => d.name === "wide")!.svg;
const narrow = (out: string) => drawings(out).find((d) => d.name === "narrow")!.svg;
const tickValues = (svg: string, cls: string) => [...svg.matchAll(new RegExp(`<text class="tick ${cls}"[^>]*>([^<]+)</text>`, "g"))].map((m) => Number(m[1]));

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

  test("one gravity circle per reading with sg and one temperature square per reading with temp, in each drawing", () => {
    const readings = chartReadings([...manualReadings(), ...deviceReadings()]);
    const out = readingChart(readings).text;
    expect(drawings(out).map((d) => d.name)).toEqual(["wide", "narrow"]);
    for (const { svg } of drawings(out)) {
      expect(gravityPoints(svg)).toBe(29);
      expect(tempPoints(svg)).toBe(31);
      expect(count(svg, /class="reading-point/g)).toBe(60);
      expect(count(svg, /<g class="reading" /g)).toBe(31);
    }
  });

  test("each reading names its time and values for the pointer readout", () => {
    const svg = wide(readingChart(chartReadings([...manualReadings(), ...deviceReadings()])).text);
    expect(svg).toContain(`data-label="2024-03-09 16:00 UTC: gravity 1.013, temperature 19.0 °C"`);
    expect(svg).toContain(`data-label="2024-03-03 23:00 UTC: temperature 19.5 °C"`);
  });

  test("the narrow drawing is taller for its width, with fewer time ticks and value labels at least two lines apart", () => {
    expect(NARROW.height / NARROW.width).toBeGreaterThan(2 * (WIDE.height / WIDE.width));
    const out = readingChart(chartReadings(deviceReadings())).text;
    expect(narrow(out)).toContain(`viewBox="0 0 ${NARROW.width} ${NARROW.height}"`);
    const timeTickCount = (svg: string) => count(svg, /<text class="tick" /g);
    expect(timeTickCount(narrow(out))).toBeLessThan(timeTickCount(wide(out)));
    const ys = [...narrow(out).matchAll(/<text class="tick gravity" x="[\d.]+" y="([\d.]+)"/g)].map((m) => Number(m[1]));
    for (let i = 1; i < ys.length; i++) expect(Math.abs(ys[i]! - ys[i - 1]!)).toBeGreaterThanOrEqual(2 * NARROW.font);
  });

  test("the temperature axis spans at least 4 °C: 18 to 20 °C is drawn from 17 to 21", () => {
    const out = readingChart(chartReadings(deviceReadings())).text;
    const temps = tickValues(wide(out), "temperature");
    expect(temps[0]).toBe(17);
    expect(temps.at(-1)).toBe(21);
  });

  test("the last reading in time is highlighted in both series, and named in the caption", () => {
    const readings = chartReadings([...deviceReadings()].reverse());
    const svg = readingChart(readings).text;
    expect(count(wide(svg), /class="reading-point [a-z]+ last"/g)).toBe(2);
    expect(count(narrow(svg), /class="reading-point [a-z]+ last"/g)).toBe(2);
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
    expect(svg).toContain(`role="img" aria-labelledby="chart-title-wide chart-desc-wide"`);
    expect(svg).toContain(`role="img" aria-labelledby="chart-title-narrow chart-desc-narrow"`);
    expect(svg).toContain(`<desc id="chart-desc-wide">29 readings from 2024-03-02 16:00 UTC to 2024-03-09 16:00 UTC.`);
    expect(svg).toContain(`<desc id="chart-desc-narrow">29 readings from 2024-03-02 16:00 UTC to 2024-03-09 16:00 UTC.`);
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
        const out = readingChart(sorted).text;
        const plotted = sorted.filter((r) => r.sg !== null || r.temp !== null);
        if (plotted.length === 0) return expect(out).toContain("no-readings");
        for (const frame of [WIDE, NARROW]) {
          const svg = frame === WIDE ? wide(out) : narrow(out);
          expect(gravityPoints(svg)).toBe(sorted.filter((r) => r.sg !== null).length);
          expect(tempPoints(svg)).toBe(sorted.filter((r) => r.temp !== null).length);
          const last = plotted.at(-1)!;
          expect(count(svg, /class="reading-point [a-z]+ last"/g)).toBe((last.sg === null ? 0 : 1) + (last.temp === null ? 0 : 1));
          for (const m of svg.matchAll(/c([xy])="(-?[\d.]+)"/g)) {
            const v = Number(m[2]);
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(m[1] === "x" ? frame.width : frame.height);
          }
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

  test("a range narrower than the minimum span is widened about its middle; a wider one is kept", () => {
    expect(atLeastSpan(18, 20, 4)).toEqual([17, 21]);
    expect(atLeastSpan(10, 30, 4)).toEqual([10, 30]);
  });

  test("time labels fit side by side: a narrow plot gets fewer ticks for the same week", () => {
    const from = Date.UTC(2024, 2, 2, 16);
    const to = from + 7 * 86_400_000;
    const plotW = NARROW.width - NARROW.pad.left - NARROW.pad.right;
    const narrowTicks = fittingTimeTicks(from, to, plotW, NARROW.font);
    const wideTicks = fittingTimeTicks(from, to, WIDE.width - WIDE.pad.left - WIDE.pad.right, WIDE.font);
    expect(narrowTicks.values.length).toBeLessThan(wideTicks.values.length);
    const widest = Math.max(...narrowTicks.values.map((t) => timeLabel(t, narrowTicks.step).length));
    expect(narrowTicks.values.length * (widest * NARROW.font * 0.6)).toBeLessThanOrEqual(plotW);
  });

  test("a week of readings gets daily ticks at UTC midnight", () => {
    const from = Date.UTC(2024, 2, 2, 16);
    const ticks = timeTicks(from, from + 7 * 86_400_000);
    expect(ticks.step).toBe(86_400_000);
    expect(ticks.values[0]).toBe(Date.UTC(2024, 2, 3));
    expect(ticks.values).toHaveLength(7);
  });
});
