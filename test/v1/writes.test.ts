// Version 1 writes (API document, Versioning table): batch PATCH of `status` only; inventory PATCH of
// `inventory` or `inventory_adjust` (`inventory` wins), no create or delete; no recipe or batch write
// or delete. Fields v1 does not know are ignored, as unknown fields are on v2 (docs/decisions.md).
import { beforeAll, describe, expect, test } from "bun:test";
import { catalogItems } from "../../src/catalog/index.ts";
import { FERMENTABLES, OTHERS, sortKeys, twins, type Doc } from "./data.ts";

beforeAll(() => twins(), 30_000);

const FERMENTING = OTHERS.find((b) => b._id === "s-fermenting") as Doc;
const PILSNER = FERMENTABLES.find((f) => f._id === "f-a") as Doc;

describe("batch PATCH changes status only", () => {
  const cases: Array<[string, Doc | undefined, string, number, string, Doc]> = [
    ["status alone", { status: "Conditioning" }, "", 200, "Updated", { status: "Conditioning" }],
    ["status with measured values: the measured values are ignored", { status: "Completed", measuredOg: 1.06, measuredFg: 1.01, carbonationTemp: 3 }, "", 200, "Updated", { status: "Completed" }],
    ["a measured value alone is nothing to update", { measuredOg: 1.06 }, "", 200, "Nothing to update", {}],
    ["a measured value out of bounds is ignored, not refused", { measuredOg: 99, measuredMashPh: "acid" }, "", 200, "Nothing to update", {}],
    ["status in the query string", undefined, "?status=Archived&measuredFg=1.001", 200, "Updated", { status: "Archived" }],
    ["an unknown status is refused", { status: "Brewed", measuredOg: 1.06 }, "", 400, "Invalid status", {}],
    ["status null is refused", { status: null }, "", 400, "Invalid status", {}],
    ["an empty object is nothing to update", {}, "", 200, "Nothing to update", {}],
  ];
  for (const [why, body, query, status, text, change] of cases) {
    test(`${why}: ${status} ${text}`, async () => {
      const t = await twins();
      const res = await t.call("PATCH", `/v1/batches/s-fermenting${query}`, t.v1, body === undefined ? {} : { body });
      expect([res.status, res.text]).toEqual([status, text]);
      expect(await t.stored("batch", "s-fermenting")).toEqual({ ...FERMENTING, ...change });
    });
  }

  test("the change reads back through v1, with readings and tracker kept", async () => {
    const t = await twins();
    await t.call("PATCH", "/v1/batches/s-fermenting", t.v1, { body: { status: "Brewing" } });
    const res = await t.call("GET", "/v1/batches?status=Brewing", t.v1);
    expect((res.json() as Doc[]).map((b) => b._id)).toEqual(["s-brewing", "s-fermenting"]);
    expect((await t.call("GET", "/v1/batches/s-fermenting/readings", t.v1)).json()).toHaveLength(2);
    expect((await t.call("GET", "/v1/batches/s-fermenting/brewtracker", t.v1)).status).toBe(200);
  });

  test("a missing batch is 404 Not Found", async () => {
    const t = await twins();
    const res = await t.call("PATCH", "/v1/batches/nope", t.v1, { body: { status: "Brewing" } });
    expect([res.status, res.text]).toEqual([404, "Not Found"]);
  });

  test("v2 changes the measured values the same body carries", async () => {
    const t = await twins();
    await t.call("PATCH", "/v2/batches/s-fermenting", t.v2, { body: { status: "Completed", measuredOg: 1.06 } });
    expect(JSON.parse((await t.store.get("new", "batch", "s-fermenting")) as string)).toEqual({ ...FERMENTING, status: "Completed", measuredOg: 1.06 });
  });
});

