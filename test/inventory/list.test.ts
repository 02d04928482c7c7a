// GET /v2/inventory/{collection} (API document: Endpoints › Inventory, its list parameters
// `inventory_exists` and `inventory_negative`; Common list query parameters; Errors) and
// docs/decisions.md (Lists: default fields of miscs and yeasts, ties by `_id`, booleans, start_after).
import { beforeAll, describe, expect, test } from "bun:test";
import { canonical, COLLECTIONS, ITEMS, ladderItems, listEntry, type Doc } from "./fixtures.ts";
import { inventoryWorld, type World } from "./harness.ts";

let w: World;
beforeAll(async () => {
  w = await inventoryWorld();
});

const all = (c: string): Doc[] => [ITEMS[c as keyof typeof ITEMS], ...ladderItems(c as keyof typeof ITEMS)];
const byId = (a: Doc, b: Doc) => (String(a._id) < String(b._id) ? -1 : String(a._id) > String(b._id) ? 1 : 0);
/** Ascending by stock, ties by `_id`: the order the document asks for, written independently. */
const byStock = (a: Doc, b: Doc) => (a.inventory as number) - (b.inventory as number) || byId(a, b);
const stocked = (c: string, keep: (n: number) => boolean) =>
  all(c).filter((d) => typeof d.inventory === "number" && keep(d.inventory)).sort(byStock);

async function list(c: string, query: string, as = "alice"): Promise<{ status: number; body: unknown }> {
  const res = await w.call("GET", `/v2/inventory/${c}${query}`, as);
  return { status: res.status, body: res.status === 200 ? res.json() : res.text };
}

/** Follows `start_after` from page to page until an empty page; returns every `_id` served. */
async function walk(c: string, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const cursor = after === undefined ? "" : `&start_after=${after}`;
    const page = (await list(c, `?${query}&limit=${limit}${cursor}`)).body as Doc[];
    expect(page.length).toBeLessThanOrEqual(limit);
    if (page.length === 0) return ids;
    ids.push(...page.map((d) => String(d._id)));
    after = ids.at(-1);
  }
  throw new Error("paging did not end");
}

