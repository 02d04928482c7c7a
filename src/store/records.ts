import { canonicalJson, project, type Doc } from "../lib/json.ts";
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
  const inventory = kind === "batch" || kind === "recipe" ? null : doc.inventory;
  return {
    id: String(doc._id),
    body: canonicalJson(doc),
    summary: canonicalJson(project(doc, DEFAULT_FIELDS[kind])),
    status: kind === "batch" && typeof doc.status === "string" ? doc.status : null,
    inventory: typeof inventory === "number" && Number.isFinite(inventory) ? inventory : null,
  };
}
