// Version 1 lists (API document, Versioning table): paging with `offset` (skipped documents, default 0)
// and `limit` (default 10, max 50); default order `_id` with no `order_by` or `order_by_direction`;
// batch list `status` defaults to `Planning`; the fermentables list also accepts `inventory_negative`.
import { beforeAll, describe, expect, test } from "bun:test";
import { BATCH_FIELDS, byId, FERMENTABLES, HOPS, ITEM_FIELDS, OTHERS, pick, PLANNING, RECIPE_FIELDS, RECIPES, twins, type Doc } from "./data.ts";

beforeAll(() => twins(), 30_000);

const planning = [...PLANNING].sort(byId).map((b) => pick(b, BATCH_FIELDS));
const ids = (docs: Doc[]) => docs.map((d) => d._id);

describe("offset and limit", () => {
  const cases: Array<[string, string, Doc[]]> = [
    ["no parameters: offset 0, limit 10", "/v1/batches", planning.slice(0, 10)],
    ["offset=10: the 4 left", "/v1/batches?offset=10", planning.slice(10)],
    ["offset=0 is the default", "/v1/batches?offset=0", planning.slice(0, 10)],
    ["limit=3&offset=2: the 3rd to 5th", "/v1/batches?limit=3&offset=2", planning.slice(2, 5)],
    ["offset=13: the last one", "/v1/batches?offset=13", planning.slice(13)],
    ["offset=14: past the end, empty", "/v1/batches?offset=14", []],
    ["offset=1000000: empty", "/v1/batches?offset=1000000", []],
    ["an empty offset counts as absent", "/v1/batches?offset=&limit=2", planning.slice(0, 2)],
    ["limit=1&offset=5", "/v1/batches?limit=1&offset=5", planning.slice(5, 6)],
  ];
  for (const [why, path, expected] of cases) {
    test(`${path} (${why})`, async () => {
      const t = await twins();
      const res = await t.call("GET", path, t.v1);
      expect({ status: res.status, body: res.json() }).toEqual({ status: 200, body: expected });
    });
  }

  test("limit=51 is served as 50, and offset=50 gives the rest", async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ _id: `q-${String(i).padStart(2, "0")}`, name: `R ${i}` }));
    const t = await twins({ recipes: many });
    expect(ids((await t.call("GET", "/v1/recipes?limit=51", t.v1)).json())).toEqual(ids(many.slice(0, 50)));
    expect(ids((await t.call("GET", "/v1/recipes?limit=1000&offset=50", t.v1)).json())).toEqual(ids(many.slice(50)));
    expect(ids((await t.call("GET", "/v1/recipes?offset=55", t.v1)).json())).toEqual(ids(many.slice(55)));
  });

  const bad: Array<[string, string]> = [
    ["/v1/batches?limit=0", "Invalid limit"],
    ["/v1/batches?limit=-1", "Invalid limit"],
    ["/v1/batches?limit=2.5", "Invalid limit"],
    ["/v1/batches?offset=-1", "Invalid offset"],
    ["/v1/batches?offset=1.5", "Invalid offset"],
    ["/v1/batches?offset=ten", "Invalid offset"],
    ["/v1/batches?offset=99999999999999999999", "Invalid offset"],
    ["/v1/recipes?offset=-3", "Invalid offset"],
    ["/v1/inventory/hops?offset=x", "Invalid offset"],
    ["/v1/batches?complete=maybe", "Invalid complete"],
  ];
  for (const [path, text] of bad) {
    test(`${path} is 400 ${text}`, async () => {
      const t = await twins();
      const res = await t.call("GET", path, t.v1);
      expect([res.status, res.text]).toEqual([400, text]);
    });
  }
});

describe("order is always _id: v2's ordering and cursor parameters are not part of v1", () => {
  const ignored = [
    "order_by=name",
    "order_by=brewDate&order_by_direction=desc",
    "order_by_direction=desc",
    "order_by_direction=sideways",
    "order_by=not a field!",
    "start_after=p-05",
    "start_after=unknown",
  ];
  for (const q of ignored) {
    test(`/v1/batches?${q} is the first page by _id`, async () => {
      const t = await twins();
      const res = await t.call("GET", `/v1/batches?${q}`, t.v1);
      expect({ status: res.status, body: res.json() }).toEqual({ status: 200, body: planning.slice(0, 10) });
    });
  }

  test("on v2 the same parameters order, page, or are refused: names sort against ids", async () => {
    const t = await twins();
    const byName = await t.call("GET", "/v2/recipes?order_by=name&limit=3", t.v2);
    expect(ids(byName.json())).toEqual(["r-11", "r-10", "r-09"]);
    const v1 = await t.call("GET", "/v1/recipes?order_by=name&limit=3", t.v1);
    expect(ids(v1.json())).toEqual(["r-00", "r-01", "r-02"]);
    const refused = await t.call("GET", "/v2/batches?order_by_direction=sideways", t.v2);
    expect([refused.status, refused.text]).toEqual([400, "Invalid order by direction"]);
  });

  test("offset on v2 is not a paging parameter: v2 ignores it", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v2/recipes?offset=5&limit=2", t.v2);
    expect(ids(res.json())).toEqual(["r-00", "r-01"]);
  });
});

