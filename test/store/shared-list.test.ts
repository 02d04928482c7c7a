import { describe, expect, test } from "bun:test";
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
  for (const user of ["ann", "bob"]) for (const id of ids(user)) store.insert(user, "batch", { _id: id, name: `${user} ${id}`, status: "Planning" });
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
    const internals = store as unknown as { statement(sql: string): unknown };
    for (let i = 0; i <= 2000; i++) internals.statement(`SELECT ${i}`);
    expect(page(store.list("ann", "batch", shared))).toEqual(ids("ann").slice(0, 10));
    expect(page(store.list("bob", "batch", shared))).toEqual(ids("bob").slice(0, 10));
  });
});
