import { BATCH_STATUSES } from "../../resources.ts";
import { dateUtc } from "../chart-scale.ts";
import { ago, formatSg, num, text } from "../format.ts";
import { html, type Html } from "../html.ts";

export interface BatchRow {
  _id: string;
  name?: unknown;
  batchNo?: unknown;
  status?: unknown;
  brewDate?: unknown;
  recipe?: { name?: unknown };
}

/** The latest gravity reading of a batch. */
export interface LastGravity {
  sg: number;
  time: number;
}

export interface BatchListView {
  rows: Array<{ batch: BatchRow; gravity?: LastGravity }>;
  status?: string;
  /** Link to the next page, when this one was full. */
  next?: string;
  /** This is not the first page. */
  paged: boolean;
  now: number;
}

export function batchTitle(b: { name?: unknown; recipe?: unknown }): string {
  return text(b.name) ?? text((b.recipe as { name?: unknown } | undefined)?.name) ?? "Unnamed batch";
}

/** A batch's address; from a filtered list it remembers the filter, for the way back. */
export function batchHref(id: string, status?: string): string {
  return `/batches/${encodeURIComponent(id)}${status ? `?list=${encodeURIComponent(status)}` : ""}`;
}

function row({ batch: b, gravity }: BatchListView["rows"][number], view: BatchListView): Html {
  const brew = num(b.brewDate);
  const no = num(b.batchNo);
  const title = batchTitle(b);
  // The recipe's name only when it says something the title does not (the app names batches after it).
  const recipe = text(b.recipe?.name);
  const details = [
    no === undefined ? undefined : html`#${no}`,
    recipe && recipe !== title ? html`${recipe}` : undefined,
    brew === undefined ? undefined : html`brewed <time datetime="${dateUtc(brew)}">${dateUtc(brew)}</time>`,
  ].filter((d) => d !== undefined);
  return html`<tr>
<td><a href="${batchHref(b._id, view.status)}">${title}</a>${details.length ? html`<br><span class="sub">${details.map((d, i) => html`${i ? " · " : ""}${d}`)}</span>` : ""}</td>
<td>${text(b.status) ?? ""}</td>
<td class="num">${gravity ? html`${formatSg(gravity.sg)}<br><span class="sub"><time datetime="${new Date(gravity.time).toISOString()}">${ago(gravity.time, view.now)}</time></span>` : html`<span class="sub">none</span>`}</td>
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
<thead><tr><th scope="col">Batch</th><th scope="col">Status</th><th scope="col" class="num">Last gravity</th></tr></thead>
<tbody>${view.rows.map((r) => row(r, view))}</tbody>
</table>`}
${view.next ? html`<p><a href="${view.next}" rel="next">Older batches</a></p>` : ""}`;
}
