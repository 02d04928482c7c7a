import { atLeastSpan, dateTimeUtc, decimalsOf, niceTicks, timeLabel, timeTicks } from "./chart-scale.ts";
import { formatSg, formatTemp } from "./format.ts";
import { html, type Html } from "./html.ts";

// The fermentation chart, drawn on the server as SVG: gravity (left axis, circles) and temperature
// (right axis, squares) over time. Shapes differ as well as colours, so the series stay apart without
// colour. Each plotted value is one element of class `reading-point`; the last reading is marked.
//
// It is drawn twice, wide and narrow, and the stylesheet shows the one that suits the screen: an SVG
// scales its type with its width, so one drawing cannot be both wide on a desktop and tall with
// readable labels on a phone. Pointing at or tapping the chart names the nearest reading
// (static/chart.js); without script each point's title does on hover, and the table lists the latest.

export interface ChartReading {
  time: number;
  sg: number | null;
  temp: number | null;
}

const finite = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Readings as stored (Reading Objects) reduced to what the chart plots, in time order. */
export function chartReadings(readings: readonly unknown[]): ChartReading[] {
  const out: ChartReading[] = [];
  for (const r of readings) {
    if (typeof r !== "object" || r === null) continue;
    const doc = r as Record<string, unknown>;
    const time = finite(doc.time);
    if (time === null) continue;
    out.push({ time, sg: finite(doc.sg), temp: finite(doc.temp) });
  }
  return out.sort((a, b) => a.time - b.time);
}

/** One drawing's geometry, in SVG units. `font` must match the stylesheet's size for its class. */
interface Frame {
  name: "wide" | "narrow";
  width: number;
  height: number;
  pad: { left: number; right: number; top: number; bottom: number };
  font: number;
  valueTicks: number;
  /** Axis names along the sides (wide), or as units above the axes (narrow, where the side is tight). */
  sideLabels: boolean;
}

export const WIDE: Frame = { name: "wide", width: 760, height: 340, pad: { left: 64, right: 64, top: 20, bottom: 44 }, font: 13, valueTicks: 5, sideLabels: true };
export const NARROW: Frame = { name: "narrow", width: 360, height: 340, pad: { left: 50, right: 42, top: 32, bottom: 40 }, font: 14, valueTicks: 4, sideLabels: false };

// Below these spans a change is noise: a degree of drift or a few points of gravity would otherwise
// fill the whole height.
const MIN_TEMP_SPAN = 4;
const MIN_SG_SPAN = 0.01;
const n1 = (v: number) => v.toFixed(1);

/** Time ticks whose labels fit side by side in `plotWidth` (labels of about 0.6 em per character). */
export function fittingTimeTicks(t0: number, t1: number, plotWidth: number, font: number) {
  for (let max = 8; max > 2; max--) {
    const ticks = timeTicks(t0, t1, max);
    const widest = Math.max(0, ...ticks.values.map((t) => timeLabel(t, ticks.step).length));
    if (ticks.values.length * (widest * font * 0.6 + 12) <= plotWidth) return ticks;
  }
  return timeTicks(t0, t1, 2);
}

const label = (r: ChartReading) =>
  `${dateTimeUtc(r.time)}: ${[r.sg === null ? null : `gravity ${formatSg(r.sg)}`, r.temp === null ? null : `temperature ${formatTemp(r.temp)}`].filter(Boolean).join(", ")}`;

