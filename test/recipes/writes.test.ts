// Recipe create and delete, credentials and scopes, and the body errors of every recipe write
// (API document: Endpoints › Recipes; Authentication rules 5–6; Errors) and docs/decisions.md (HTTP).
import { describe, expect, test } from "bun:test";
import { basic } from "../helpers/app.ts";
import { BARE, paleAle } from "./fixtures.ts";
import { openWorld, runTable, type World } from "./harness.ts";

const makeWorld = () => openWorld({ alice: { recipes: [{ _id: "r-1", name: "One", og: 1.05 }] } });
const NEW_ID = /^\{"id":"[A-Za-z0-9]{20}"\}$/;
const JSON_TYPE = { "content-type": "application/json" };

/** The stored list of alice's recipe ids, to prove a refused request wrote nothing. */
async function ids(w: World): Promise<string[]> {
  return (await w.call("GET", "/v2/recipes?limit=50", "alice")).json().map((r: { _id: string }) => r._id);
}
const nothingStored = async (w: World) => expect(await ids(w)).toEqual(["r-1"]);
const unchanged = async (w: World) => expect(await w.read("r-1")).toEqual({ _id: "r-1", name: "One", og: 1.05 });

describe("POST /v2/recipes", () => {
  test("201 with exactly {\"id\": <20 alphanumerics>} as JSON, and the recipe reads back under that id", async () => {
    const w = await openWorld();
    const res = await w.call("POST", "/v2/recipes", "alice", { body: paleAle() });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.text).toMatch(NEW_ID);
    const doc = await w.read(res.json().id);
    expect([doc._id, doc.name]).toEqual([res.json().id, "Harbour Pale Ale"]);
  });

  test("a name alone is enough (\"minimum name\")", async () => {
    const w = await openWorld();
    const doc = await w.read(await w.create(BARE));
    expect([doc.name, doc._type]).toEqual(["Bare", "recipe"]);
  });

  test("two creates of the same body give two recipes with different ids", async () => {
    const w = await openWorld();
    const a = await w.create(BARE), b = await w.create(BARE);
    expect(a).not.toBe(b);
    expect((await w.call("GET", "/v2/recipes", "alice")).json().map((r: { _id: string }) => r._id).sort()).toEqual([a, b].sort());
  });

  test("the writer scope may create; the created recipe belongs to the writer's account only", async () => {
    const w = await openWorld();
    const id = await w.create(BARE, "writer");
    expect((await w.call("GET", `/v2/recipes/${id}`, "alice")).status).toBe(404);
    expect((await w.read(id, "writer"))._uid).toBe("writer");
  });

  runTable(
    [
      { name: "no body is 400 Missing body", method: "POST", url: "/v2/recipes", as: "alice", status: 400, text: "Missing body", after: nothingStored },
      { name: "an empty body with a JSON content type is 400 Missing body", method: "POST", url: "/v2/recipes", as: "alice", raw: "", headers: JSON_TYPE, status: 400, text: "Missing body", after: nothingStored },
      { name: "a whitespace body is 400 Missing body", method: "POST", url: "/v2/recipes", as: "alice", raw: " \n", headers: JSON_TYPE, status: 400, text: "Missing body", after: nothingStored },
      { name: "{} lacks name: 400 with one issue naming name", method: "POST", url: "/v2/recipes", as: "alice", body: {}, status: 400, json: [{ path: "name", rule: "required", message: "name is required" }], after: nothingStored },
      { name: "an empty name is 400 minLength", method: "POST", url: "/v2/recipes", as: "alice", body: { name: "" }, status: 400, json: [{ path: "name", rule: "minLength", message: "name must not be empty" }], after: nothingStored },
      { name: "a null name is 400 type", method: "POST", url: "/v2/recipes", as: "alice", body: { name: null }, status: 400, json: [{ path: "name", rule: "type", message: "name must be string" }], after: nothingStored },
      { name: "malformed JSON is 400 Invalid JSON (decisions, HTTP)", method: "POST", url: "/v2/recipes", as: "alice", raw: '{"name":', headers: JSON_TYPE, status: 400, text: "Invalid JSON", after: nothingStored },
      { name: "a JSON array is 400 Body must be a JSON object", method: "POST", url: "/v2/recipes", as: "alice", body: [{ name: "x" }], status: 400, text: "Body must be a JSON object", after: nothingStored },
      { name: "a JSON string is 400 Body must be a JSON object", method: "POST", url: "/v2/recipes", as: "alice", body: "x", status: 400, text: "Body must be a JSON object", after: nothingStored },
      { name: "a form body is 415 (decisions, HTTP)", method: "POST", url: "/v2/recipes", as: "alice", raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" }, status: 415, text: "Content-Type must be application/json", after: nothingStored },
      { name: "JSON without a content type is accepted", method: "POST", url: "/v2/recipes", as: "alice", raw: '{"name":"No type"}', status: 201, match: NEW_ID, after: async (w) => expect((await ids(w)).length).toBe(2) },
      { name: "a body over 1 MiB is 413 Payload Too Large (decisions, HTTP)", method: "POST", url: "/v2/recipes", as: "alice", body: { name: "big", notes: "x".repeat(1024 * 1024) }, status: 413, text: "Payload Too Large", after: nothingStored },
      {
        name: "several problems give one issue each, sorted by path",
        method: "POST", url: "/v2/recipes", as: "alice",
        body: { name: 7, type: "Brew in a bag", batchSize: 0.1, hops: [{ name: "Saaz", alpha: "4", time: 400 }], fermentables: "none" },
        status: 400,
        json: [
          { path: "batchSize", rule: "minimum", message: "batchSize must be >= 0.5" },
          { path: "fermentables", rule: "type", message: "fermentables must be array" },
          { path: "hops.0.alpha", rule: "type", message: "hops.0.alpha must be number" },
          { path: "hops.0.time", rule: "maximum", message: "hops.0.time must be <= 365" },
          { path: "name", rule: "type", message: "name must be string" },
          { path: "type", rule: "enum", message: 'type must be one of "Extract", "Partial Mash", "All Grain"' },
        ],
        after: nothingStored,
      },
    ],
    makeWorld,
  );
});

