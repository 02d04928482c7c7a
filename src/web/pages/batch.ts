import { dateTimeUtc, dateUtc } from "../chart-scale.ts";
import { readingChart, type ChartReading } from "../chart.ts";
import { fermentationFigures } from "../figures.ts";
import { formatSg, formatTemp, num, text } from "../format.ts";
import { html, type Html } from "../html.ts";
import { devicesSection, type BatchDevicesView } from "./batch-devices.ts";
import { figuresPanel } from "./batch-figures.ts";
import { measuredSection, type MeasuredFormView } from "./batch-measured.ts";
import { batchTitle } from "./batches.ts";

type Doc = Record<string, unknown>;

function facts(doc: Doc): Html {
  const date = (key: string) => {
    const v = num(doc[key]);
    return v === undefined ? undefined : html`<time datetime="${dateUtc(v)}">${dateUtc(v)}</time>`;
  };
  const items: Array<[string, Html | string | number | undefined]> = [
    ["Status", text(doc.status)],
    ["Batch number", num(doc.batchNo)],
    ["Recipe", text((doc.recipe as Doc | undefined)?.name)],
    ["Brewer", text(doc.brewer)],
    ["Brew date", date("brewDate")],
    ["Fermentation start", date("fermentationStartDate")],
    ["Bottling date", date("bottlingDate")],
  ];
  return html`<dl class="facts">${items.filter(([, v]) => v !== undefined).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

function notes(doc: Doc): Html {
  const parts: Html[] = [];
  const own = text(doc.batchNotes) ?? text(doc.notes);
  if (own) parts.push(html`<p class="note-text">${own}</p>`);
  if (Array.isArray(doc.notes)) {
    const entries = doc.notes
      .filter((n): n is Doc => typeof n === "object" && n !== null)
      .map((n) => ({ when: num(n.timestamp), status: text(n.status), note: text(n.note), type: text(n.type) }))
      .filter((n) => n.note || n.status)
      .sort((a, b) => (a.when ?? 0) - (b.when ?? 0));
    if (entries.length) {
      parts.push(html`<ul class="notes">${entries.map(
        (n) => html`<li>${n.when === undefined ? "" : html`<time datetime="${new Date(n.when).toISOString()}">${dateTimeUtc(n.when)}</time>: `}${n.note ?? (n.type === "statusChanged" ? `status changed to ${n.status}` : n.status)}</li>`,
      )}</ul>`);
    }
  }
  return parts.length ? html`${parts}` : html`<p>No notes.</p>`;
}

function latestReadings(readings: readonly ChartReading[]): Html {
  if (readings.length === 0) return html``;
  const latest = readings.slice(-10).reverse();
  return html`<table class="readings" id="latest-readings">
<caption>Latest readings${readings.length > latest.length ? ` (${latest.length} of ${readings.length})` : ""}, newest first</caption>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Gravity</th><th scope="col">Temperature</th></tr></thead>
<tbody>${latest.map((r) => html`<tr><td>${dateTimeUtc(r.time)}</td><td class="num">${r.sg === null ? "–" : formatSg(r.sg)}</td><td class="num">${r.temp === null ? "–" : formatTemp(r.temp)}</td></tr>`)}</tbody>
</table>`;
}

export interface BatchView extends MeasuredFormView {
  doc: Doc;
  readings: readonly ChartReading[];
  now: number;
  devices: BatchDevicesView;
}

/** How often an open batch page asks for new readings (static/live.js). */
export const LIVE_EVERY_MS = 5000;

/**
 * Figures, chart and latest readings: the part static/live.js replaces when a newer reading comes,
 * asking `data-live` for readings after `data-after` (the newest time shown).
 */
export function readingsLive(id: string, doc: Doc, readings: readonly ChartReading[], now: number): Html {
  const after = readings.at(-1)?.time;
  return html`<div id="readings-live" data-live="/batches/${encodeURIComponent(id)}/live" data-after="${after ?? ""}" data-every="${LIVE_EVERY_MS}">
${figuresPanel(fermentationFigures(doc, readings), now)}
${readingChart(readings)}
${latestReadings(readings)}
</div>`;
}

export function batchMain(view: BatchView): Html {
  const { doc, readings } = view;
  const back = view.list ? `/batches?status=${encodeURIComponent(view.list)}` : "/batches";
  return html`<p class="crumbs"><a href="${back}">${view.list ? `${view.list} batches` : "Batches"}</a></p>
<h1>${batchTitle(doc)}</h1>
${facts(doc)}
<section aria-labelledby="readings-heading">
<h2 id="readings-heading">Readings</h2>
${readingsLive(view.id, doc, readings, view.now)}
</section>
${devicesSection(view.devices, view.id, view.csrf, view.now)}
${measuredSection(doc, view)}
<section aria-labelledby="notes-heading">
<h2 id="notes-heading">Notes</h2>
${notes(doc)}
</section>`;
}
