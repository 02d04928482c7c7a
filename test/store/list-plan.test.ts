import { describe, expect, test } from "bun:test";
import type { Kind } from "../../src/resources.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { buildListSql } from "../../src/store/sqlite-list.ts";
import type { ListQuery } from "../../src/store/types.ts";

// Paging cost must not grow with the page number: every keyset page seeks in an index and reads
// rows in index order (no sort of the whole set, no offset scan).
const store = SqliteStore.open(":memory:");
const base: ListQuery = { limit: 10, fields: "summary", desc: false, orderBy: "_id", startAfter: "cursor" };

function plan(kind: Kind, query: ListQuery): string {
  const { sql, params } = buildListSql("user", kind, query, 5);
  return (store.db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(" | ");
}

const cases: Array<[string, Kind, Partial<ListQuery>, string]> = [
  ["default batch page after a cursor reads the covering index only", "batch", {}, "COVERING INDEX records_summary (user_id=? AND kind=? AND id>?)"],
  ["_id descending seeks below the cursor", "batch", { desc: true }, "COVERING INDEX records_summary (user_id=? AND kind=? AND id<?)"],
  ["status filter seeks in the status index", "batch", { status: "Planning" }, "INDEX records_status (user_id=? AND kind=? AND status=? AND id>?)"],
  ["order_by=brewDate seeks in its sort-key index", "batch", { orderBy: "brewDate" }, "INDEX records_brew_date (user_id=? AND kind=? AND sort_brew_date>?)"],
  ["order_by=brewDate desc seeks in its sort-key index", "batch", { orderBy: "brewDate", desc: true }, "INDEX records_brew_date (user_id=? AND kind=? AND sort_brew_date<?)"],
  ["order_by=batchNo seeks in its sort-key index", "batch", { orderBy: "batchNo" }, "INDEX records_batch_no (user_id=? AND kind=? AND sort_batch_no>?)"],
  ["order_by=name seeks in its sort-key index", "recipe", { orderBy: "name" }, "INDEX records_name (user_id=? AND kind=? AND sort_name>?)"],
  ["inventory_exists seeks in the stock index", "hops", { inventory: "exists" }, "INDEX records_inventory (user_id=? AND kind=? AND <expr>>?)"],
  ["inventory_negative seeks in the stock index", "fermentables", { inventory: "negative", startAfter: undefined }, "INDEX records_inventory (user_id=? AND kind=? AND <expr>>? AND <expr><?)"],
];

describe("list query plans", () => {
  for (const [name, kind, over, expected] of cases) {
    test(name, () => {
      const detail = plan(kind, { ...base, ...over });
      expect(detail).toBe(`SEARCH records USING ${expected}`);
      expect(detail).not.toContain("TEMP B-TREE");
    });
  }
});
