import { expect, test } from "bun:test";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { ListQuery } from "../../src/store/types.ts";

// A page after a cursor reads the cursor's sort key first and seeks past it. The key must go back
// into the page's statement exactly as stored, or the page would hold the cursor again or skip its ties.

function pages(store: SqliteStore, orderBy: string) {
  return (startAfter?: string) => {
    const query: ListQuery = { limit: 10, orderBy, desc: false, fields: "summary", startAfter };
    const rows = store.list("ann", "batch", query);
    return rows === "unknown-cursor" ? rows : rows.map((r) => (JSON.parse(r) as { _id: string })._id);
  };
}

test("an indexed field: keys a unit apart past 2^53, ties among them, page exactly", async () => {
  const store = SqliteStore.open(":memory:");
  const keys: Record<string, number> = { a: 2 ** 53 + 2, b: 2 ** 53 + 4, c: 2 ** 53 + 2, d: 2 ** 53, e: -0, f: 0 };
  for (const [id, batchNo] of Object.entries(keys)) await store.insert("ann", "batch", { _id: id, batchNo });
  const ids = pages(store, "batchNo");
  expect(ids()).toEqual(["e", "f", "d", "a", "c", "b"]);
  expect(ids("e")).toEqual(["f", "d", "a", "c", "b"]);
  expect(ids("d")).toEqual(["a", "c", "b"]);
  expect(ids("a")).toEqual(["c", "b"]);
  expect(ids("c")).toEqual(["b"]);
  expect(ids("b")).toEqual([]);
  expect(ids("nobody")).toBe("unknown-cursor");
});

// A field without a column of its own is ordered by json_extract of the body, which reads an integer
// as SQLite stores it: one past 2^53 (no JavaScript number holds it) goes back into the page as a BigInt.
test("a field read from the body: a stored integer past 2^53 pages exactly", async () => {
  const store = SqliteStore.open(":memory:");
  for (const id of ["a", "b", "c", "d"]) await store.insert("ann", "batch", { _id: id, n: 1 });
  const keys: Record<string, bigint> = { a: 2n ** 53n + 1n, b: 2n ** 53n + 2n, c: 2n ** 53n + 1n, d: 2n ** 53n };
  const set = store.db.prepare("UPDATE records SET body = json_set(body, '$.n', ?) WHERE user_id = 'ann' AND id = ?");
  for (const [id, key] of Object.entries(keys)) set.run(key, id);
  const ids = pages(store, "n");
  expect(ids()).toEqual(["d", "a", "c", "b"]);
  expect(ids("d")).toEqual(["a", "c", "b"]);
  expect(ids("a")).toEqual(["c", "b"]);
  expect(ids("c")).toEqual(["b"]);
  expect(ids("b")).toEqual([]);
  expect(ids("nobody")).toBe("unknown-cursor");
});
