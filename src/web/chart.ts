import { dateTimeUtc, decimalsOf, niceTicks, timeLabel, timeTicks } from "./chart-scale.ts";
import { html, type Html } from "./html.ts";

// The fermentation chart, drawn on the server as SVG: gravity (left axis, circles) and temperature
// (right axis, squares) over time. Shapes differ as well as colours, so the series stay apart without
// colour. Each plotted value is one element of class `reading-point`; the last reading is marked.

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

export const formatSg = (sg: number) => sg.toFixed(3);
export const formatTemp = (t: number) => `${t.toFixed(1)} °C`;

const W = 760;
const H = 340;
const PAD = { left: 64, right: 64, top: 20, bottom: 44 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;
const n1 = (v: number) => v.toFixed(1);

/** The chart, or a sentence saying there is nothing to draw. */
export function readingChart(readings: readonly ChartReading[]): Html {
  const plotted = readings.filter((r) => r.sg !== null || r.temp !== null);
  if (plotted.length === 0) {
    const text = readings.length === 0 ? "This batch has no readings yet." : "This batch's readings carry no gravity or temperature values.";
    return html`<p class="no-readings">${text}</p>`;
  }
  const first = plotted[0]!.time;
  const last = plotted[plotted.length - 1]!;
  // A single moment is widened by half a day each way so its point sits in the middle.
  const t0 = last.time === first ? first - 43_200_000 : first;
  const t1 = last.time === first ? first + 43_200_000 : last.time;
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * PLOT_W;

  const sgs = plotted.flatMap((r) => (r.sg === null ? [] : [r.sg]));
  const temps = plotted.flatMap((r) => (r.temp === null ? [] : [r.temp]));
  const gAxis = niceTicks(Math.min(...(sgs.length ? sgs : [1])), Math.max(...(sgs.length ? sgs : [1])), 5, 0.005);
  const tAxis = niceTicks(Math.min(...(temps.length ? temps : [20])), Math.max(...(temps.length ? temps : [20])), 5, 1);
  const yOf = (axis: { lo: number; hi: number }) => (v: number) => PAD.top + PLOT_H - ((v - axis.lo) / (axis.hi - axis.lo)) * PLOT_H;
  const yG = yOf(gAxis);
  const yT = yOf(tAxis);
  const gDigits = Math.max(3, decimalsOf(gAxis.step));
  const tDigits = decimalsOf(tAxis.step);
  const time = timeTicks(t0, t1);
  const bottom = PAD.top + PLOT_H;

  const grid = gAxis.values.map(
    (v) => html`<line class="grid" x1="${PAD.left}" x2="${PAD.left + PLOT_W}" y1="${n1(yG(v))}" y2="${n1(yG(v))}"/>${sgs.length ? html`<text class="tick gravity" x="${PAD.left - 8}" y="${n1(yG(v) + 4)}" text-anchor="end">${v.toFixed(gDigits)}</text>` : ""}`,
  );
  const tempTicks = temps.length
    ? tAxis.values.map((v) => html`<text class="tick temperature" x="${PAD.left + PLOT_W + 8}" y="${n1(yT(v) + 4)}">${v.toFixed(tDigits)}</text>`)
    : [];
  const xTicks = time.values.map(
    (t) => html`<line class="grid" x1="${n1(x(t))}" x2="${n1(x(t))}" y1="${PAD.top}" y2="${bottom}"/><text class="tick" x="${n1(x(t))}" y="${bottom + 18}" text-anchor="middle">${timeLabel(t, time.step)}</text>`,
  );

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
    return html`${g}${t}`;
  });

  const summary = [last.sg === null ? null : `gravity ${formatSg(last.sg)}`, last.temp === null ? null : `temperature ${formatTemp(last.temp)}`]
    .filter(Boolean)
    .join(", ");
  const desc = `${plotted.length} readings from ${dateTimeUtc(first)} to ${dateTimeUtc(last.time)}. Last reading: ${summary}.`;
  const lastX = x(last.time);
  return html`<figure class="chart">
<svg class="reading-chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">Gravity and temperature over time</title>
<desc id="chart-desc">${desc}</desc>
<g class="axes">${grid}${tempTicks}${xTicks}
<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${bottom}"/>
<line class="axis" x1="${PAD.left + PLOT_W}" x2="${PAD.left + PLOT_W}" y1="${PAD.top}" y2="${bottom}"/>
<line class="axis" x1="${PAD.left}" x2="${PAD.left + PLOT_W}" y1="${bottom}" y2="${bottom}"/>
<text class="axis-label gravity" x="14" y="${PAD.top + PLOT_H / 2}" transform="rotate(-90 14 ${PAD.top + PLOT_H / 2})" text-anchor="middle">Gravity (SG)</text>
<text class="axis-label temperature" x="${W - 12}" y="${PAD.top + PLOT_H / 2}" transform="rotate(90 ${W - 12} ${PAD.top + PLOT_H / 2})" text-anchor="middle">Temperature (°C)</text>
</g>
<line class="last-marker" x1="${n1(lastX)}" x2="${n1(lastX)}" y1="${PAD.top}" y2="${bottom}"/>
${line(gPts, "gravity")}${line(tPts, "temperature")}
<g class="points">${points}</g>
</svg>
<figcaption><span class="key gravity">● Gravity</span> <span class="key temperature">■ Temperature</span> <span class="key last">Last reading (${dateTimeUtc(last.time)}): ${summary}</span>. Times in UTC.</figcaption>
</figure>`;
}