describe("DELETE /v2/recipes/{id}", () => {
  runTable(
    [
      {
        name: "200 Deleted, and the recipe is gone from read and list",
        method: "DELETE", url: "/v2/recipes/r-1", as: "alice", status: 200, text: "Deleted",
        after: async (w) => {
          expect((await w.call("GET", "/v2/recipes/r-1", "alice")).status).toBe(404);
          expect(await ids(w)).toEqual([]);
        },
      },
      {
        name: "a second delete is 404 Not Found",
        method: "DELETE", url: "/v2/recipes/r-1", as: "alice", status: 200, text: "Deleted",
        after: async (w) => expect([(await w.call("DELETE", "/v2/recipes/r-1", "alice")).text]).toEqual(["Not Found"]),
      },
      { name: "an unknown id is 404 Not Found", method: "DELETE", url: "/v2/recipes/nope", as: "alice", status: 404, text: "Not Found", after: nothingStored },
      { name: "another account cannot delete it: 404", method: "DELETE", url: "/v2/recipes/r-1", as: "bob", status: 404, text: "Not Found", after: unchanged },
      { name: "the write scope does not allow delete: 403 Forbidden (Authentication rule 5)", method: "DELETE", url: "/v2/recipes/r-1", as: "writer", status: 403, text: "Forbidden", after: unchanged },
      { name: "an empty id is 400 Missing ID", method: "DELETE", url: "/v2/recipes/", as: "alice", status: 400, text: "Missing ID", after: unchanged },
      { name: "a delete needs no body; one sent is ignored", method: "DELETE", url: "/v2/recipes/r-1", as: "alice", body: { name: "x" }, status: 200, text: "Deleted" },
    ],
    makeWorld,
  );
});

