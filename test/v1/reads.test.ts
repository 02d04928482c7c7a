// Version 1 reads (API document, Versioning rule 3: "the same read endpoints as version 2 for batches
// (list, one, readings, last reading, brewtracker), recipes (list, one) and the four inventory
// collections (list, one)"). Two accounts hold the same records, one with a v1 key and one with a v2
// key: every read that does not page answers byte for byte as v2 does, and the exact bodies are checked.
import { beforeAll, describe, expect, test } from "bun:test";
import { BATCH_FIELDS, byId, FERMENTABLES, HOPS, ITEM_FIELDS, MISCS, OTHERS, PLANNING, READINGS, RECIPE_FIELDS, RECIPES, sortKeys, TRACKER, twins, YEASTS, pick } from "./data.ts";

// The first import compiles the schema validators (seconds on a small machine): do it once, up front.
beforeAll(() => twins(), 30_000);

const SAME_AS_V2: Array<[string, number]> = [
  ["/batches/p-03", 200],
  ["/batches/s-fermenting?include=recipe.fermentation,measuredOg", 200],
  ["/batches/s-fermenting/readings", 200],
  ["/batches/s-brewing/readings", 200],
  ["/batches/s-fermenting/readings/last", 200],
  ["/batches/s-fermenting/brewtracker", 200],
  ["/batches/nope", 404],
  ["/batches/nope/readings", 404],
  ["/batches/s-brewing/readings/last", 404],
  ["/batches/p-03/brewtracker", 404],
  ["/recipes/r-04", 200],
  ["/recipes/r-04?include=mash", 200],
  ["/recipes/nope", 404],
  ["/inventory/fermentables/f-a", 200],
  ["/inventory/hops/h-a?include=use", 200],
  ["/inventory/miscs/m-a", 200],
  ["/inventory/yeasts/y-a", 200],
  ["/inventory/yeasts/nope", 404],
  ["/inventory/grains/f-a", 404],
  ["/inventory/grains", 404],
  ["/recipes?complete=True&limit=50", 200],
  ["/recipes?include=mash&limit=3", 200],
  ["/inventory/hops", 200],
  ["/inventory/fermentables?complete=true&limit=50", 200],
  ["/batches?status=Fermenting&complete=TRUE", 200],
];

describe("v1 reads answer exactly as v2 reads of the same records", () => {
  for (const [path, status] of SAME_AS_V2) {
    test(`GET /v1${path} is ${status}, the same body as GET /v2${path}`, async () => {
      const t = await twins();
      const one = await t.call("GET", `/v1${path}`, t.v1);
      const two = await t.call("GET", `/v2${path}`, t.v2);
      expect({ status: one.status, text: one.text }).toEqual({ status, text: two.text });
      expect(one.headers.get("content-type")).toBe(two.headers.get("content-type"));
    });
  }
});

describe("v1 read bodies", () => {
  test("GET /v1/batches/{id} is the whole batch, keys in alphabetical order", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/batches/s-completed", t.v1);
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(sortKeys(OTHERS.find((b) => b._id === "s-completed"))));
  });

  test("readings come in time order; readings/last is the newest; brewtracker is the tracker", async () => {
    const t = await twins();
    expect((await t.call("GET", "/v1/batches/s-fermenting/readings", t.v1)).json()).toEqual([READINGS[1], READINGS[0]]);
    expect((await t.call("GET", "/v1/batches/s-fermenting/readings/last", t.v1)).json()).toEqual(READINGS[0]);
    expect((await t.call("GET", "/v1/batches/s-fermenting/brewtracker", t.v1)).json()).toEqual(TRACKER);
  });

  test("a missing batch, reading or tracker is 404 Not Found", async () => {
    const t = await twins();
    for (const path of ["/v1/batches/nope", "/v1/batches/s-brewing/readings/last", "/v1/batches/p-00/brewtracker", "/v1/recipes/nope", "/v1/inventory/hops/nope"]) {
      const res = await t.call("GET", path, t.v1);
      expect([path, res.status, res.text]).toEqual([path, 404, "Not Found"]);
    }
  });

  test("the recipe list holds the first 10 recipes by _id with the default fields", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/recipes", t.v1);
    expect(res.json()).toEqual([...RECIPES].sort(byId).slice(0, 10).map((r) => pick(r, RECIPE_FIELDS)));
  });

  test("GET /v1/recipes/{id} is the whole recipe", async () => {
    const t = await twins();
    expect((await t.call("GET", "/v1/recipes/r-07", t.v1)).text).toBe(JSON.stringify(sortKeys(RECIPES.find((r) => r._id === "r-07"))));
  });

  for (const [collection, items] of [["fermentables", FERMENTABLES], ["hops", HOPS], ["miscs", MISCS], ["yeasts", YEASTS]] as const) {
    test(`GET /v1/inventory/${collection} lists the items by _id with the default fields; one item is whole`, async () => {
      const t = await twins();
      const list = await t.call("GET", `/v1/inventory/${collection}`, t.v1);
      expect(list.json()).toEqual([...items].sort(byId).slice(0, 10).map((i) => pick(i, ITEM_FIELDS)));
      const one = await t.call("GET", `/v1/inventory/${collection}/${items[0]._id}`, t.v1);
      expect(one.text).toBe(JSON.stringify(sortKeys(items[0])));
    });
  }

  test("GET /v1/batches/ with a trailing slash is the list", async () => {
    const t = await twins();
    const res = await t.call("GET", "/v1/batches/", t.v1);
    expect(res.json()).toEqual([...PLANNING].sort(byId).slice(0, 10).map((b) => pick(b, BATCH_FIELDS)));
  });
});

describe("Missing ID on v1 one-record operations that v1 has", () => {
  const cases: Array<[string, string]> = [
    ["PATCH", "/v1/batches/"],
    ["GET", "/v1/batches//readings"],
    ["GET", "/v1/batches//readings/last"],
    ["GET", "/v1/batches//brewtracker"],
    ["PATCH", "/v1/inventory/hops/"],
  ];
  for (const [method, path] of cases) {
    test(`${method} ${path} is 400 Missing ID with a v1 key and 401 with a v2 key`, async () => {
      const t = await twins();
      const res = await t.call(method, path, t.v1);
      expect([res.status, res.text]).toEqual([400, "Missing ID"]);
      const other = await t.call(method, path, t.v2);
      expect([other.status, other.text]).toEqual([401, "Unauthorized"]);
    });
  }
});
