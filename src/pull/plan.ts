import { isPlainObject, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";

// The paging plan (API document, Endpoints): every list read whole with `complete=True`, in `_id`
// order, 50 at a time with `start_after`; then each batch's readings and brew tracker.

export const PAGE_SIZE = 50;

/** The order kinds are listed in: batches first, so the count of readings to fetch is known early. */
export const LIST_ORDER: readonly Kind[] = ["batch", "recipe", "fermentables", "hops", "miscs", "yeasts"];

/** Plural names, as the report and the progress line show them. */
export const KIND_NAMES: Record<Kind, string> = {
  batch: "batches",
  recipe: "recipes",
  fermentables: "fermentables",
  hops: "hops",
  miscs: "miscs",
  yeasts: "yeasts",
};

/** The read scope a kind needs (API document, Authentication). */
export const READ_SCOPE: Record<Kind, string> = {
  batch: "batches.read",
  recipe: "recipes.read",
  fermentables: "inventory.read",
  hops: "inventory.read",
  miscs: "inventory.read",
  yeasts: "inventory.read",
};

const LIST_PATHS: Record<Kind, string> = {
  batch: "/v2/batches",
  recipe: "/v2/recipes",
  fermentables: "/v2/inventory/fermentables",
  hops: "/v2/inventory/hops",
  miscs: "/v2/inventory/miscs",
  yeasts: "/v2/inventory/yeasts",
};

/** The list page after the document `after` (the first page without it). */
export function listPath(kind: Kind, after?: string): string {
  const query = new URLSearchParams({ complete: "True", limit: String(PAGE_SIZE) });
  if (after !== undefined) query.set("start_after", after);
  return `${LIST_PATHS[kind]}?${query}`;
}

export function readingsPath(batchId: string): string {
  return `/v2/batches/${encodeURIComponent(batchId)}/readings`;
}

export function trackerPath(batchId: string): string {
  return `/v2/batches/${encodeURIComponent(batchId)}/brewtracker`;
}

/** A page shorter than asked for is the last one. */
export const isLastPage = (length: number) => length < PAGE_SIZE;

/** JSON text parsed, or undefined when it is not JSON. */
function json(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** The documents of a list page, or why the body is not one: an array of objects with a string `_id`. */
export function parsePage(text: string): Doc[] | string {
  const body = json(text);
  if (!body) return "the body is not JSON";
  if (!Array.isArray(body.value)) return "the body is not a JSON array";
  const bad = body.value.findIndex((d) => !isPlainObject(d) || typeof d._id !== "string" || d._id === "");
  if (bad !== -1) return `element ${bad} is not an object with an _id`;
  return body.value as Doc[];
}

/** A readings body: an array of objects. */
export function parseReadings(text: string): Doc[] | string {
  const body = json(text);
  if (!body) return "the readings are not JSON";
  if (!Array.isArray(body.value) || !body.value.every(isPlainObject)) return "the readings are not an array of objects";
  return body.value as Doc[];
}

/** A brew tracker body: an object (empty when the tracker is not active). */
export function parseTracker(text: string): Doc | string {
  const body = json(text);
  if (!body) return "the brew tracker is not JSON";
  return isPlainObject(body.value) ? (body.value as Doc) : "the brew tracker is not a JSON object";
}

/** Statuses in which a batch still gets readings and tracker changes that leave the batch itself as it was. */
const ACTIVE = new Set(["Brewing", "Fermenting", "Conditioning"]);

/**
 * Whether a listed batch's readings and tracker are read: when the batch is new or changed there since
 * the last pull, when it is active, or when all are asked for (`--full`).
 */
export function needsChildren(batch: Doc, changedThere: boolean, full: boolean): boolean {
  return full || changedThere || ACTIVE.has(String(batch.status));
}

/** Calls still to make: a page at least for each kind not fully listed, and two per batch left. */
export function callsStillNeeded(unlistedKinds: number, batchesLeft: number): number {
  return unlistedKinds + 2 * batchesLeft;
}
