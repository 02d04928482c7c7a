import { beforeAll, describe, expect, test } from "bun:test";
import { parseListRequestFor } from "../../src/http/list-params.ts";
import type { Kind } from "../../src/resources.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { buildListSql, listPlan } from "../../src/store/sqlite-list.ts";
import type { ListQuery } from "../../src/store/types.ts";

// A list asked for with no parameters carries its version's frozen default query, shared by every
// such request; the SQLite store prepares its page once per kind (listPlan) instead of building the
// SQL each time. The page must be exactly what the same query built per request gives.

const defaults = (version: 1 | 2) => parseListRequestFor(version, new URLSearchParams()).query;

describe("listPlan", () => {
  const shapes: Array<[string, Kind, ListQuery, boolean]> = [
    ["version 2 defaults", "batch", defaults(2), false],
    ["version 1 defaults (offset)", "batch", defaults(1), false],
    ["a recipe page, descending", "recipe", { ...defaults(2), desc: true }, false],
    ["a status filter", "batch", { ...defaults(2), status: "Planning" }, false],
    ["an order by a document path", "batch", { ...defaults(2), orderBy: "recipe.name" }, false],
    ["stock filter on an ingredient", "hops", { ...defaults(2), inventory: "exists" }, false],
    ["a complete page as bytes", "batch", { ...defaults(2), fields: "body", limit: 50 }, true],
  ];
  for (const [name, kind, query, bytes] of shapes) {
    test(`${name}: the same SQL and values as building it for one user`, () => {
      const built = buildListSql("someone", kind, query, bytes);
      const plan = listPlan(kind, query, bytes)!;
      expect(plan.sql).toBe(built.sql);
      expect(["someone", ...plan.rest]).toEqual(built.params);
    });
  }

  test("a page after a cursor has no plan: its values depend on the cursor", () => {
    expect(listPlan("batch", { ...defaults(2), startAfter: "abc" })).toBeUndefined();
    expect(listPlan("batch", { ...defaults(2), orderBy: "brewDate", startAfter: "abc" })).toBeUndefined();
  });
});

describe("SqliteStore.list with a shared query", () => {
  const store = SqliteStore.open(":memory:");
  const ids = (user: string) => Array.from({ length: 13 }, (_, i) => `${user}-${String(i).padStart(2, "0")}`);
  beforeAll(async () => {
    for (const user of ["ann", "bob"]) for (const id of ids(user)) await store.insert(user, "batch", { _id: id, name: `${user} ${id}`, status: "Planning" });
  });
  const page = (rows: unknown) => (rows as string[]).map((r) => (JSON.parse(r) as { _id: string })._id);

  test("each account gets its own page, as from the same query built per request", () => {
    for (const version of [1, 2] as const) {
      const shared = defaults(version);
      expect(Object.isFrozen(shared)).toBe(true);
      for (const user of ["ann", "bob"]) {
        const rows = store.list(user, "batch", shared);
        expect(page(rows)).toEqual(ids(user).slice(0, 10));
        expect(rows).toEqual(store.list(user, "batch", { ...shared }));
      }
    }
    expect(store.list("nobody", "batch", defaults(2))).toEqual([]);
  });

  test("still right after the statement cache is emptied (past its bound of distinct statements)", () => {
    const shared = defaults(2);
    expect(page(store.list("ann", "batch", shared))).toEqual(ids("ann").slice(0, 10));
    // The store's list and update shapes are a bounded set, far below the cache's bound of 2,000
    // statements; 2,001 statements of other text reach it, and emptying it finalizes every statement.
    const internals = store as unknown as { statements: { get(sql: string): unknown } };
    for (let i = 0; i <= 2000; i++) internals.statements.get(`SELECT ${i}`);
    expect(page(store.list("ann", "batch", shared))).toEqual(ids("ann").slice(0, 10));
    expect(page(store.list("bob", "batch", shared))).toEqual(ids("bob").slice(0, 10));
  });
});

describe("SqliteStore pages after a cursor", () => {
  const store = SqliteStore.open(":memory:");
  // Five brew dates out of _id order, six batches each: a page after a cursor orders ties by _id.
  const batches = Array.from({ length: 30 }, (_, i) => ({ _id: `b-${String(i).padStart(2, "0")}`, brewDate: 1000 + ((i * 7) % 5), name: `n${(i * 11) % 7}` }));
  beforeAll(async () => {
    for (const b of batches) await store.insert("ann", "batch", b);
  });
  const order = (f: "brewDate" | "name") => [...batches].sort((a, b) => (a[f] < b[f] ? -1 : a[f] > b[f] ? 1 : a._id < b._id ? -1 : 1)).map((b) => b._id);
  const byDate = order("brewDate");
  const after = (cursor: string) => store.list("ann", "batch", { ...defaults(2), orderBy: "brewDate", startAfter: cursor });
  const page = (rows: unknown) => (rows as string[]).map((r) => (JSON.parse(r) as { _id: string })._id);
  const internals = store as unknown as { statements: { get(sql: string): unknown; size: number } };

  test("each page follows its cursor, ties by _id, an unknown cursor is known", () => {
    for (let i = 0; i < byDate.length; i++) expect(page(after(byDate[i]))).toEqual(byDate.slice(i + 1, i + 11));
    expect(after("nope")).toBe("unknown-cursor");
  });

  test("still right when the statement cache fills up between a page's two statements, and after it is emptied", () => {
    expect(page(after(byDate[3]))).toEqual(byDate.slice(4, 14));
    // A new order (by name: new statements for the cursor's key and for the page) with the cache one
    // short of its bound of 2,000 statements: the first of the two fills it, the second empties it.
    for (let i = 0; internals.statements.size < 1999; i++) internals.statements.get(`SELECT ${i}`);
    const byName = order("name");
    const named = store.list("ann", "batch", { ...defaults(2), orderBy: "name", startAfter: byName[12] });
    expect(page(named)).toEqual(byName.slice(13, 23));
    expect(page(after(byDate[3]))).toEqual(byDate.slice(4, 14));
    for (let i = 0; i <= 2000; i++) internals.statements.get(`SELECT 'again', ${i}`);
    expect(page(after(byDate[5]))).toEqual(byDate.slice(6, 16));
  });
});