describe("batch list status", () => {
  test("without status, v1 lists only Planning batches (v2 lists all statuses)", async () => {
    const t = await twins();
    const one = (await t.call("GET", "/v1/batches?limit=50", t.v1)).json() as Doc[];
    const two = (await t.call("GET", "/v2/batches?limit=50", t.v2)).json() as Doc[];
    expect(one).toEqual(planning);
    expect(two.map((b) => b.status).sort()).toEqual([...PLANNING, ...OTHERS].map((b) => b.status as string).sort());
  });

  for (const b of OTHERS) {
    test(`status=${b.status} lists that batch only`, async () => {
      const t = await twins();
      const res = await t.call("GET", `/v1/batches?status=${b.status}`, t.v1);
      expect(res.json()).toEqual([pick(b, BATCH_FIELDS)]);
    });
  }

  test("an empty status counts as absent: Planning", async () => {
    const t = await twins();
    expect((await t.call("GET", "/v1/batches?status=&limit=50", t.v1)).json()).toEqual(planning);
  });

  test("status=Planning with offset pages through Planning batches only", async () => {
    const t = await twins();
    expect(ids((await t.call("GET", "/v1/batches?status=Planning&offset=12", t.v1)).json())).toEqual(["p-12", "p-13"]);
  });

  for (const bad of ["planning", "Brewed", "All"]) {
    test(`status=${bad} is 400 Invalid status`, async () => {
      const t = await twins();
      const res = await t.call("GET", `/v1/batches?status=${bad}`, t.v1);
      expect([res.status, res.text]).toEqual([400, "Invalid status"]);
    });
  }
});

describe("inventory lists", () => {
  const entry = (d: Doc) => pick(d, ITEM_FIELDS);
  const negative = FERMENTABLES.filter((f) => (f.inventory as number) < 0).sort((a, b) => (a.inventory as number) - (b.inventory as number));

  test("fermentables with inventory_negative=true: only stock below zero, by stock ascending", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/inventory/fermentables?inventory_negative=true", t.v1);
    expect(res.json()).toEqual(negative.map(entry));
    expect(ids(res.json())).toEqual(["f-f", "f-a", "f-c"]);
  });

  test("inventory_negative pages with offset and limit", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/inventory/fermentables?inventory_negative=True&offset=1&limit=1", t.v1);
    expect(res.json()).toEqual([entry(negative[1])]);
  });

  test("inventory_negative=false and absent list every item by _id", async () => {
    const t = await twins();
    const all = [...FERMENTABLES].sort(byId).map(entry);
    expect((await t.call("GET", "/v1/inventory/fermentables?inventory_negative=false", t.v1)).json()).toEqual(all);
    expect((await t.call("GET", "/v1/inventory/fermentables", t.v1)).json()).toEqual(all);
  });

  test("inventory_negative=yes is 400 Invalid inventory_negative", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/inventory/fermentables?inventory_negative=yes", t.v1);
    expect([res.status, res.text]).toEqual([400, "Invalid inventory_negative"]);
  });

  // The document names inventory_negative for v1 fermentables; this server reads v1 inventory lists
  // with the v2 inventory parameters on every collection, so inventory_exists works too.
  test("fermentables with inventory_exists=true: only stock above zero", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/inventory/fermentables?inventory_exists=true", t.v1);
    expect(res.json()).toEqual([entry(FERMENTABLES.find((f) => f._id === "f-b") as Doc)]);
  });

  test("hops accept inventory_negative as well", async () => {
    const t = await twins();
    expect((await t.call("GET", "/v1/inventory/hops?inventory_negative=true", t.v1)).json()).toEqual([entry(HOPS[1])]);
  });

  test("recipes page with offset like batches", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/recipes?offset=9&limit=2", t.v1);
    expect(res.json()).toEqual([...RECIPES].sort(byId).slice(9, 11).map((r) => pick(r, RECIPE_FIELDS)));
  });
});
