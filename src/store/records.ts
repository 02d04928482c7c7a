import { project, sortKeys, type Doc } from "../lib/json.ts";
import { DEFAULT_FIELDS, type Kind } from "../resources.ts";

/** A document as stored: canonical text plus what list queries need, computed once at write time. */
export interface EncodedRecord {
  id: string;
  body: string;
  /** Canonical JSON of the default-field projection, served as is by default list pages. */
  summary: string;
  status: string | null;
  inventory: number | null;
}

export function encodeRecord(kind: Kind, doc: Doc): EncodedRecord {
  const sorted = sortKeys(doc) as Doc;
  const inventory = kind === "batch" || kind === "recipe" ? null : sorted.inventory;
  return {
    id: String(sorted._id),
    body: JSON.stringify(sorted),
    summary: JSON.stringify(project(sorted, DEFAULT_FIELDS[kind])),
    status: kind === "batch" && typeof sorted.status === "string" ? sorted.status : null,
    inventory: typeof inventory === "number" && Number.isFinite(inventory) ? inventory : null,
  };
}
