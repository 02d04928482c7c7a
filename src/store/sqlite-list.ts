import type { Kind } from "../resources.ts";
import type { ListQuery } from "./types.ts";
import { NULL_SORT, SORT_COLUMNS } from "./sqlite-schema.ts";

/** SQL and parameters of one list page. Only whitelisted fragments enter the SQL text; values are bound. */
export interface ListSql {
  sql: string;
  params: Array<string | number>;
  /** Sort expression to read the cursor's key with, or undefined when ordering by `_id` alone. */
  cursorSql?: string;
  cursorParams?: Array<string | number>;
}

function sortExpression(kind: Kind, query: ListQuery): { expr: string; params: string[] } | undefined {
  const ingredient = kind !== "batch" && kind !== "recipe";
  if (ingredient && (query.inventory || query.orderBy === "inventory")) {
    return { expr: `COALESCE(inventory, ${NULL_SORT})`, params: [] };
  }
  if (query.orderBy === "_id") return undefined;
  if (Object.hasOwn(SORT_COLUMNS, query.orderBy)) return { expr: SORT_COLUMNS[query.orderBy], params: [] };
  return { expr: `COALESCE(json_extract(body, ?), ${NULL_SORT})`, params: [`$.${query.orderBy}`] };
}

export function buildListSql(userId: string, kind: Kind, query: ListQuery, cursorKey?: unknown): ListSql {
  const column = query.fields === "summary" ? "summary" : "body";
  const sort = sortExpression(kind, query);
  const where = ["user_id = ?", "kind = ?"];
  const whereParams: Array<string | number> = [userId, kind];
  if (query.status !== undefined) {
    where.push("status = ?");
    whereParams.push(query.status);
  }
  // Written with the indexed expression, so the filters seek instead of scanning.
  const stock = `COALESCE(inventory, ${NULL_SORT})`;
  if (query.inventory === "exists") where.push(`${stock} > 0`);
  if (query.inventory === "negative") where.push(`${stock} < 0 AND ${stock} > ${NULL_SORT}`);
  const dir = query.desc ? "DESC" : "ASC";
  const cmp = query.desc ? "<" : ">";
  const sortParams = sort?.params ?? [];
  const params: Array<string | number> = [];
  if (query.startAfter !== undefined) {
    if (sort) {
      // Keyset after (key, id): the first comparison seeks in the index, the second drops the ties
      // already served. (A row-value comparison reads the same but is not used to seek.)
      where.push(`${sort.expr} ${cmp}= ? AND (${sort.expr} ${cmp} ? OR id ${cmp} ?)`);
      const key = cursorKey as string | number;
      params.push(...sortParams, key, ...sortParams, key, query.startAfter);
    } else {
      where.push(`id ${cmp} ?`);
      params.push(query.startAfter);
    }
  }
  const order = sort ? `${sort.expr} ${dir}, id ${dir}` : `id ${dir}`;
  let sql = `SELECT ${column} AS text FROM records WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ?`;
  const tail: number[] = [query.limit];
  if (query.offset !== undefined) {
    sql += " OFFSET ?";
    tail.push(query.offset);
  }
  // Positional parameters in SQL order: filters, then keyset, then sort expression of ORDER BY, then limit.
  const all = [...whereParams, ...params, ...sortParams, ...tail];
  const result: ListSql = { sql, params: all };
  if (sort && query.startAfter !== undefined) {
    result.cursorSql = `SELECT ${sort.expr} AS k FROM records WHERE user_id = ? AND kind = ? AND id = ?`;
    result.cursorParams = [...sortParams, userId, kind, query.startAfter];
  }
  return result;
}