function drawing(frame: Frame, plotted: readonly ChartReading[], desc: string): Html {
  const { width: W, height: H, pad, font, name } = frame;
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const first = plotted[0]!.time;
  const last = plotted[plotted.length - 1]!;
  // A single moment is widened by half a day each way so its point sits in the middle.
  const t0 = last.time === first ? first - 43_200_000 : first;
  const t1 = last.time === first ? first + 43_200_000 : last.time;
  const x = (t: number) => pad.left + ((t - t0) / (t1 - t0)) * plotW;

  const sgs = plotted.flatMap((r) => (r.sg === null ? [] : [r.sg]));
  const temps = plotted.flatMap((r) => (r.temp === null ? [] : [r.temp]));
  const gAxis = niceTicks(...atLeastSpan(Math.min(...(sgs.length ? sgs : [1])), Math.max(...(sgs.length ? sgs : [1])), MIN_SG_SPAN), frame.valueTicks, 0.005);
  const tAxis = niceTicks(...atLeastSpan(Math.min(...(temps.length ? temps : [20])), Math.max(...(temps.length ? temps : [20])), MIN_TEMP_SPAN), frame.valueTicks, 1);
  const yOf = (axis: { lo: number; hi: number }) => (v: number) => pad.top + plotH - ((v - axis.lo) / (axis.hi - axis.lo)) * plotH;
  const yG = yOf(gAxis);
  const yT = yOf(tAxis);
  const gDigits = Math.max(3, decimalsOf(gAxis.step));
  const tDigits = decimalsOf(tAxis.step);
  const time = fittingTimeTicks(t0, t1, plotW, font);
  const bottom = pad.top + plotH;
  const right = pad.left + plotW;
  const base = font * 0.35;

  const grid = gAxis.values.map(
    (v) => html`<line class="grid" x1="${pad.left}" x2="${right}" y1="${n1(yG(v))}" y2="${n1(yG(v))}"/>${sgs.length ? html`<text class="tick gravity" x="${pad.left - 6}" y="${n1(yG(v) + base)}" text-anchor="end">${v.toFixed(gDigits)}</text>` : ""}`,
  );
  const tempTicks = temps.length ? tAxis.values.map((v) => html`<text class="tick temperature" x="${right + 6}" y="${n1(yT(v) + base)}">${v.toFixed(tDigits)}</text>`) : [];
  const xTicks = time.values.map(
    (t) => html`<line class="grid" x1="${n1(x(t))}" x2="${n1(x(t))}" y1="${pad.top}" y2="${bottom}"/><text class="tick" x="${n1(x(t))}" y="${bottom + font + 6}" text-anchor="middle">${timeLabel(t, time.step)}</text>`,
  );
  const mid = pad.top + plotH / 2;
  const axisNames = frame.sideLabels
    ? html`<text class="axis-label gravity" x="14" y="${mid}" transform="rotate(-90 14 ${mid})" text-anchor="middle">Gravity (SG)</text>
<text class="axis-label temperature" x="${W - 12}" y="${mid}" transform="rotate(90 ${W - 12} ${mid})" text-anchor="middle">Temperature (°C)</text>`
    : html`<text class="axis-label gravity" x="${pad.left - 6}" y="${pad.top - 12}" text-anchor="end">SG</text>
<text class="axis-label temperature" x="${right + 6}" y="${pad.top - 12}">°C</text>`;

  const line = (pts: Array<[number, number]>, cls: string) =>
    pts.length > 1 ? html`<polyline class="series ${cls}" points="${pts.map(([a, b]) => `${n1(a)},${n1(b)}`).join(" ")}"/>` : html``;
  const gPts = plotted.flatMap((r) => (r.sg === null ? [] : [[x(r.time), yG(r.sg)] as [number, number]]));
  const tPts = plotted.flatMap((r) => (r.temp === null ? [] : [[x(r.time), yT(r.temp)] as [number, number]]));

  const points = plotted.map((r) => {
    const isLast = r === last;
    const cls = isLast ? " last" : "";
    const when = dateTimeUtc(r.time);
    const g = r.sg === null ? "" : html`<circle class="reading-point gravity${cls}" cx="${n1(x(r.time))}" cy="${n1(yG(r.sg))}" r="${isLast ? 6 : 3}"><title>${when}: gravity ${formatSg(r.sg)}</title></circle>`;
    const s = isLast ? 12 : 6;
    const t = r.temp === null ? "" : html`<rect class="reading-point temperature${cls}" x="${n1(x(r.time) - s / 2)}" y="${n1(yT(r.temp) - s / 2)}" width="${s}" height="${s}"><title>${when}: temperature ${formatTemp(r.temp)}</title></rect>`;
    return html`<g class="reading" data-x="${n1(x(r.time))}" data-label="${label(r)}">${g}${t}</g>`;
  });

  const lastX = n1(x(last.time));
  return html`<svg class="reading-chart ${name}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title-${name} chart-desc-${name}" data-readout="chart-readout" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title-${name}">Gravity and temperature over time</title>
<desc id="chart-desc-${name}">${desc}</desc>
<g class="axes">${grid}${tempTicks}${xTicks}
<line class="axis" x1="${pad.left}" x2="${pad.left}" y1="${pad.top}" y2="${bottom}"/>
<line class="axis" x1="${right}" x2="${right}" y1="${pad.top}" y2="${bottom}"/>
<line class="axis" x1="${pad.left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>
${axisNames}
</g>
<line class="last-marker" x1="${lastX}" x2="${lastX}" y1="${pad.top}" y2="${bottom}"/>
<line class="hover-marker" x1="${lastX}" x2="${lastX}" y1="${pad.top}" y2="${bottom}" visibility="hidden"/>
${line(gPts, "gravity")}${line(tPts, "temperature")}
<g class="points">${points}</g>
</svg>`;
}

/** The chart, or a sentence saying there is nothing to draw. */
export function readingChart(readings: readonly ChartReading[]): Html {
  const plotted = readings.filter((r) => r.sg !== null || r.temp !== null);
  if (plotted.length === 0) {
    const text = readings.length === 0 ? "This batch has no readings yet." : "This batch's readings carry no gravity or temperature values.";
    return html`<p class="no-readings">${text}</p>`;
  }
  const first = plotted[0]!;
  const last = plotted[plotted.length - 1]!;
  const summary = label(last).slice(dateTimeUtc(last.time).length + 2);
  const desc = `${plotted.length} readings from ${dateTimeUtc(first.time)} to ${dateTimeUtc(last.time)}. Last reading: ${summary}.`;
  return html`<figure class="chart">
<p class="chart-readout" id="chart-readout" aria-live="polite"></p>
${drawing(WIDE, plotted, desc)}
${drawing(NARROW, plotted, desc)}
<figcaption><span class="key gravity">● Gravity</span> <span class="key temperature">■ Temperature</span> <span class="key last">Last reading (${dateTimeUtc(last.time)}): ${summary}</span>. Times in UTC.</figcaption>
</figure>`;
}