describe("inventory PATCH changes stock only", () => {
  const cases: Array<[string, Doc, number, string, Doc]> = [
    ["inventory sets the stock", { inventory: 7.5 }, 200, "Updated", { inventory: 7.5 }],
    ["inventory as a numeric string", { inventory: "12.25" }, 200, "Updated", { inventory: 12.25 }],
    ["inventory_adjust adds to the stock", { inventory_adjust: 3 }, 200, "Updated", { inventory: 1 }],
    ["inventory_adjust subtracts, as a string", { inventory_adjust: "-0.5" }, 200, "Updated", { inventory: -2.5 }],
    ["inventory wins over inventory_adjust", { inventory: 4, inventory_adjust: 100 }, 200, "Updated", { inventory: 4 }],
    ["other fields are ignored, stock still changes", { name: "Renamed", color: 40, _id: "other", inventory: 9 }, 200, "Updated", { inventory: 9 }],
    ["other fields alone are nothing to update", { name: "Renamed", notes: "new" }, 200, "Nothing to update", {}],
    ["an empty object is nothing to update", {}, 200, "Nothing to update", {}],
    ["inventory that is not a number", { inventory: "12abc" }, 400, "Invalid inventory", {}],
    ["inventory that is not a number beside an ignored field: still inventory-only mode", { name: 5, inventory: "lots" }, 400, "Invalid inventory", {}],
    ["inventory_adjust that is not a number", { inventory_adjust: "x" }, 400, "Invalid inventory_adjust", {}],
    ["inventory_adjust that is not a number, with a valid inventory", { inventory: 1, inventory_adjust: [] }, 400, "Invalid inventory_adjust", {}],
  ];
  for (const [why, body, status, text, change] of cases) {
    test(`${why}: ${status} ${text}`, async () => {
      const t = await twins();
      const res = await t.call("PATCH", "/v1/inventory/fermentables/f-a", t.v1, { body });
      expect([res.status, res.text]).toEqual([status, text]);
      const after = (await t.stored("fermentables", "f-a")) as Doc;
      const { updatedAt: _u, _timestamp_ms: _t, _timestamp: _s, _rev: _r, ...rest } = after;
      expect(rest).toEqual({ ...PILSNER, ...change });
      if (status !== 200 || text === "Nothing to update") expect(after).toEqual(PILSNER);
    });
  }

  test("the new stock reads back through v1 in the list and the item", async () => {
    const t = await twins();
    await t.call("PATCH", "/v1/inventory/hops/h-a", t.v1, { body: { inventory: 25 } });
    expect((await t.call("GET", "/v1/inventory/hops/h-a", t.v1)).json().inventory).toBe(25);
    expect((await t.call("GET", "/v1/inventory/hops?inventory_negative=true", t.v1)).json()).toEqual([]);
  });

  for (const [collection, id] of [["hops", "h-b"], ["miscs", "m-a"], ["yeasts", "y-a"]]) {
    test(`PATCH /v1/inventory/${collection}/${id} with a name and a stock changes the stock only`, async () => {
      const t = await twins();
      const before = (await t.stored(collection, id)) as Doc;
      const res = await t.call("PATCH", `/v1/inventory/${collection}/${id}`, t.v1, { body: { name: "Renamed", inventory: 1 } });
      expect([res.status, res.text]).toEqual([200, "Updated"]);
      const after = (await t.stored(collection, id)) as Doc;
      expect([after.name, after.inventory]).toEqual([before.name, 1]);
    });
  }

  test("a default catalog item reads through v1, and a stock PATCH puts it in the v1 list", async () => {
    const t = await twins();
    const item = catalogItems("hops")[0];
    const path = `/v1/inventory/hops/${item._id as string}`;
    expect((await t.call("GET", path, t.v1)).json()).toEqual(item);
    expect((await t.call("PATCH", path, t.v1, { body: { inventory: 30, name: "Mine" } })).text).toBe("Updated");
    const listed = (await t.call("GET", "/v1/inventory/hops?limit=50", t.v1)).json() as Doc[];
    expect(listed.find((h) => h._id === item._id)).toMatchObject({ name: item.name, inventory: 30 });
  });

  test("a missing item is 404 Not Found; an unknown collection is 404 Not Found", async () => {
    const t = await twins();
    for (const path of ["/v1/inventory/fermentables/nope", "/v1/inventory/grains/f-a"]) {
      const res = await t.call("PATCH", path, t.v1, { body: { inventory: 1 } });
      expect([path, res.status, res.text]).toEqual([path, 404, "Not Found"]);
    }
  });

  test("v2 writes the other fields the same body carries", async () => {
    const t = await twins();
    expect((await t.call("PATCH", "/v2/inventory/fermentables/f-a", t.v2, { body: { name: "Renamed" } })).text).toBe("Updated");
    expect(JSON.parse((await t.store.get("new", "fermentables", "f-a")) as string).name).toBe("Renamed");
  });
});

describe("v2-only operations under /v1 answer as an unknown route does", () => {
  const recipe = { name: "New", batchSize: 20 };
  const refused: Array<[string, string, Doc | undefined]> = [
    ["POST", "/v1/recipes", recipe],
    ["PATCH", "/v1/recipes/r-00", { name: "Changed" }],
    ["DELETE", "/v1/recipes/r-00", undefined],
    ["PATCH", "/v1/recipes/", { name: "Changed" }],
    ["DELETE", "/v1/recipes/", undefined],
    ["POST", "/v1/batches", { name: "New", status: "Planning" }],
    ["DELETE", "/v1/batches/p-00", undefined],
    ["DELETE", "/v1/batches/", undefined],
    ["PUT", "/v1/batches/p-00", { status: "Brewing" }],
    ["POST", "/v1/batches/s-fermenting/readings", { sg: 1.01 }],
    ["DELETE", "/v1/batches/s-fermenting/brewtracker", undefined],
    ...(["fermentables", "hops", "miscs", "yeasts"] as const).flatMap((c): Array<[string, string, Doc | undefined]> => [
      ["POST", `/v1/inventory/${c}`, { name: "New", type: "Other" }],
      ["DELETE", `/v1/inventory/${c}/x`, undefined],
      ["DELETE", `/v1/inventory/${c}/`, undefined],
    ]),
    ["DELETE", "/v1/inventory/fermentables/f-a", undefined],
  ];
  for (const [method, path, body] of refused) {
    test(`${method} ${path} is 404 Not Found with a v1 key, a v2 key or none, and changes nothing`, async () => {
      const t = await twins();
      const unknown = await t.call("GET", "/v1/no-such-route", null);
      for (const who of [t.v1, t.v2, null]) {
        const res = await t.call(method, path, who, body === undefined ? {} : { body });
        expect([res.status, res.text, res.headers.get("content-type")]).toEqual([404, "Not Found", unknown.headers.get("content-type")]);
        expect([res.headers.get("www-authenticate"), res.headers.get("x-ratelimit-remaining")]).toEqual([null, null]);
      }
      expect((await t.call("GET", "/v1/recipes?limit=50", t.v1)).json()).toHaveLength(12);
      expect(await t.stored("recipe", "r-00")).toEqual(sortKeys((await t.call("GET", "/v2/recipes/r-00", t.v2)).json()));
      expect((await t.call("GET", "/v1/batches/p-00", t.v1)).status).toBe(200);
      expect((await t.call("GET", "/v1/inventory/fermentables/f-a", t.v1)).status).toBe(200);
      expect((await t.call("GET", "/v1/batches/s-fermenting/brewtracker", t.v1)).status).toBe(200);
    });
  }
});
