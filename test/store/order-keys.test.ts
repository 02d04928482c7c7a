// Orders by a field without a column of its own (docs/performance.md, "Order by any field"): once an
// order's keys are made, its pages read them instead of sorting, and give exactly the pages the sort
// gives, through every later write. SQLite's own mechanism, so SQLite only.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Doc } from "../../src/lib/json.ts";
import type { Kind } from "../../src/resources.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { buildListSql } from "../../src/store/sqlite-list.ts";
import { MAX_ORDER_PATHS } from "../../src/store/sqlite-order-keys.ts";
import type { ListQuery } from "../../src/store/types.ts";

let store: SqliteStore;
beforeEach(async () => {
  store = SqliteStore.open(":memory:");
  await store.createUser("u", null);
  await store.createUser("other", null);
});
afterEach(() => store.close());

// Values of every JSON type, ties, missing and null, nested paths: what the sort must order alike.
const OG = [1.05, 1.05, 1.042, "1.050", "high", null, true, false, 0, -3, 1e300, { a: 1 }, [2], undefined];
function batch(n: number): Doc {
  const og = OG[n % OG.length];
  const doc: Doc = { _id: `b${String((n * 7919) % 1000).padStart(3, "0")}`, name: `Batch ${n}`, status: n % 3 ? "Planning" : "Completed" };
  if (og !== undefined) doc.measuredOg = og;
  if (n % 4) doc.fermentation = { steps: n % 5, name: n % 2 ? "Ale" : "Lager" };
  return doc;
}
const BATCHES = Array.from({ length: 60 }, (_, n) => batch(n));

const QUERY: ListQuery = { limit: 7, fields: "summary", desc: false, orderBy: "measuredOg" };

/** Every page by start_after, as the store serves them. */
async function allPages(query: ListQuery): Promise<string[][]> {
  const pages: string[][] = [];
  let after: string | undefined;
  for (;;) {
    const page = (await store.list("u", "batch", { ...query, fields: "body", startAfter: after })) as string[];
    if (!page.length) return pages;
    pages.push(page.map((t) => JSON.parse(t)._id as string));
    after = pages.at(-1)!.at(-1);
  }
}

/** The same pages by the sort alone, whatever the store has made. */
function sortedPages(query: ListQuery): string[][] {
  const pages: string[][] = [];
  let after: string | undefined;
  for (;;) {
    const q = { ...query, fields: "body" as const, startAfter: after };
    const { sql, params, cursorSql, cursorParams, keySlots } = buildListSql("u", "batch", q);
    if (cursorSql) {
      const key = store.db.prepare(cursorSql).values(...cursorParams!)[0][0];
      for (const i of keySlots!) params[i] = key as string;
    }
    const page = (store.db.prepare(sql).values(...params) as string[][]).map((r) => JSON.parse(r[0])._id as string);
    if (!page.length) return pages;
    pages.push(page);
    after = page.at(-1);
  }
}

const keysOf = (path: string) => (store.db.query("SELECT count(*) AS n FROM order_keys WHERE user_id = 'u' AND path = ?").get(path) as { n: number }).n;
const isDone = (path: string) => (store.db.query("SELECT done FROM order_paths WHERE user_id = 'u' AND kind = 'batch' AND path = ?").get(path) as { done: number } | null)?.done === 1;

const ORDERS: Array<[string, Partial<ListQuery>]> = [
  ["measuredOg ascending", {}],
  ["measuredOg descending", { desc: true }],
  ["a nested path", { orderBy: "fermentation.name" }],
  ["a nested path descending with a status filter", { orderBy: "fermentation.steps", desc: true, status: "Planning" }],
  ["a field no batch has", { orderBy: "nothing" }],
];

