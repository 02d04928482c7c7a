// Every batch endpoint of the API document (Endpoints › Batches) with its scope and its exact success
// answer on the owner's import (fixtures.ts), so tables can cross them with credentials and scopes.
import { expect } from "bun:test";
import type { Scope } from "../../src/lib/scopes.ts";
import { canonical, type World } from "./harness.ts";
import { BARE, PALE, PALE_READINGS, PALE_TRACKER, STOUT, type Doc } from "./fixtures.ts";

export interface Endpoint {
  method: string;
  /** Path with `{id}` where the batch id goes. */
  path: string;
  scope: Scope;
  body?: unknown;
  status: number;
  text?: string;
  json?: unknown;
}

const byTime = (a: Doc, b: Doc) => (a.time as number) - (b.time as number);

/** The default fields of a batch list entry (API document, Batch Object), missing ones omitted. */
export function listEntry(doc: Doc): Doc {
  const out: Doc = {};
  for (const k of ["_id", "name", "batchNo", "status", "brewer", "brewDate"]) if (k in doc) out[k] = doc[k];
  const recipe = doc.recipe as Doc | undefined;
  if (recipe && "name" in recipe) out.recipe = { name: recipe.name };
  return out;
}

export const OWNER_LIST = [BARE, PALE, STOUT].map(listEntry);

export const ENDPOINTS: readonly Endpoint[] = [
  { method: "GET", path: "/v2/batches", scope: "batches.read", status: 200, json: OWNER_LIST },
  { method: "GET", path: "/v2/batches/{id}", scope: "batches.read", status: 200, json: PALE },
  { method: "PATCH", path: "/v2/batches/{id}", scope: "batches.write", body: { status: "Brewing" }, status: 200, text: "Updated" },
  { method: "DELETE", path: "/v2/batches/{id}", scope: "batches.delete", status: 200, text: "Deleted" },
  { method: "GET", path: "/v2/batches/{id}/readings", scope: "batches.read", status: 200, json: [...PALE_READINGS].sort(byTime) },
  { method: "GET", path: "/v2/batches/{id}/readings/last", scope: "batches.read", status: 200, json: [...PALE_READINGS].sort(byTime).at(-1) },
  { method: "GET", path: "/v2/batches/{id}/brewtracker", scope: "batches.read", status: 200, json: PALE_TRACKER },
];

export const ONE_RECORD = ENDPOINTS.filter((e) => e.path.includes("{id}"));

export const urlOf = (e: Endpoint, id = "b-pale") => e.path.replace("{id}", id);

export const label = (e: Endpoint) => `${e.method} ${e.path}`;

/** The owner's PALE batch is stored exactly as imported: a refused request did not reach the handler. */
export async function paleUntouched(w: World, userId: string): Promise<void> {
  expect(await w.h.store.get(userId, "batch", "b-pale")).toBe(JSON.stringify(canonical(PALE)));
  expect(await w.h.store.readings(userId, "b-pale")).toBe(JSON.stringify(canonical([...PALE_READINGS].sort(byTime))));
}
