import type { Kind } from "../resources.ts";
import type { ListQuery } from "./types.ts";
import { NULL_SORT, orderValueOf, SORT_COLUMNS } from "./sqlite-schema.ts";

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
 * key column (sort-key.ts), which holds the id too and so orders and seeks alone, or an order key
 * (sqlite-order-keys.ts), read from `order_keys` joined with the records.
 */
interface Sort {
  expr: string;
  params: string[];
  position: boolean;
  keyed?: boolean;
}

/** The JSON path of a list's order when it is by a field without a column of its own, else undefined. */
export function unindexedPath(kind: Kind, query: ListQuery): string | undefined {
  const ingredient = kind !== "batch" && kind !== "recipe";
  if (ingredient && (query.inventory || query.orderBy === "inventory")) return undefined;
  if (query.orderBy === "_id" || Object.hasOwn(SORT_COLUMNS, query.orderBy)) return undefined;
  return `$.${query.orderBy}`;
}

function sortExpression(kind: Kind, query: ListQuery, keyed: boolean): Sort | undefined {
  const ingredient = kind !== "batch" && kind !== "recipe";
  if (ingredient && (query.inventory || query.orderBy === "inventory")) {
    return { expr: `COALESCE(inventory, ${NULL_SORT})`, params: [], position: false };
  }
  if (query.orderBy === "_id") return undefined;
  if (Object.hasOwn(SORT_COLUMNS, query.orderBy)) return { expr: SORT_COLUMNS[query.orderBy], params: [], position: true };
  if (keyed) return { expr: "k.sort_value", params: [], position: false, keyed: true };
  return { expr: orderValueOf("body", "?"), params: [`$.${query.orderBy}`], position: false };
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

/**
 * A page's SQL and values. With `keyed`, a page ordered by a field without a column of its own reads
 * the order's keys (the caller has checked they are complete, sqlite-order-keys.ts) instead of sorting.
 */
export function buildListSql(userId: string, kind: Kind, query: ListQuery, bytes = false, keyed = false): ListSql {
  const sort = sortExpression(kind, query, keyed);
  // Joined with the order's keys, the records' columns are named by table.
  const r = sort?.keyed ? "r." : "";
  const id = sort?.keyed ? "k.id" : "id";
  const text = query.fields === "summary" ? "summary" : "body";
  // As a BLOB, bun:sqlite hands the row over as bytes, without decoding it into a string.
  const column = bytes ? `CAST(${r}${text} AS BLOB)` : `${r}${text}`;
  const ofKind = `kind = ${kindLiteral(kind)}`;
  const where = sort?.keyed ? ["k.user_id = ?", `k.${ofKind}`, "k.path = ?"] : ["user_id = ?", ofKind];
  const whereParams: Array<string | number> = sort?.keyed ? [userId, `$.${query.orderBy}`] : [userId];
  if (query.status !== undefined) {
    where.push(`${r}status = ?`);
    whereParams.push(query.status);
  }
  if (query.statuses !== undefined) {
    where.push(`${r}status IN (${query.statuses.map(() => "?").join(", ")})`);
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
      } else if (sort.keyed) {
        // A row value seeks past the cursor on both columns: a field with few distinct values (a
        // gravity to three decimals) has thousands of ties, which seeking on the key alone walked.
        where.push(`(${sort.expr}, ${id}) ${cmp} (${key()}, ?)`);
        params.push(query.startAfter);
      } else {
        params.push(...sortParams);
        const ge = `${sort.expr} ${cmp}= ${key()}`;
        params.push(...sortParams);
        where.push(`${ge} AND (${sort.expr} ${cmp} ${key()} OR ${id} ${cmp} ?)`);
        params.push(query.startAfter);
      }
    } else {
      where.push(`id ${cmp} ?`);
      params.push(query.startAfter);
    }
  }
  const order = !sort ? `id ${dir}` : sort.position ? `${sort.expr} ${dir}` : `${sort.expr} ${dir}, ${id} ${dir}`;
  const index = pageIndex(query, sort, text);
  // The keys in their index's order, each record found by its key: SQLite is told the loop order,
  // which it otherwise chose the other way round for a status filter, sorting the account's records.
  const from = sort?.keyed
    ? "order_keys AS k INDEXED BY order_keys_seek CROSS JOIN records AS r ON r.user_id = k.user_id AND r.kind = k.kind AND r.id = k.id"
    : `records${index ? ` INDEXED BY ${index}` : ""}`;
  let sql = `SELECT ${column} AS text FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ?`;
  const tail: number[] = [query.limit];
  if (query.offset !== undefined) {
    sql += " OFFSET ?";
    tail.push(query.offset);
  }
  // Positional parameters in SQL order: filters, then keyset, then sort expression of ORDER BY, then limit.
  const all = [...whereParams, ...params, ...sortParams, ...tail];
  const result: ListSql = { sql, params: all };
  if (sort?.keyed && query.startAfter !== undefined) {
    result.cursorSql = `SELECT sort_value FROM order_keys WHERE user_id = ? AND ${ofKind} AND path = ? AND id = ?`;
    result.cursorParams = [userId, `$.${query.orderBy}`, query.startAfter];
    result.keySlots = keyAt.map((i) => i + whereParams.length);
  } else if (sort && query.startAfter !== undefined) {
    result.cursorSql = `SELECT ${sort.expr} FROM records WHERE user_id = ? AND ${ofKind} AND id = ?`;
    result.cursorParams = [...sortParams, userId, query.startAfter];
    result.keySlots = keyAt.map((i) => i + whereParams.length);
  }
  return result;
}
