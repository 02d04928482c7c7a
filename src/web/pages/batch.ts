import { dateTimeUtc, dateUtc } from "../chart-scale.ts";
import { formatSg, formatTemp, readingChart, type ChartReading } from "../chart.ts";
import { html, type Html } from "../html.ts";
import { batchTitle } from "./batches.ts";

type Doc = Record<string, unknown>;

const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const fixed = (digits: number, unit = "") => (v: number) => `${v.toFixed(digits)}${unit}`;

// Measured values of the Batch Object (API document), with the estimates they are compared with.
const MEASURED: Array<[key: string, label: string, format: (v: number) => string]> = [
  ["measuredOg", "Original gravity", formatSg],
  ["measuredFg", "Final gravity", formatSg],
  ["measuredAbv", "ABV", fixed(1, " %")],
  ["measuredAttenuation", "Attenuation", fixed(1, " %")],
  ["measuredEfficiency", "Brewhouse efficiency", fixed(1, " %")],
  ["measuredMashEfficiency", "Mash efficiency", fixed(1, " %")],
  ["measuredFirstWortGravity", "First wort gravity", formatSg],
  ["measuredPreBoilGravity", "Pre-boil gravity", formatSg],
  ["measuredPostBoilGravity", "Post-boil gravity", formatSg],
  ["measuredMashPh", "Mash pH", fixed(2)],
  ["measuredBoilSize", "Pre-boil volume", fixed(1, " L")],
  ["measuredBoilTime", "Boil time", fixed(0, " min")],
  ["measuredKettleSize", "Post-boil volume", fixed(1, " L")],
  ["measuredFermenterTopUp", "Fermenter top-up", fixed(1, " L")],
  ["measuredBatchSize", "Fermenter volume", fixed(1, " L")],
  ["measuredBottlingSize", "Bottling volume", fixed(1, " L")],
  ["measuredBottlingTemp", "Bottling temperature", formatTemp],
];

const ESTIMATED: Array<[key: string, label: string, format: (v: number) => string]> = [
  ["estimatedOg", "Original gravity", formatSg],
  ["estimatedFg", "Final gravity", formatSg],
  ["estimatedIbu", "Bitterness", fixed(0, " IBU")],
  ["estimatedColor", "Colour", fixed(1, " SRM")],
];

function valueTable(doc: Doc, fields: typeof MEASURED, id: string, caption: string, none: string): Html {
  const rows = fields.flatMap(([key, label, format]) => {
    const v = num(doc[key]);
    return v === undefined ? [] : [html`<tr><th scope="row">${label}</th><td class="num">${format(v)}</td></tr>`];
  });
  return rows.length ? html`<table class="values" id="${id}"><caption>${caption}</caption><tbody>${rows}</tbody></table>` : html`<p>${none}</p>`;
}

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

export function batchMain(doc: Doc, readings: readonly ChartReading[]): Html {
  return html`<p class="crumbs"><a href="/batches">Batches</a></p>
<h1>${batchTitle(doc)}</h1>
${facts(doc)}
<section aria-labelledby="readings-heading">
<h2 id="readings-heading">Readings</h2>
${readingChart(readings)}
${latestReadings(readings)}
</section>
<section aria-labelledby="measured-heading">
<h2 id="measured-heading">Measured values</h2>
${valueTable(doc, MEASURED, "measured", "Measured", "No measured values yet.")}
${valueTable(doc, ESTIMATED, "estimated", "Estimated from the recipe", "")}
</section>
<section aria-labelledby="notes-heading">
<h2 id="notes-heading">Notes</h2>
${notes(doc)}
</section>`;
}
