import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Kind } from "../../src/resources.ts";
import { buildPgListSql } from "../../src/store/postgres-list.ts";
import type { PostgresStore } from "../../src/store/postgres.ts";
import type { ListQuery } from "../../src/store/types.ts";
import { HAVE_POSTGRES, openTestStore, type OpenedStore, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// As on SQLite (list-plan.test.ts), paging cost must not grow with the page number: on PostgreSQL every
// keyset page is an index scan that starts at the cursor (an Index Cond on the sort keys) and reads rows
// in index order; no sequential scan and no sort of the account's documents.
const base: ListQuery = { limit: 10, fields: "summary", desc: false, orderBy: "_id", startAfter: "b01000" };
const CURSOR_KEYS: Record<string, unknown[]> = { json: [1, "1600000001000", ""], stock: [2] };

const cases: Array<[string, Kind, Partial<ListQuery>, string, string]> = [
  ["default batch page after a cursor", "batch", {}, "records_pkey", "id >"],
  ["_id descending seeks below the cursor", "batch", { desc: true }, "records_pkey", "id <"],
  ["status filter seeks in the status index", "batch", { status: "Planning" }, "records_status", "status ="],
  ["order_by=brewDate seeks in its expression index", "batch", { orderBy: "brewDate" }, "records_brew_date", "ROW(CASE json_typeof"],
  ["order_by=brewDate desc seeks in its expression index", "batch", { orderBy: "brewDate", desc: true }, "records_brew_date", "ROW(CASE json_typeof"],
  ["order_by=batchNo seeks in its expression index", "batch", { orderBy: "batchNo" }, "records_batch_no", "ROW(CASE json_typeof"],
  ["order_by=name seeks in its expression index", "recipe", { orderBy: "name" }, "records_name", "ROW(CASE json_typeof"],
  ["inventory_exists seeks in the stock index", "hops", { inventory: "exists" }, "records_inventory", "ROW(COALESCE"],
  ["inventory_negative seeks in the stock index", "fermentables", { inventory: "negative", startAfter: undefined }, "records_inventory", "COALESCE(inventory"],
];

describe.skipIf(!HAVE_POSTGRES)("postgres list query plans", () => {
  let opened: OpenedStore;
  let store: PostgresStore;
  beforeAll(async () => {
    opened = await openTestStore("postgres");
    store = opened.store as PostgresStore;
    // Enough documents in several accounts that the planner prefers an index only where it can seek.
    for (const user of ["u1", "u2", "user"]) {
      const n = (i: number) => String(i).padStart(5, "0");
      await store.importAll(user, {
        batches: Array.from({ length: 2000 }, (_, i) => ({ doc: { _id: `b${n(i)}`, name: `Batch ${i % 97}`, batchNo: i, brewDate: 1_600_000_000_000 + i, status: i % 3 ? "Completed" : "Planning" } })),
        docs: [
          ...Array.from({ length: 1500 }, (_, i) => ({ kind: "recipe" as const, doc: { _id: `r${n(i)}`, name: `Recipe ${i % 89}` } })),
          ...Array.from({ length: 1500 }, (_, i) => ({ kind: "hops" as const, doc: { _id: `h${n(i)}`, name: "Hop", inventory: (i % 7) - 3 } })),
          ...Array.from({ length: 1500 }, (_, i) => ({ kind: "fermentables" as const, doc: { _id: `f${n(i)}`, name: "Malt", inventory: (i % 5) - 2 } })),
        ],
      });
    }
    await store.sql`ANALYZE records`;
  }, 60_000);
  afterAll(() => opened.close(), DROP_TIMEOUT_MS);

  for (const [name, kind, over, index, cond] of cases) {
    test(name, async () => {
      const query = { ...base, ...over };
      const keys = query.startAfter === undefined ? undefined : query.inventory ? CURSOR_KEYS.stock : query.orderBy === "_id" ? undefined : CURSOR_KEYS.json;
      const { sql, params } = buildPgListSql("user", kind, query, keys);
      const rows = await store.sql.unsafe(`EXPLAIN ${sql}`, params as never[]).values();
      const plan = (rows as string[][]).map((r) => r[0]).join("\n");
      expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using ${index} on records`));
      const indexCond = /Index Cond: (.*)/.exec(plan)?.[1] ?? "";
      expect(indexCond).toContain(cond);
      expect(plan).not.toContain("Seq Scan");
      expect(plan).not.toMatch(/^\s*(->\s*)?Sort\b/m);
    });
  }
});