describe("credentials and scopes on every recipe endpoint", () => {
  // The success answer of each endpoint on the world's one recipe: exact text, or a pattern for a new id.
  const ENDPOINTS: Array<{ method: string; url: string; body?: unknown; scope: string; ok: number; okText: string | RegExp }> = [
    { method: "GET", url: "/v2/recipes", scope: "recipes.read", ok: 200, okText: '[{"_id":"r-1","name":"One"}]' },
    { method: "GET", url: "/v2/recipes/r-1", scope: "recipes.read", ok: 200, okText: '{"_id":"r-1","name":"One","og":1.05}' },
    { method: "POST", url: "/v2/recipes", body: { name: "x" }, scope: "recipes.write", ok: 201, okText: NEW_ID },
    { method: "PATCH", url: "/v2/recipes/r-1", body: { name: "x" }, scope: "recipes.write", ok: 200, okText: "Updated" },
    { method: "DELETE", url: "/v2/recipes/r-1", scope: "recipes.delete", ok: 200, okText: "Deleted" },
  ];
  for (const e of ENDPOINTS) {
    const who = (as: "reader" | "writer" | "batchesOnly") => ({ as, status: 403, text: "Forbidden" });
    const lacking = e.scope === "recipes.read" ? [] : e.scope === "recipes.write" ? (["reader"] as const) : (["reader", "writer"] as const);
    const refusals: Array<{ name: string; as: "alice" | "reader" | "writer" | "batchesOnly" | null; auth?: string; status: number; text: string }> = [
      { name: "no Authorization is 401 Unauthorized", as: null, status: 401, text: "Unauthorized" },
      { name: "a wrong key is 401", as: null, auth: basic("alice", "x".repeat(43)), status: 401, text: "Unauthorized" },
      { name: "a Bearer token is 401", as: null, auth: "Bearer abc", status: 401, text: "Unauthorized" },
      { name: "a key with batch scopes only is 403 Forbidden", ...who("batchesOnly") },
      ...lacking.map((as) => ({ name: `the ${as} key lacks ${e.scope}: 403 Forbidden`, ...who(as) })),
    ];
    for (const r of refusals) {
      test(`${e.method} ${e.url}: ${r.name}, and nothing changes`, async () => {
        const w = await makeWorld();
        const res = await w.call(e.method, e.url, r.as, { body: e.body, ...(r.auth ? { auth: r.auth } : {}) });
        expect([res.status, res.text]).toEqual([r.status, r.text]);
        if (r.status === 401) expect(res.headers.get("www-authenticate")).toBe('Basic realm="brewrecords", charset="UTF-8"');
        await nothingStored(w);
        await unchanged(w);
      });
    }
    test(`${e.method} ${e.url}: a key with ${e.scope} succeeds with ${e.ok}`, async () => {
      const w = await makeWorld();
      const res = await w.call(e.method, e.url, "alice", { body: e.body });
      expect(res.status).toBe(e.ok);
      if (typeof e.okText === "string") expect(res.text).toBe(e.okText);
      else expect(res.text).toMatch(e.okText);
    });
  }

  runTable(
    [
      { name: "401 comes before 404: an unknown id without credentials", method: "GET", url: "/v2/recipes/nope", as: null, status: 401, text: "Unauthorized" },
      { name: "403 comes before 404: the reader deleting an unknown id", method: "DELETE", url: "/v2/recipes/nope", as: "reader", status: 403, text: "Forbidden" },
      { name: "403 comes before 400: the reader posting no body", method: "POST", url: "/v2/recipes", as: "reader", status: 403, text: "Forbidden" },
      { name: "401 comes before 400: no credentials and an invalid body", method: "POST", url: "/v2/recipes", as: null, body: { name: "" }, status: 401, text: "Unauthorized" },
    ],
    makeWorld,
  );
});
