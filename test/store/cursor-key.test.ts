import { expect, test } from "bun:test";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { ListQuery } from "../../src/store/types.ts";

// A page after a cursor reads the cursor's sort key first and seeks past it. The key must go back
// into the page's statement exactly as stored: an integer past 2^53 read as a JavaScript number
// would come back rounded, and the page would hold the cursor again or skip its ties.
test("a stored sort key past 2^53 pages exactly", () => {
  const store = SqliteStore.open(":memory:");
  for (const id of ["a", "b", "c", "d"]) store.insert("ann", "batch", { _id: id, batchNo: 1 });
  const keys: Record<string, bigint> = { a: 2n ** 53n + 1n, b: 2n ** 53n + 2n, c: 2n ** 53n + 1n, d: 2n ** 53n };
  const set = store.db.prepare("UPDATE records SET sort_batch_no = ? WHERE user_id = 'ann' AND id = ?");
  for (const [id, key] of Object.entries(keys)) set.run(key, id);
  const ids = (startAfter?: string) => {
    const query: ListQuery = { limit: 10, orderBy: "batchNo", desc: false, fields: "summary", startAfter };
    const rows = store.list("ann", "batch", query);
    return rows === "unknown-cursor" ? rows : rows.map((r) => (JSON.parse(r) as { _id: string })._id);
  };
  expect(ids()).toEqual(["d", "a", "c", "b"]);
  expect(ids("d")).toEqual(["a", "c", "b"]);
  expect(ids("a")).toEqual(["c", "b"]);
  expect(ids("c")).toEqual(["b"]);
  expect(ids("b")).toEqual([]);
  expect(ids("nobody")).toBe("unknown-cursor");
});
