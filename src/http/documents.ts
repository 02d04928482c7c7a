import { canonicalJson, project, type Doc } from "../lib/json.ts";
import { DEFAULT_FIELDS, type Kind } from "../resources.ts";
import type { ListQuery, Store } from "../store/types.ts";
import { badRequest, ERRORS, notFound } from "./errors.ts";
import { parseInclude, type ListRequest } from "./list-params.ts";

/**
 * One list page as JSON text. Default and complete pages are spliced from stored canonical text
 * without parsing; only `include` pages parse each document to project it.
 */
export async function listDocuments(store: Store, userId: string, kind: Kind, req: ListRequest, extra: Partial<ListQuery> = {}): Promise<string> {
  const rows = await store.list(userId, kind, { ...req.query, ...extra });
  if (rows === "unknown-cursor") throw badRequest(ERRORS.invalidStartAfter);
  if (req.query.fields === "summary" || req.complete) return `[${rows.join(",")}]`;
  const paths = [...DEFAULT_FIELDS[kind], ...req.include];
  return `[${rows.map((r) => canonicalJson(project(JSON.parse(r) as Doc, paths))).join(",")}]`;
}

/** One document: whole when `include` is absent, else its default fields plus the included paths. */
export async function readDocument(store: Store, userId: string, kind: Kind, id: string, params: URLSearchParams): Promise<string> {
  const text = await store.get(userId, kind, id);
  if (text === undefined) throw notFound();
  const include = parseInclude(params);
  if (include.length === 0) return text;
  return canonicalJson(project(JSON.parse(text) as Doc, [...DEFAULT_FIELDS[kind], ...include]));
}
