import { BATCH_STATUSES } from "../../resources.ts";
import { dateUtc } from "../chart-scale.ts";
import { html, type Html } from "../html.ts";

export interface BatchRow {
  _id: string;
  name?: unknown;
  batchNo?: unknown;
  status?: unknown;
  brewDate?: unknown;
  recipe?: { name?: unknown };
}

export interface BatchListView {
  rows: BatchRow[];
  status?: string;
  /** Link to the next page, when this one was full. */
  next?: string;
  /** This is not the first page. */
  paged: boolean;
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export function batchTitle(b: { name?: unknown; recipe?: unknown }): string {
  return text(b.name) ?? text((b.recipe as { name?: unknown } | undefined)?.name) ?? "Unnamed batch";
}

function row(b: BatchRow): Html {
  const brew = num(b.brewDate);
  return html`<tr>
<td>${text(b.status) ?? ""}</td>
<td><a href="/batches/${encodeURIComponent(b._id)}">${batchTitle(b)}</a>${text(b.recipe?.name) && text(b.name) ? html`<br><span class="sub">${text(b.recipe?.name)}</span>` : ""}</td>
<td class="num">${num(b.batchNo) ?? ""}</td>
<td>${brew === undefined ? "" : html`<time datetime="${dateUtc(brew)}">${dateUtc(brew)}</time>`}</td>
</tr>`;
}

export function batchListMain(view: BatchListView): Html {
  const options = BATCH_STATUSES.map((s) => html`<option value="${s}"${view.status === s ? html` selected` : ""}>${s}</option>`);
  const empty = view.status ? `No batches with status ${view.status}.` : view.paged ? "No more batches." : "No batches yet.";
  return html`<h1>Batches</h1>
<form class="filter" method="get" action="/batches">
<label for="status">Status</label>
<select id="status" name="status"><option value="">All statuses</option>${options}</select>
<button type="submit">Filter</button>
</form>
${view.rows.length === 0
    ? html`<p class="empty" id="no-batches">${empty}</p>`
    : html`<table class="batches" id="batch-list">
<caption>${view.status ? `Batches with status ${view.status}` : "All batches"}, newest brew date first</caption>
<thead><tr><th scope="col">Status</th><th scope="col">Name</th><th scope="col">Batch number</th><th scope="col">Brew date (UTC)</th></tr></thead>
<tbody>${view.rows.map(row)}</tbody>
</table>`}
${view.next ? html`<p><a href="${view.next}" rel="next">Older batches</a></p>` : ""}`;
}
