import { andThen, type Awaitable } from "../lib/awaitable.ts";
import { projector, type Doc } from "../lib/json.ts";
import { DEFAULT_FIELDS, type Kind } from "../resources.ts";
import type { ListQuery, Store, StoredJson } from "../store/types.ts";
import { badRequest, ERRORS, notFound, TEXT } from "./errors.ts";
import { parseInclude, type ListRequest } from "./list-params.ts";

/**
 * One list page as JSON. Default and complete pages are spliced from stored canonical text without
 * parsing; only `include` pages parse each document to project it. Whole documents (15 KB a batch) are
 * asked for as bytes where the store gives them; summaries (under 200 bytes) as text, which costs less
 * than a byte array each. `extra` holds the route's own filters (status, stock), given only when set, so
 * a plain list passes its parsed query (for no parameters, the version's frozen defaults) as it is.
 */
export function listDocuments(store: Store, userId: string, kind: Kind, list: ListRequest, extra?: Partial<ListQuery>): Awaitable<StoredJson> {
  const query = extra ? { ...list.query, ...extra } : list.query;
  if (list.complete) return andThen(store.list(userId, kind, query, "bytes"), (rows) => jsonArray(pageOrRefusal(rows)));
  if (list.query.fields === "summary") return andThen(store.list(userId, kind, query), (rows) => jsonArray(pageOrRefusal(rows)));
  const fields = projector([...DEFAULT_FIELDS[kind], ...list.include]);
  return andThen(store.list(userId, kind, query), (rows) => jsonArray(pageOrRefusal(rows).map((r) => fields(JSON.parse(r) as Doc))));
}

/** A page's rows, or 400 `Invalid start_after` when its cursor names no document of the list. */
function pageOrRefusal<T>(rows: T[] | "unknown-cursor"): T[] {
  if (rows === "unknown-cursor") throw badRequest(ERRORS.invalidStartAfter);
  return rows;
}

const COMMA = 0x2c;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * JSON texts spliced into one JSON array. Texts appended one by one stay a rope that the Response
 * copies once (`join` made a flat copy of a 770 KB complete page first); bytes are copied once into
 * one array, with no string made of them at all.
 */
export function jsonArray(parts: readonly StoredJson[]): StoredJson {
  if (allText(parts)) {
    let out = "[";
    for (let i = 0; i < parts.length; i++) out += (i === 0 ? "" : ",") + parts[i];
    return out + "]";
  }
  const bytes = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
  let size = bytes.length + 1; // the brackets and a comma between each two
  for (const b of bytes) size += b.byteLength;
  const out = new Uint8Array(size);
  out[0] = 0x5b; // [
  let at = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) out[at++] = COMMA;
    out.set(bytes[i], at);
    at += bytes[i].byteLength;
  }
  out[at] = 0x5d; // ]
  return out;
}

function allText(parts: readonly StoredJson[]): parts is readonly string[] {
  for (let i = 0; i < parts.length; i++) if (typeof parts[i] !== "string") return false;
  return true;
}

/** One document: whole when `include` is absent (as stored, bytes where the store gives them), else its default fields plus the included paths. */
export function readDocument(store: Store, userId: string, kind: Kind, id: string, params: URLSearchParams): Awaitable<StoredJson> {
  return andThen(store.get(userId, kind, id, "bytes"), (stored) => {
    if (stored === undefined) throw notFound();
    const include = parseInclude(params);
    if (include.length === 0) return stored;
    const text = typeof stored === "string" ? stored : decoder.decode(stored);
    return projector([...DEFAULT_FIELDS[kind], ...include])(JSON.parse(text) as Doc);
  });
}

/** Deletes one document: `Deleted`, or 404 when the account has no such document. */
export async function removeDocument(store: Store, userId: string, kind: Kind, id: string): Promise<string> {
  if (!(await store.remove(userId, kind, id))) throw notFound();
  return TEXT.deleted;
}
