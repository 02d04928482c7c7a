import { BATCH_STATUSES } from "../../resources.ts";
import { fixed, formatSg, formatTemp, num } from "../format.ts";
import { html, type Html } from "../html.ts";
import { MEASURED_BOUNDS } from "../../batches/model.ts";
import { boundsText, boxValue, statusOf } from "../measured.ts";

type Doc = Record<string, unknown>;

// Measured values the PATCH does not take (the app works them out): shown, not edited.
const DERIVED: Array<[key: string, label: string, format: (v: number) => string]> = [
  ["measuredAbv", "ABV", fixed(1, " %")],
  ["measuredAttenuation", "Attenuation", fixed(1, " %")],
  ["measuredEfficiency", "Brewhouse efficiency", fixed(1, " %")],
  ["measuredMashEfficiency", "Mash efficiency", fixed(1, " %")],
  ["measuredBoilTime", "Boil time", fixed(0, " min")],
  ["measuredBottlingTemp", "Bottling temperature", formatTemp],
];

const ESTIMATED: typeof DERIVED = [
  ["estimatedOg", "Original gravity", formatSg],
  ["estimatedFg", "Final gravity", formatSg],
  ["estimatedIbu", "Bitterness", fixed(0, " IBU")],
  ["estimatedColor", "Colour", fixed(1, " SRM")],
];

function valueTable(doc: Doc, fields: typeof DERIVED, id: string, caption: string): Html {
  const rows = fields.flatMap(([key, label, format]) => {
    const v = num(doc[key]);
    return v === undefined ? [] : [html`<tr><th scope="row">${label}</th><td class="num">${format(v)}</td></tr>`];
  });
  return rows.length ? html`<table class="values" id="${id}"><caption>${caption}</caption><tbody>${rows}</tbody></table>` : html``;
}

export interface MeasuredFormView {
  id: string;
  csrf: string;
  /** The form as sent, when it comes back refused. */
  posted?: URLSearchParams;
  error?: { message: string; field?: string };
  /** After a save: "saved" or "unchanged". */
  outcome?: "saved" | "unchanged";
  /** The batch list's status filter this page was reached from. */
  list?: string;
}

function box(doc: Doc, view: MeasuredFormView, f: (typeof MEASURED_BOUNDS)[number]): Html {
  const id = `m-${f.field}`;
  const invalid = view.error?.field === f.field;
  return html`<div class="field"><label for="${id}">${f.label}</label>
<input id="${id}" name="${f.field}" type="text" inputmode="decimal" autocomplete="off" value="${boxValue(f.field, doc, view.posted)}" aria-describedby="${id}-hint${invalid ? " measured-error" : ""}"${invalid ? html` aria-invalid="true"` : ""}>
<span class="hint" id="${id}-hint">${f.unit}, ${boundsText(f)}</span></div>`;
}

/** The measured values as a form (the API's PATCH fields and rules), then what the app derives. */
export function measuredSection(doc: Doc, view: MeasuredFormView): Html {
  const status = statusOf(doc, view.posted);
  const statusInvalid = view.error?.field === "status";
  const notice =
    view.outcome === "saved"
      ? html`<p class="notice" role="status" id="measured-saved">Saved.</p>`
      : view.outcome === "unchanged"
        ? html`<p class="notice" role="status" id="measured-saved">Nothing changed.</p>`
        : html``;
  return html`<section aria-labelledby="measured-heading">
<h2 id="measured-heading">Measured values</h2>
${notice}
${view.error ? html`<p class="error" role="alert" id="measured-error">${view.error.message}</p>` : ""}
<form method="post" action="/batches/${encodeURIComponent(view.id)}/measured${view.list ? `?list=${encodeURIComponent(view.list)}` : ""}" class="measured-form" id="measured-form">
<input type="hidden" name="csrf" value="${view.csrf}">
<div class="field"><label for="m-status">Status</label>
<select id="m-status" name="status"${statusInvalid ? html` aria-invalid="true" aria-describedby="measured-error"` : ""}>${status ? "" : html`<option value="" selected>Not set</option>`}${BATCH_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : ""}>${s}</option>`)}</select></div>
${MEASURED_BOUNDS.map((f) => box(doc, view, f))}
<p class="actions"><button type="submit">Save measured values</button> <span class="hint">An emptied box clears its value.</span></p>
</form>
${valueTable(doc, DERIVED, "measured", "Worked out from the measurements")}
${valueTable(doc, ESTIMATED, "estimated", "Estimated from the recipe")}
</section>`;
}
