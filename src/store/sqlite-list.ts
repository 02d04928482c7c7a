import type { Kind } from "../resources.ts";
import type { ListQuery } from "./types.ts";
import { NULL_SORT, SORT_COLUMNS } from "./sqlite-schema.ts";

/** SQL and parameters of one list page. Only whitelisted fragments enter the SQL text; values are bound. */
export interface ListSql {
  sql: string;
  params: Array<string | number>;
  /**
   * Reads the cursor record's sort key (no row: an unknown cursor), when the order is not `_id` alone;
   * the key then goes into `params` at each index of `keySlots` before the page is read.
   */
  cursorSql?: string;
  cursorParams?: Array<string | number>;
  keySlots?: number[];
}

/**
 * How a list is ordered besides `_id`: an expression, its bound values, and whether it is a position
 * key column (sort-key.ts), which holds the id too and so orders and seeks alone.
 */
interface Sort {
  expr: string;
  params: string[];
  position: boolean;
}

function sortExpression(kind: Kind, query: ListQuery): Sort | undefined {
  const ingredient = kind !== "batch" && kind !== "recipe";
  if (ingredient && (query.inventory || query.orderBy === "inventory")) {
    return { expr: `COALESCE(inventory, ${NULL_SORT})`, params: [], position: false };
  }
  if (query.orderBy === "_id") return undefined;
  if (Object.hasOwn(SORT_COLUMNS, query.orderBy)) return { expr: SORT_COLUMNS[query.orderBy], params: [], position: true };
  return { expr: `COALESCE(json_extract(body, ?), ${NULL_SORT})`, params: [`$.${query.orderBy}`], position: false };
}

/**
 * The kind as an SQL literal: kinds are a fixed set of lowercase names, and a literal spares binding
 * one text parameter per query (each shape is prepared once per kind).
 */
function kindLiteral(kind: Kind): string {
  if (!/^[a-z]+$/.test(kind)) throw new Error(`not a kind: ${kind}`);
  return `'${kind}'`;
}

// Stands for the user id while a plan is built: no value of a query is a string holding a NUL.
const ANY_USER = "\u0000user";
// Stands for the cursor's sort key among a page's values until it is read (ListSql.keySlots).
const KEY = "\u0000key";

/**
 * A page's SQL and the values bound after the user id, for a query where the user id is the only
 * value that changes from one account to the next (no cursor). Built once for a query that many
 * requests share; undefined for any other.
 */
export function listPlan(kind: Kind, query: ListQuery, bytes = false): { sql: string; rest: Array<string | number> } | undefined {
  if (query.startAfter !== undefined) return undefined;
  const { sql, params } = buildListSql(ANY_USER, kind, query, bytes);
  if (params[0] !== ANY_USER || params.indexOf(ANY_USER, 1) !== -1) return undefined;
  return { sql, rest: params.slice(1) };
}

// The index of each position key column (sqlite-schema.ts).
const POSITION_INDEXES: Readonly<Record<string, string>> = { key_brew_date: "records_brew_date", key_name: "records_name", key_batch_no: "records_batch_no" };

/**
 * The index a page is read from, named in its SQL where only one fits: a default page by `_id` reads
 * the covering `records_summary`, a page by a position key that key's index. SQLite plans them so
 * anyway, but the same plan runs faster when the SQL names its index (docs/performance.md, "List
 * pages name their index where only one fits"). With a status or
 * stock filter the best index depends on the data, and SQLite chooses.
 */
function pageIndex(query: ListQuery, sort: Sort | undefined, text: "summary" | "body"): string | undefined {
  if (query.status !== undefined || query.statuses !== undefined || query.inventory !== undefined) return undefined;
  if (!sort) return text === "summary" ? "records_summary" : undefined;
  return sort.position ? POSITION_INDEXES[sort.expr] : undefined;
}

export function buildListSql(userId: string, kind: Kind, query: ListQuery, bytes = false): ListSql {
  const text = query.fields === "summary" ? "summary" : "body";
  // As a BLOB, bun:sqlite hands the row over as bytes, without decoding it into a string.
  const column = bytes ? `CAST(${text} AS BLOB)` : text;
  const sort = sortExpression(kind, query);
  const ofKind = `kind = ${kindLiteral(kind)}`;
  const where = ["user_id = ?", ofKind];
  const whereParams: Array<string | number> = [userId];
  if (query.status !== undefined) {
    where.push("status = ?");
    whereParams.push(query.status);
  }
  if (query.statuses !== undefined) {
    where.push(`status IN (${query.statuses.map(() => "?").join(", ")})`);
    whereParams.push(...query.statuses);
  }
  // Written with the indexed expression, so the filters seek instead of scanning.
  const stock = `COALESCE(inventory, ${NULL_SORT})`;
  if (query.inventory === "exists") where.push(`${stock} > 0`);
  if (query.inventory === "negative") where.push(`${stock} < 0 AND ${stock} > ${NULL_SORT}`);
  const dir = query.desc ? "DESC" : "ASC";
  const cmp = query.desc ? "<" : ">";
  const sortParams = sort?.params ?? [];
  const params: Array<string | number> = [];
  // Where the cursor's key goes among `params` (an index into the array of all values, fixed below).
  const keyAt: number[] = [];
  const key = () => {
    keyAt.push(params.length);
    params.push(KEY);
    return "?";
  };
  if (query.startAfter !== undefined) {
    if (sort) {
      // Keyset after (key, id), the cursor's key read first by its primary key, as a statement of its
      // own in the page's transaction: two index reads, however deep the page. A position key holds
      // the id, so it seeks straight past the cursor, ties included; on an expression the key alone
      // seeks and the second term drops the ties served.
      if (sort.position) {
        where.push(`${sort.expr} ${cmp} ${key()}`);
      } else {
        params.push(...sortParams);
        const ge = `${sort.expr} ${cmp}= ${key()}`;
        params.push(...sortParams);
        where.push(`${ge} AND (${sort.expr} ${cmp} ${key()} OR id ${cmp} ?)`);
        params.push(query.startAfter);
      }
    } else {
      where.push(`id ${cmp} ?`);
      params.push(query.startAfter);
    }
  }
  const order = !sort ? `id ${dir}` : sort.position ? `${sort.expr} ${dir}` : `${sort.expr} ${dir}, id ${dir}`;
  const index = pageIndex(query, sort, text);
  let sql = `SELECT ${column} AS text FROM records${index ? ` INDEXED BY ${index}` : ""} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ?`;
  const tail: number[] = [query.limit];
  if (query.offset !== undefined) {
    sql += " OFFSET ?";
    tail.push(query.offset);
  }
  // Positional parameters in SQL order: filters, then keyset, then sort expression of ORDER BY, then limit.
  const all = [...whereParams, ...params, ...sortParams, ...tail];
  const result: ListSql = { sql, params: all };
  if (sort && query.startAfter !== undefined) {
    result.cursorSql = `SELECT ${sort.expr} FROM records WHERE user_id = ? AND ${ofKind} AND id = ?`;
    result.cursorParams = [...sortParams, userId, query.startAfter];
    result.keySlots = keyAt.map((i) => i + whereParams.length);
  }
  return result;
}
