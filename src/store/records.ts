import { canonicalJson, canonicalText, projector, type Doc } from "../lib/json.ts";
import { DEFAULT_FIELDS, type Kind } from "../resources.ts";

/** A document as stored: canonical text plus what list queries need, computed once at write time. */
export interface EncodedRecord {
  id: string;
  body: string;
  /** JSON.parse of the body gives keys in canonical order everywhere: a later write can skip walking what it left alone. */
  ordered: boolean;
  /** Canonical JSON of the default-field projection, served as is by default list pages. */
  summary: string;
  status: string | null;
  inventory: number | null;
  /** Sort keys of the fields with an index of their own, in SORTED_FIELDS order. */
  sortKeys: Array<number | string>;
}

// The default-field projection of each kind, made once.
const SUMMARY = {} as Record<Kind, (doc: Doc) => string>;
for (const kind of Object.keys(DEFAULT_FIELDS) as Kind[]) SUMMARY[kind] = projector(DEFAULT_FIELDS[kind]);

/** Fields lists are often ordered by; stores keep their sort keys in indexed columns. */
export const SORTED_FIELDS = ["brewDate", "name", "batchNo"] as const;

/**
 * A value as a sort key comparable across documents: missing and null sort as -Infinity (below every
 * JSON number), booleans as 0/1, objects and arrays as their canonical text.
 */
export function sortKey(value: unknown): number | string {
  if (value === null || value === undefined) return -Infinity;
  if (typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return canonicalJson(value);
}

/**
 * `fresh`, when given, names the only top-level members of `doc` that are not, untouched, those of a
 * document parsed from a body stored `ordered` (see `canonicalText`).
 */
export function encodeRecord(kind: Kind, doc: Doc, fresh?: readonly string[]): EncodedRecord {
  const inventory = kind === "batch" || kind === "recipe" ? null : doc.inventory;
  const body = canonicalText(doc, fresh);
  return {
    id: String(doc._id),
    body: body.text,
    ordered: body.parsesInOrder,
    summary: SUMMARY[kind](doc),
    status: kind === "batch" && typeof doc.status === "string" ? doc.status : null,
    inventory: typeof inventory === "number" && Number.isFinite(inventory) ? inventory : null,
    sortKeys: SORTED_FIELDS.map((f) => sortKey(doc[f])),
  };
}
