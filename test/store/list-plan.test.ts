import { describe, expect, test } from "bun:test";
import type { Kind } from "../../src/resources.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { buildListSql } from "../../src/store/sqlite-list.ts";
import type { ListQuery } from "../../src/store/types.ts";

// Paging cost must not grow with the page number: every keyset page seeks in an index and reads
// rows in index order (no sort of the whole set, no offset scan).
const store = SqliteStore.open(":memory:");
const base: ListQuery = { limit: 10, fields: "summary", desc: false, orderBy: "_id", startAfter: "cursor" };

// EXPLAIN QUERY PLAN through a prepared statement that is finalized at once: bun:sqlite's query cache
// would keep it, and a kept EXPLAIN statement leaves the connection in a read transaction of its own.
function explain(sql: string, params: Array<string | number>): string[] {
  const stmt = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  try {
    return (stmt.all(...params) as Array<{ detail: string }>).map((r) => r.detail);
  } finally {
    stmt.finalize();
  }
}

function plan(kind: Kind, query: ListQuery): { page: string[]; cursor?: string[] } {
  const { sql, params, cursorSql, cursorParams } = buildListSql("user", kind, query);
  return { page: explain(sql, params), cursor: cursorSql ? explain(cursorSql, cursorParams!) : undefined };
}

// [name, kind, query, how the page itself searches, whether the cursor's sort key is read first]
const cases: Array<[string, Kind, Partial<ListQuery>, string, boolean]> = [
  ["default batch page after a cursor reads the covering index only", "batch", {}, "COVERING INDEX records_summary (user_id=? AND kind=? AND id>?)", false],
  ["_id descending seeks below the cursor", "batch", { desc: true }, "COVERING INDEX records_summary (user_id=? AND kind=? AND id<?)", false],
  ["status filter seeks in the status index", "batch", { status: "Planning" }, "INDEX records_status (user_id=? AND kind=? AND status=? AND id>?)", false],
  ["order_by=brewDate seeks past the cursor, ties included", "batch", { orderBy: "brewDate" }, "INDEX records_brew_date (user_id=? AND kind=? AND key_brew_date>?)", true],
  ["order_by=brewDate desc seeks below the cursor", "batch", { orderBy: "brewDate", desc: true }, "INDEX records_brew_date (user_id=? AND kind=? AND key_brew_date<?)", true],
  ["order_by=batchNo seeks past the cursor", "batch", { orderBy: "batchNo" }, "INDEX records_batch_no (user_id=? AND kind=? AND key_batch_no>?)", true],
  ["order_by=name seeks past the cursor", "recipe", { orderBy: "name" }, "INDEX records_name (user_id=? AND kind=? AND key_name>?)", true],
  ["order_by=inventory seeks to the cursor's stock in the stock index", "hops", { orderBy: "inventory" }, "INDEX records_inventory (user_id=? AND kind=? AND <expr>>?)", true],
  ["inventory_exists seeks in the stock index", "hops", { inventory: "exists" }, "INDEX records_inventory (user_id=? AND kind=? AND <expr>>?)", true],
  ["inventory_negative seeks in the stock index", "fermentables", { inventory: "negative", startAfter: undefined }, "INDEX records_inventory (user_id=? AND kind=? AND <expr>>? AND <expr><?)", false],
];

describe("list query plans", () => {
  for (const [name, kind, over, expected, cursorFirst] of cases) {
    test(name, () => {
      const { page, cursor } = plan(kind, { ...base, ...over });
      // One search, in index order: no sort step, no subquery.
      expect(page).toEqual([`SEARCH records USING ${expected}`]);
      // The cursor's key is looked up by its primary key, never by a scan.
      if (cursorFirst) expect(cursor).toEqual(["SEARCH records USING INDEX records_key (user_id=? AND kind=? AND id=?)"]);
      else expect(cursor).toBeUndefined();
    });
  }
});

// A page whose index is the only one that fits names it (sqlite-list.ts pageIndex); SQLite then runs
// the same plan. With a status or stock filter SQLite chooses, from the data.
describe("pages that name their index", () => {
  const named: Array<[Kind, Partial<ListQuery>, string | undefined]> = [
    ["batch", { startAfter: undefined }, "records_summary"],
    ["batch", {}, "records_summary"],
    ["hops", { desc: true }, "records_summary"],
    ["batch", { orderBy: "brewDate", startAfter: undefined }, "records_brew_date"],
    ["batch", { orderBy: "brewDate", desc: true }, "records_brew_date"],
    ["recipe", { orderBy: "name" }, "records_name"],
    ["batch", { orderBy: "batchNo" }, "records_batch_no"],
    ["batch", { fields: "body" }, undefined],
    ["batch", { status: "Planning" }, undefined],
    ["batch", { status: "Planning", orderBy: "brewDate" }, undefined],
    ["hops", { inventory: "exists" }, undefined],
    ["hops", { orderBy: "inventory" }, undefined],
    ["batch", { orderBy: "measuredOg" }, undefined],
  ];
  for (const [kind, over, index] of named) {
    test(`${kind} ${JSON.stringify(over)}: ${index ?? "SQLite's choice"}`, () => {
      const { sql, params } = buildListSql("user", kind, { ...base, ...over } as ListQuery);
      expect(sql.match(/INDEXED BY (\w+)/)?.[1]).toBe(index);
      if (index) expect(explain(sql, params)[0]).toContain(`INDEX ${index} `);
    });
  }
});
