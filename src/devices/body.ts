import { jsonObjectOf, readText } from "../http/body.ts";
import { badRequest, ERRORS } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";

/** Largest device post read: real ones are a few hundred bytes (docs/decisions.md, Devices). */
export const MAX_POST_BYTES = 16 * 1024;

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * A device post's fields: a form-urlencoded body (TiltPi) as strings, anything else read as a JSON
 * object, whatever its content type says (small firmwares send JSON as text/plain or with none). A
 * body labelled as a form that begins with `{` is JSON too: no form starts so, and `curl -d '{…}'`
 * and some senders (tilty) label JSON that way. 413 past MAX_POST_BYTES; 400 for an empty, malformed
 * or non-object body.
 */
export async function readDeviceBody(request: Request, maxBytes = MAX_POST_BYTES): Promise<Doc> {
  const raw = await readText(request, maxBytes);
  const text = raw.trim();
  if (text === "") throw badRequest(ERRORS.missingBody);
  if (FORM_TYPE.test(request.headers.get("content-type") ?? "") && !text.startsWith("{")) return formFields(raw);
  return jsonObjectOf(raw);
}

function formFields(raw: string): Doc {
  const fields: Doc = Object.create(null);
  // The first of repeated keys counts, as it does for query parameters.
  for (const [k, v] of new URLSearchParams(raw)) if (!(k in fields)) fields[k] = v;
  return fields;
}