for (const c of COLLECTIONS) {
  describe(`${c} list`, () => {
    test("without parameters: the first 10 by _id, default fields only, zero and missing stock included", async () => {
      const expected = all(c).sort(byId).slice(0, 10).map((d) => listEntry(d));
      expect(await list(c, "")).toEqual({ status: 200, body: expected });
    });

    test("entries carry only the default fields the item has, keys in alphabetical order", async () => {
      const res = await w.call("GET", `/v2/inventory/${c}?limit=50`, "alice");
      expect(res.text).toBe(JSON.stringify(all(c).sort(byId).map((d) => listEntry(d))));
    });

    test("complete=True returns whole documents", async () => {
      expect(await list(c, "?complete=True&limit=50")).toEqual({ status: 200, body: all(c).sort(byId).map(canonical) });
    });

    test("include adds fields to the default ones", async () => {
      const body = (await list(c, "?include=notes,hidden&limit=50")).body;
      expect(body).toEqual(all(c).sort(byId).map((d) => listEntry(d, ["notes", "hidden"])));
    });

    test("inventory_exists=True: only stock > 0, ascending by stock, ties by _id", async () => {
      const expected = stocked(c, (n) => n > 0).map((d) => listEntry(d));
      expect(await list(c, "?inventory_exists=True")).toEqual({ status: 200, body: expected });
    });

    test("inventory_exists=True with order_by_direction=desc: descending stock, ties by _id descending", async () => {
      const expected = stocked(c, (n) => n > 0).reverse().map((d) => listEntry(d));
      expect(await list(c, "?inventory_exists=True&order_by_direction=desc")).toEqual({ status: 200, body: expected });
    });

    test("inventory_negative=True: only stock < 0, ascending, ties by _id", async () => {
      const expected = stocked(c, (n) => n < 0).map((d) => listEntry(d));
      expect(await list(c, "?inventory_negative=True")).toEqual({ status: 200, body: expected });
    });

    test("inventory_exists=True&complete=True gives whole documents in stock order", async () => {
      expect(await list(c, "?inventory_exists=True&complete=True")).toEqual({
        status: 200,
        body: stocked(c, (n) => n > 0).map(canonical),
      });
    });

    for (const [filter, keep] of [["inventory_exists", (n: number) => n > 0], ["inventory_negative", (n: number) => n < 0]] as const) {
      for (const direction of ["asc", "desc"]) {
        test(`${filter}=True, ${direction}: paging with start_after at limits 1, 2 and 3 serves every item once, in order`, async () => {
          const order = stocked(c, keep).map((d) => String(d._id));
          if (direction === "desc") order.reverse();
          for (const limit of [1, 2, 3]) {
            expect(await walk(c, `${filter}=True&order_by_direction=${direction}`, limit)).toEqual(order);
          }
        });
      }
    }

    test("inventory_exists=False and inventory_negative=false filter nothing", async () => {
      const expected = (await list(c, "?limit=50")).body;
      expect(await list(c, "?inventory_exists=False&inventory_negative=false&limit=50")).toEqual({ status: 200, body: expected });
    });

    test("both filters True: no stock is > 0 and < 0 at once, so []", async () => {
      expect(await list(c, "?inventory_exists=True&inventory_negative=True")).toEqual({ status: 200, body: [] });
    });

    test("inventory_exists=yes is 400 Invalid inventory_exists", async () => {
      expect(await list(c, "?inventory_exists=yes")).toEqual({ status: 400, body: "Invalid inventory_exists" });
    });

    test("inventory_negative=1 is 400 Invalid inventory_negative", async () => {
      expect(await list(c, "?inventory_negative=1")).toEqual({ status: 400, body: "Invalid inventory_negative" });
    });

    test("start_after an unknown _id under the stock order is 400 Invalid start_after", async () => {
      expect(await list(c, "?inventory_exists=True&start_after=nope")).toEqual({ status: 400, body: "Invalid start_after" });
    });

    test("order_by=name&order_by_direction=desc orders by name descending", async () => {
      const names = all(c).map((d) => String(d.name)).sort().reverse();
      const body = (await list(c, "?order_by=name&order_by_direction=desc&limit=50")).body as Doc[];
      expect(body.map((d) => d.name)).toEqual(names);
    });

    test("under a stock filter the stock order wins over order_by", async () => {
      const expected = stocked(c, (n) => n > 0).map((d) => listEntry(d));
      expect(await list(c, "?inventory_exists=True&order_by=name")).toEqual({ status: 200, body: expected });
    });

    test("order_by_direction=up is 400 Invalid order by direction", async () => {
      expect(await list(c, "?order_by_direction=up")).toEqual({ status: 400, body: "Invalid order by direction" });
    });

    test("another account sees none of alice's items: []", async () => {
      expect(await list(c, "?limit=50", "bob")).toEqual({ status: 200, body: [] });
      expect(await list(c, "?inventory_exists=True", "bob")).toEqual({ status: 200, body: [] });
    });

    test("inventory.read is enough; a key without it is 403 Forbidden; no credentials 401", async () => {
      expect((await list(c, "?limit=1", "reader")).status).toBe(200);
      expect(await list(c, "", "brewer")).toEqual({ status: 403, body: "Forbidden" });
      const res = await w.call("GET", `/v2/inventory/${c}`, null);
      expect({ status: res.status, text: res.text }).toEqual({ status: 401, text: "Unauthorized" });
    });
  });
}

test("an unknown collection is 404 Not Found", async () => {
  expect(await list("grains", "")).toEqual({ status: 404, body: "Not Found" });
});

test("limit=50 serves at most 50 even with more stocked items; limit=51 is served as 50", async () => {
  const big = await inventoryWorld({ empty: true });
  for (let i = 0; i < 55; i++) {
    const res = await big.call("POST", "/v2/inventory/hops", "alice", { body: { name: `Hop ${i}`, inventory: i + 1 } });
    expect(res.status).toBe(201);
  }
  const page = await big.call("GET", "/v2/inventory/hops?inventory_exists=True&limit=51", "alice");
  expect((page.json() as Doc[]).map((d) => d.inventory)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
});
