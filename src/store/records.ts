import { canonicalJson, canonicalText, canonicalValue, isPlainObject, projector, type Doc } from "../lib/json.ts";
import { membersSet, setMembers } from "../lib/json-members.ts";
import { stamp, STAMP_MEMBERS } from "../lib/stamps.ts";
import { DEFAULT_FIELDS, type Kind } from "../resources.ts";
import type { FieldsToSet, StoredColumns, UpdateOutcome } from "./types.ts";

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

// The default-field projection of each kind, made once; and the top-level members it copies whole or
// only in part (`recipe` for `recipe.name`).
const SUMMARY = {} as Record<Kind, (doc: Doc) => string>;
const SUMMARY_WHOLE = {} as Record<Kind, ReadonlySet<string>>;
const SUMMARY_PART = {} as Record<Kind, ReadonlySet<string>>;
for (const kind of Object.keys(DEFAULT_FIELDS) as Kind[]) {
  SUMMARY[kind] = projector(DEFAULT_FIELDS[kind]);
  SUMMARY_WHOLE[kind] = new Set(DEFAULT_FIELDS[kind].filter((p) => !p.includes(".")));
  SUMMARY_PART[kind] = new Set(DEFAULT_FIELDS[kind].filter((p) => p.includes(".")).map((p) => p.split(".")[0]));
}

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
  const body = canonicalText(doc, fresh);
  return {
    id: String(doc._id),
    body: body.text,
    ordered: body.parsesInOrder,
    summary: SUMMARY[kind](doc),
    status: kind === "batch" && typeof doc.status === "string" ? doc.status : null,
    inventory: storedColumns(kind, doc).inventory,
    sortKeys: SORTED_FIELDS.map((f) => sortKey(doc[f])),
  };
}

/** The columns a store keeps of a document beside its text (the rest of EncodedRecord is for lists). */
export function storedColumns(kind: Kind, doc: Doc): StoredColumns {
  const inventory = kind === "batch" || kind === "recipe" ? null : doc.inventory;
  return { inventory: typeof inventory === "number" && Number.isFinite(inventory) ? inventory : null };
}

// A key JavaScript enumerates before all others (see canonicalText).
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;

const isScalar = (v: unknown) => v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

/** A member value's canonical text, and whether it parses in order; undefined for what is not JSON (undefined, NaN). */
function memberText(value: unknown): { text: string; parsesInOrder: boolean } | undefined {
  if (isScalar(value)) return { text: JSON.stringify(value), parsesInOrder: true };
  return Array.isArray(value) || isPlainObject(value) ? canonicalValue(value) : undefined;
}

/**
 * The record `stored` with top-level `fields` set, computed from its stored text and columns without
 * parsing the document: what encodeRecord gives for the parsed document with those fields assigned.
 * Undefined when that needs the document itself: a value that is not JSON, `_id`, an integer-like
 * key, a member the summary copies only in part, or text that is not canonical.
 *
 * `stamped`, when given, are members set after the fields as [key, canonical text], in key order:
 * a stamp's (stampMembers), whose keys are none of those and none of the columns' fields, sort after
 * every digit, and whose values parse in order (test/unit/stamps.test.ts).
 *
 * `stored` itself when setting the fields changes nothing: a caller tells by identity, without
 * comparing the two texts.
 */
export function setFields(kind: Kind, stored: EncodedRecord, fields: Doc, stamped: ReadonlyArray<readonly [string, string]> = []): EncodedRecord | undefined {
  const keys = Object.keys(fields).sort();
  const members: Array<readonly [string, string]> = [];
  const summaryMembers: Array<readonly [string, string]> = [];
  const whole = SUMMARY_WHOLE[kind];
  const place = (member: readonly [string, string]) => {
    members.push(member);
    if (whole.has(member[0])) summaryMembers.push(member);
  };
  let nestedInOrder = true;
  let next = 0; // the first stamped member not yet placed
  for (const key of keys) {
    let stampedToo = false;
    for (; next < stamped.length && stamped[next][0] <= key; next++) {
      stampedToo ||= stamped[next][0] === key;
      place(stamped[next]);
    }
    // The stamp is set after the fields: a field it also sets takes the stamp's value.
    if (stampedToo) continue;
    const value = memberText(fields[key]);
    if (value === undefined || key === "_id" || INTEGER_LIKE.test(key) || SUMMARY_PART[kind].has(key)) return undefined;
    nestedInOrder &&= value.parsesInOrder;
    place([key, value.text]);
  }
  for (; next < stamped.length; next++) place(stamped[next]);
  const set = membersSet(stored.body, members);
  if (set === undefined) return undefined;
  if (!set.changed) return stored;
  const body = set.text;
  const summary = summaryMembers.length ? setMembers(stored.summary, summaryMembers) : stored.summary;
  if (summary === undefined) return undefined;
  const has = (key: string) => Object.hasOwn(fields, key);
  const stock = fields.inventory;
  return {
    id: stored.id,
    body,
    // JavaScript enumerates an integer-like key first: a key sorting before one ("" or "5a" before
    // "9") would no longer parse in order. Every key from ":" on sorts after all digit-led keys.
    ordered: stored.ordered && nestedInOrder && keys.every((k) => k >= ":"),
    summary,
    status: kind === "batch" && has("status") ? (typeof fields.status === "string" ? fields.status : null) : stored.status,
    inventory: kind !== "batch" && kind !== "recipe" && has("inventory") ? (typeof stock === "number" ? stock : null) : stored.inventory,
    // A change that sets no sorted field keeps the stored keys.
    sortKeys: SORTED_FIELDS.some(has) ? SORTED_FIELDS.map((f, i) => (has(f) ? sortKey(fields[f]) : stored.sortKeys[i])) : stored.sortKeys,
  };
}

/** Setting top-level `fields` of a document as an update's decision: the parsing way of setFields. */
/** The named top-level members of a document, as they are (for the outbox: what a write set). */
export function pick(doc: Doc, members: readonly string[]): Doc {
  const out: Doc = {};
  for (const m of members) if (Object.hasOwn(doc, m)) out[m] = doc[m];
  return out;
}

export function assignFields(kind: Kind, fields: FieldsToSet, stampedAt?: number): (current: Doc | undefined) => UpdateOutcome<boolean> {
  return (current) => {
    if (!current) return { result: false };
    const set = typeof fields === "function" ? fields(storedColumns(kind, current)) : fields;
    const write = Object.assign(current, set);
    if (stampedAt === undefined) return { write, changed: Object.keys(set), result: true };
    return { write: stamp(write, stampedAt, false), changed: [...Object.keys(set), ...STAMP_MEMBERS], result: true };
  };
}