describe("pages by a field without a column of its own", () => {
  for (const [name, over] of ORDERS) {
    test(`${name}: the same pages before and after its keys are made`, async () => {
      await store.importAll("u", { batches: BATCHES.map((doc) => ({ doc })), docs: [] });
      await store.importAll("other", { batches: BATCHES.slice(0, 9).map((doc) => ({ doc: { ...doc, measuredOg: 2 } })), docs: [] });
      const query = { ...QUERY, ...over };
      const before = await allPages(query);
      expect(before).toEqual(sortedPages(query));
      expect(before.flat().length).toBe(query.status ? BATCHES.filter((b) => b.status === query.status).length : 60);
      expect(store.orderKeys.make("u", "batch", `$.${query.orderBy}`)).toBe(true);
      expect(keysOf(`$.${query.orderBy}`)).toBe(60);
      expect(await allPages(query)).toEqual(before);
    });
  }

  test("inserts, PATCHes, replacements, re-imports and deletes keep the keys: pages stay those of the sort", async () => {
    await store.importAll("u", { batches: BATCHES.map((doc) => ({ doc })), docs: [] });
    store.orderKeys.make("u", "batch", "$.measuredOg");
    await store.insert("u", "batch", { _id: "new1", measuredOg: 1.001, name: "N" });
    await store.setFields("u", "batch", BATCHES[3]._id as string, { measuredOg: 0.5 });
    await store.update("u", "batch", BATCHES[4]._id as string, (cur) => ({ write: { ...cur!, measuredOg: "zzz" }, result: null }));
    await store.update("u", "batch", BATCHES[5]._id as string, (cur) => ({ write: { _id: cur!._id, name: "no og" }, result: null }));
    await store.remove("u", "batch", BATCHES[6]._id as string);
    await store.importAll("u", { batches: [{ doc: { ...BATCHES[7], measuredOg: 9 } }], docs: [] });
    for (const desc of [false, true]) {
      const pages = await allPages({ ...QUERY, desc });
      expect(pages).toEqual(sortedPages({ ...QUERY, desc }));
      expect(pages.flat()).toHaveLength(60);
    }
    expect(keysOf("$.measuredOg")).toBe(60);
  });

  test("the first page asks for its keys, made between requests until done", async () => {
    await store.importAll("u", { batches: BATCHES.map((doc) => ({ doc })), docs: [] });
    expect(keysOf("$.measuredOg")).toBe(0);
    await store.list("u", "batch", QUERY);
    for (let i = 0; i < 200 && !isDone("$.measuredOg"); i++) await Bun.sleep(5);
    expect(isDone("$.measuredOg")).toBe(true);
    expect(keysOf("$.measuredOg")).toBe(60);
    expect(await allPages(QUERY)).toEqual(sortedPages(QUERY));
  });

  test("keys made in several steps (more records than one step keys) give the sort's pages", async () => {
    const many = Array.from({ length: 1_234 }, (_, n) => ({ doc: { _id: `m${String(n).padStart(5, "0")}`, measuredOg: (n * 37) % 101 } }));
    await store.importAll("u", { batches: many, docs: [] });
    const query = { ...QUERY, limit: 50 };
    const before = sortedPages(query);
    expect(store.orderKeys.make("u", "batch", "$.measuredOg")).toBe(true);
    expect(keysOf("$.measuredOg")).toBe(1_234);
    expect(await allPages(query)).toEqual(before);
  });

  test("a cursor that is no batch of the account is unknown-cursor with the keys made", async () => {
    await store.importAll("u", { batches: BATCHES.map((doc) => ({ doc })), docs: [] });
    store.orderKeys.make("u", "batch", "$.measuredOg");
    expect(await store.list("u", "batch", { ...QUERY, startAfter: "nope" })).toBe("unknown-cursor");
  });

  test(`an account has at most ${MAX_ORDER_PATHS} orders made per kind; a further one still sorts correctly`, async () => {
    await store.importAll("u", { batches: BATCHES.map((doc) => ({ doc })), docs: [] });
    for (let i = 0; i < MAX_ORDER_PATHS; i++) expect(store.orderKeys.make("u", "batch", `$.f${i}`)).toBe(true);
    expect(store.orderKeys.make("u", "batch", "$.measuredOg")).toBe(false);
    expect(await allPages(QUERY)).toEqual(sortedPages(QUERY));
    const count = store.db.query("SELECT count(*) AS n FROM order_paths WHERE user_id = 'u' AND kind = 'batch'").get() as { n: number };
    expect(count.n).toBe(MAX_ORDER_PATHS);
    expect(store.orderKeys.make("u", "recipe" as Kind, "$.measuredOg")).toBe(true);
  });

  for (const [status, lookup] of [[undefined, "INDEX records_key (user_id=? AND kind=? AND id=?)"], ["Planning", "INDEX records_status (user_id=? AND kind=? AND status=? AND id=?)"]] as const) {
    test(`a page with the keys made${status ? " and a status filter" : ""} seeks in order_keys_seek and sorts nothing`, () => {
      const { sql, params } = buildListSql("u", "batch", { ...QUERY, startAfter: "x", status }, false, true);
      const stmt = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      const plan = (stmt.all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      stmt.finalize();
      expect(plan).toEqual([
        "SEARCH k USING COVERING INDEX order_keys_seek (user_id=? AND kind=? AND path=? AND (sort_value,id)>(?,?))",
        `SEARCH r USING ${lookup}`,
      ]);
    });
  }
});
