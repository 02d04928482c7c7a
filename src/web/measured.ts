import { MEASURED_BOUNDS, type MeasuredBound } from "../batches/model.ts";
import { ERRORS } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { parseNumeric } from "../lib/numeric.ts";
import { num, text } from "./format.ts";

// The batch page's form of measured values: the fields the API's batch PATCH takes, in its order, with
// the API's bounds. The form's answer becomes a PATCH body for the same rules (checkBatchPatch).

/** "0.1 to 1.9", "0 or more": the bounds as the form explains them. */
export function boundsText(f: MeasuredBound): string {
  return f.maximum === undefined ? `${f.minimum} or more` : `${f.minimum} to ${f.maximum}`;
}

/**
 * The PATCH body a submitted form stands for. A box left as it was is not sent; a box emptied clears
 * its value (null); anything else is sent as typed, so the API's rules judge it. A status is sent
 * when it changed.
 */
export function measuredPatch(form: URLSearchParams, batch: Doc): Doc {
  const body: Doc = {};
  const status = form.get("status");
  if (status !== null && status !== "" && status !== batch.status) body.status = status;
  for (const { field } of MEASURED_BOUNDS) {
    const raw = form.get(field);
    if (raw === null) continue;
    const typed = raw.trim();
    const stored = num(batch[field]);
    if (typed === "") {
      if (stored !== undefined) body[field] = null;
    } else if (parseNumeric(typed) !== stored || stored === undefined) {
      body[field] = typed;
    }
  }
  return body;
}

/** The field an API refusal names (`Invalid measuredOg`), for the form to mark it. */
export function refusedField(message: string): string | undefined {
  if (message === ERRORS.invalidStatus) return "status";
  return MEASURED_BOUNDS.find((f) => ERRORS.invalidField(f.field) === message)?.field;
}

/** What a box shows: what was typed when the form comes back refused, else the stored value. */
export function boxValue(field: string, batch: Doc, posted?: URLSearchParams): string {
  const typed = posted?.get(field);
  if (typed !== null && typed !== undefined) return typed;
  const stored = num(batch[field]);
  return stored === undefined ? "" : String(stored);
}

export const statusOf = (batch: Doc, posted?: URLSearchParams) => posted?.get("status") ?? text(batch.status);
