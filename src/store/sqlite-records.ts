import { SORTED_FIELDS, type EncodedRecord } from "./records.ts";
import { SORT_COLUMNS } from "./sqlite-schema.ts";
import { keyOfPosition, positionKey } from "./sort-key.ts";

// A record's row in the SQLite store: the columns derived from its document, in one fixed order, and
// the statements' text that reads and writes them.

// Columns computed from a document at write time (src/store/records.ts), in derivedValues order.
export const DERIVED = ["summary", "status", "inventory", ...SORTED_FIELDS.map((f) => SORT_COLUMNS[f]), "ordered"];
// Where `ordered` and the stock sit in a row of SQL.current (after rowid and body).
export const ORDERED_AT = 2 + DERIVED.indexOf("ordered");
export const INVENTORY_AT = 2 + DERIVED.indexOf("inventory");
// The record statements' text, made once: the statement cache is keyed by it.
export const SQL = {
  write: `INSERT INTO records (user_id, kind, id, ${DERIVED.join(", ")}, body) VALUES (?, ?, ?, ${DERIVED.map(() => "?").join(", ")}, ?)
    ON CONFLICT (user_id, kind, id) DO UPDATE SET ${DERIVED.map((c) => `${c} = excluded.${c}`).join(", ")}, body = excluded.body`,
  current: `SELECT rowid, body, ${DERIVED.join(", ")} FROM records WHERE user_id = ? AND kind = ? AND id = ?`,
  get: "SELECT body FROM records WHERE user_id = ? AND kind = ? AND id = ?",
  // As a BLOB, bun:sqlite hands the text over as its bytes, without decoding it into a string.
  getBytes: "SELECT CAST(body AS BLOB) FROM records WHERE user_id = ? AND kind = ? AND id = ?",
};
// `positions`, when given, are the record's position keys already made (the stored ones, kept).
export const derivedValues = (rec: EncodedRecord, positions = rec.sortKeys.map((key) => positionKey(key, rec.id))): Array<string | number | null> => [
  rec.summary,
  rec.status,
  rec.inventory,
  ...positions,
  rec.ordered ? 1 : 0,
];
// Where the position keys sit in a row of SQL.current.
export const POSITIONS_AT = 2 + DERIVED.indexOf(SORT_COLUMNS[SORTED_FIELDS[0]]);
/**
 * A record as its row of SQL.current holds it: rowid, body, then derivedValues in order. Without
 * `decodeKeys` its sort keys are left empty, for a caller that keeps the stored position keys.
 */
export function storedRecord(id: string, row: unknown[], decodeKeys = true): EncodedRecord {
  const [summary, status, inventory] = row.slice(2) as [string, string | null, number | null];
  const sortKeys = decodeKeys ? (row.slice(POSITIONS_AT, POSITIONS_AT + SORTED_FIELDS.length) as string[]).map(keyOfPosition) : [];
  return { id, body: row[1] as string, summary, status, inventory, sortKeys, ordered: row[ORDERED_AT] === 1 };
}
