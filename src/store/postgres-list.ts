import type { Kind } from "../resources.ts";
import { INDEXED_PATHS, indexedPath, jsonSortKeys, STOCK_KEY } from "./postgres-schema.ts";
import type { ListQuery } from "./types.ts";

// List pages on PostgreSQL, in the same order as src/store/sqlite-list.ts gives on SQLite. Only
// whitelisted fragments enter the SQL text; every value is a numbered parameter.

export interface PgListSql {
  sql: string;
  params: unknown[];
  /** Reads the cursor record's sort keys, when the order is not `_id` alone. */
  cursorSql?: string;
  cursorParams?: unknown[];
}

/** Types the cursor's keys are bound with, one per sort key (the `id` comes last, as text). */
const STOCK_TYPES = ["float8"];
const JSON_TYPES = ["integer", "numeric", `text COLLATE "C"`];

function sortKeys(kind: Kind, query: ListQuery, param: (v: unknown) => string): { keys: string[]; types: string[] } | undefined {
  const ingredient = kind !== "batch" && kind !== "recipe";
  if (ingredient && (query.inventory || query.orderBy === "inventory")) return { keys: [STOCK_KEY], types: STOCK_TYPES };
  if (query.orderBy === "_id") return undefined;
  // Dot paths are letters, digits and `_` only (src/http/list-params.ts), so `{a,b}` is a safe array text.
  const path = INDEXED_PATHS.has(query.orderBy)
    ? indexedPath(query.orderBy)
    : `${param(`{${query.orderBy.split(".").join(",")}}`)}::text[]`;
  return { keys: jsonSortKeys(path), types: JSON_TYPES };
}

/** A NUL cannot be stored in PostgreSQL text; no stored `_id` holds one, so it is cut off (see list). */
function beforeNul(id: string): { text: string; cut: boolean } {
  const i = id.indexOf("\u0000");
  return i === -1 ? { text: id, cut: false } : { text: id.slice(0, i), cut: true };
}

/**
 * The page query. `cursorKeys` are the sort keys of the cursor record (from `cursorSql`); without a
 * sort other than `_id`, the cursor needs no lookup, as on SQLite.
 */
export function buildPgListSql(userId: string, kind: Kind, query: ListQuery, cursorKeys?: unknown[]): PgListSql {
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [`user_id = ${param(userId)}`, `kind = ${param(kind)}`];
  const sort = sortKeys(kind, query, param);
  if (query.status !== undefined) where.push(`status = ${param(query.status)}`);
  if (query.statuses !== undefined) where.push(`status IN (${query.statuses.map((s) => param(s)).join(", ")})`);
  if (query.inventory === "exists") where.push(`${STOCK_KEY} > 0`);
  if (query.inventory === "negative") where.push(`${STOCK_KEY} < 0 AND ${STOCK_KEY} > '-Infinity'::float8`);
  const dir = query.desc ? "DESC" : "ASC";
  const cmp = query.desc ? "<" : ">";
  let cursorSql: string | undefined;
  let cursorParams: unknown[] | undefined;
  if (query.startAfter !== undefined) {
    if (sort) {
      if (cursorKeys) {
        // A row comparison over the indexed columns: the index seeks to it and reads on in order.
        const left = [...sort.keys, "id"].join(", ");
        const right = [...cursorKeys, query.startAfter].map((v, i) => `${param(v)}::${sort.types[i] ?? `text COLLATE "C"`}`).join(", ");
        where.push(`(${left}) ${cmp} (${right})`);
      }
      const cp: unknown[] = [];
      const cparam = (v: unknown) => {
        cp.push(v);
        return `$${cp.length}`;
      };
      const keys = sortKeys(kind, query, cparam)!.keys;
      cursorSql = `SELECT ${keys.map((k, i) => `${k} AS k${i}`).join(", ")} FROM records
        WHERE user_id = ${cparam(userId)} AND kind = ${cparam(kind)} AND id = ${cparam(query.startAfter)}`;
      cursorParams = cp;
    } else {
      // Stored ids hold no NUL: "after a\0…" is "after a", and "before a\0…" is "up to a".
      const { text, cut } = beforeNul(query.startAfter);
      where.push(`id ${cut && query.desc ? "<=" : cmp} (${param(text)}::text COLLATE "C")`);
    }
  }
  const order = sort ? [...sort.keys, "id"].map((k) => `${k} ${dir}`).join(", ") : `id ${dir}`;
  const column = query.fields === "summary" ? "summary" : "body";
  let sql = `SELECT ${column} AS text FROM records WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${param(query.limit)}`;
  if (query.offset !== undefined) sql += ` OFFSET ${param(query.offset)}`;
  return { sql, params, cursorSql, cursorParams };
}
