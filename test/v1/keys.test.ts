// Keys and scopes of version 1 (API document, Versioning: v1 scopes are read recipes, read batches,
// edit batches, read inventory, edit inventory; Authentication: 401 and 403). A key belongs to one API
// version (docs/decisions.md): a v1 key is 401 on /v2 and a v2 key is 401 on /v1. The five v1 scopes
// are stored under the v2 names they grant: recipes.read, batches.read, batches.write, inventory.read,
// inventory.write.
import { beforeAll, describe, expect, test } from "bun:test";
import type { Scope } from "../../src/lib/scopes.ts";
import { twins } from "./data.ts";

beforeAll(() => twins(), 30_000);

const V1_SCOPES: Scope[] = ["recipes.read", "batches.read", "batches.write", "inventory.read", "inventory.write"];

/** Every v1 endpoint with the scope it needs and its answer for a key that has it. */
const V1_ENDPOINTS: Array<[string, string, Scope, number, unknown?]> = [
  ["GET", "/v1/batches", "batches.read", 200],
  ["GET", "/v1/batches/p-00", "batches.read", 200],
  ["GET", "/v1/batches/s-fermenting/readings", "batches.read", 200],
  ["GET", "/v1/batches/s-fermenting/readings/last", "batches.read", 200],
  ["GET", "/v1/batches/s-fermenting/brewtracker", "batches.read", 200],
  ["PATCH", "/v1/batches/p-00", "batches.write", 200, { status: "Brewing" }],
  ["GET", "/v1/recipes", "recipes.read", 200],
  ["GET", "/v1/recipes/r-00", "recipes.read", 200],
  ...(["fermentables", "hops", "miscs", "yeasts"] as const).flatMap((c): Array<[string, string, Scope, number, unknown?]> => [
    ["GET", `/v1/inventory/${c}`, "inventory.read", 200],
    ["GET", `/v1/inventory/${c}/x`, "inventory.read", 404],
    ["PATCH", `/v1/inventory/${c}/x`, "inventory.write", 404, { inventory: 1 }],
  ]),
];

const V2_ENDPOINTS: Array<[string, string, unknown?]> = [
  ["GET", "/v2/batches"], ["GET", "/v2/batches/p-00"], ["PATCH", "/v2/batches/p-00", { status: "Brewing" }], ["DELETE", "/v2/batches/p-00"],
  ["GET", "/v2/batches/s-fermenting/readings"], ["GET", "/v2/batches/s-fermenting/readings/last"], ["GET", "/v2/batches/s-fermenting/brewtracker"],
  ["GET", "/v2/recipes"], ["GET", "/v2/recipes/r-00"], ["POST", "/v2/recipes", { name: "New" }], ["PATCH", "/v2/recipes/r-00", { name: "X" }],
  ["DELETE", "/v2/recipes/r-00"], ["GET", "/v2/inventory/hops"], ["GET", "/v2/inventory/hops/h-a"], ["POST", "/v2/inventory/hops", { name: "New" }],
  ["PATCH", "/v2/inventory/hops/h-a", { inventory: 1 }], ["DELETE", "/v2/inventory/hops/h-a"], ["PATCH", "/v2/batches/"],
];

const CHALLENGE = 'Basic realm="brewrecords", charset="UTF-8"';

describe("a key works on its own API version only", () => {
  test("a v1 key is 401 Unauthorized with a Basic challenge on every v2 endpoint, and changes nothing", async () => {
    const t = await twins();
    for (const [method, path, body] of V2_ENDPOINTS) {
      const res = await t.call(method, path, t.v1, body === undefined ? {} : { body });
      expect([method, path, res.status, res.text, res.headers.get("www-authenticate")]).toEqual([method, path, 401, "Unauthorized", CHALLENGE]);
    }
    // The v1 account's own records, which those calls named, are all still there and unchanged.
    expect((await t.stored("recipe", "r-00")) as object).toMatchObject({ name: "Z Ale" });
    expect((await t.stored("batch", "p-00")) as object).toMatchObject({ status: "Planning" });
    expect((await t.stored("hops", "h-a")) as object).toMatchObject({ inventory: -10 });
  });

  test("a v2 key is 401 Unauthorized with a Basic challenge on every v1 endpoint", async () => {
    const t = await twins();
    for (const [method, path, , , body] of V1_ENDPOINTS) {
      const res = await t.call(method, path, t.v2, body === undefined ? {} : { body });
      expect([method, path, res.status, res.text, res.headers.get("www-authenticate")]).toEqual([method, path, 401, "Unauthorized", CHALLENGE]);
    }
  });

  test("regenerating a v1 key as a v2 key moves the account from /v1 to /v2 at once", async () => {
    const t = await twins();
    const now = await t.account("old");
    expect((await t.call("GET", "/v1/batches", now)).status).toBe(401);
    expect((await t.call("GET", "/v1/batches", t.v1)).status).toBe(401);
    expect((await t.call("GET", "/v2/batches", now)).status).toBe(200);
  });
});

describe("the five v1 scopes", () => {
  for (const [method, path, scope, status, body] of V1_ENDPOINTS) {
    test(`${method} ${path} needs ${scope}: ${status} with it alone, 403 Forbidden with the four others`, async () => {
      const t = await twins();
      const only = await t.account("only", [scope], 1);
      const others = await t.account("others", V1_SCOPES.filter((s) => s !== scope), 1);
      await t.load("only", { batches: [{ _id: "p-00", name: "P", status: "Planning" }, { _id: "s-fermenting", name: "F", status: "Fermenting", readings: [{ time: 1, sg: 1.01 }], brewTracker: { name: "T", stages: [] } }], recipes: [{ _id: "r-00", name: "R" }] });
      const opts = body === undefined ? {} : { body };
      const allowed = await t.call(method, path, only, opts);
      expect([method, path, allowed.status]).toEqual([method, path, status]);
      const refused = await t.call(method, path, others, opts);
      expect([method, path, refused.status, refused.text]).toEqual([method, path, 403, "Forbidden"]);
    });
  }

  test("edit batches does not allow reading them, and read batches does not allow editing", async () => {
    const t = await twins();
    const editor = await t.account("editor", ["batches.write"], 1);
    const reader = await t.account("reader", ["batches.read"], 1);
    await t.load("editor", { batches: [{ _id: "b", name: "B", status: "Planning" }] });
    await t.load("reader", { batches: [{ _id: "b", name: "B", status: "Planning" }] });
    expect((await t.call("GET", "/v1/batches/b", editor)).status).toBe(403);
    expect((await t.call("PATCH", "/v1/batches/b", editor, { body: { status: "Brewing" } })).text).toBe("Updated");
    expect((await t.call("PATCH", "/v1/batches/b", reader, { body: { status: "Brewing" } })).status).toBe(403);
    expect((await t.call("GET", "/v1/batches/b", reader)).json().status).toBe("Planning");
  });
});
