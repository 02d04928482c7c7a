// Recipe reads (API document: Endpoints › Recipes, GET rows; Common list query parameters; Common
// read-one query parameter; Recipe Object: default list fields; "List endpoints return properties in
// alphabetical key order"; Versioning) and docs/decisions.md (Lists, HTTP).
import { describe, expect, test } from "bun:test";
import { listImport } from "./fixtures.ts";
import { openWorld, runTable, type Doc, type Scenario } from "./harness.ts";

const RECIPES = listImport().recipes;
const byId = (id: string) => RECIPES.find((r) => r._id === id)!;
const makeWorld = () => openWorld({ alice: listImport(), bob: { recipes: [{ _id: "r-bob", name: "Bob's Bitter" }] } });
const get = (url: string, rest: Partial<Scenario> & Pick<Scenario, "name" | "status">): Scenario => ({ method: "GET", url, as: "alice", ...rest });

/** Recipe Object: "Default fields of a recipe list entry": `_id`, `name`, `author`, `type`, `equipment.name`, `style.name`. */
function entry(doc: Doc, extra: string[] = []): Doc {
  const out: Doc = {};
  for (const k of ["_id", "name", "author", "type", ...extra]) if (k in doc) out[k] = doc[k];
  if (doc.equipment) out.equipment = { name: doc.equipment.name };
  if (doc.style) out.style = { name: doc.style.name };
  return out;
}

/** Keys in alphabetical order at every level of a JSON text. */
function sortedEverywhere(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(sortedEverywhere);
  if (value === null || typeof value !== "object") return true;
  const keys = Object.keys(value);
  return keys.every((k, i) => i === 0 || keys[i - 1]! < k) && Object.values(value).every(sortedEverywhere);
}

const ALL_ENTRIES = RECIPES.map((r) => entry(r));

describe("GET /v2/recipes: entries", () => {
  runTable(
    [
      get("/v2/recipes", { name: "default entries are _id, name, author, type, equipment.name, style.name; the first 10 by _id", status: 200, json: ALL_ENTRIES.slice(0, 10) }),
      get("/v2/recipes?limit=50", { name: "a null author is kept; a missing style or equipment is omitted, not null", status: 200, json: ALL_ENTRIES }),
      get("/v2/recipes?complete=True&limit=2", { name: "complete=True returns whole documents", status: 200, json: [byId("r-01"), byId("r-02")] }),
      get("/v2/recipes?complete=False&limit=2", { name: "complete=False returns the default fields", status: 200, json: ALL_ENTRIES.slice(0, 2) }),
      get("/v2/recipes?include=fermentation,mash&limit=2", {
        name: "include=fermentation,mash adds both to the default fields (the document's example)",
        status: 200,
        json: ["r-01", "r-02"].map((id) => entry(byId(id), ["fermentation", "mash"])),
      }),
      get("/v2/recipes?include=equipment.batchSize,style.styleGuide&limit=3", {
        name: "include dot paths add nested fields beside equipment.name and style.name",
        status: 200,
        json: ["r-01", "r-02", "r-03"].map((id) => {
          const r = byId(id), e = entry(r);
          if (r.equipment) e.equipment.batchSize = r.equipment.batchSize;
          if (r.style) e.style.styleGuide = r.style.styleGuide;
          return e;
        }),
      }),
      get("/v2/recipes?include=noSuchField&limit=1", { name: "an included missing field is omitted", status: 200, json: ALL_ENTRIES.slice(0, 1) }),
      get("/v2/recipes?complete=maybe", { name: "complete=maybe is 400 Invalid complete (decisions, Lists)", status: 400, text: "Invalid complete" }),
    ],
    makeWorld,
  );

  test("entries have keys in alphabetical order at every level, though imported unsorted", async () => {
    const w = await makeWorld();
    for (const q of ["", "?complete=True", "?include=fermentation,mash", "?order_by=name"]) {
      const res = await w.call("GET", `/v2/recipes${q}`, "alice");
      expect([q, res.status, res.json().length, sortedEverywhere(res.json())]).toEqual([q, 200, 10, true]);
    }
  });

  test("a created recipe is listed with its default fields", async () => {
    const w = await openWorld();
    const id = await w.create({ name: "New", type: "Extract", author: "Cy", equipment: { name: "Pot", boilTime: 30 }, style: { name: "Mild", category: "British" }, notes: "x" });
    const res = await w.call("GET", "/v2/recipes", "alice");
    expect([res.status, res.json()]).toEqual([200, [{ _id: id, author: "Cy", equipment: { name: "Pot" }, name: "New", style: { name: "Mild" }, type: "Extract" }]]);
  });
});

describe("GET /v2/recipes: paging and order", () => {
  const names = (docs: Doc[]) => docs.map((d) => d.name);
  const byName = [...RECIPES].sort((a, b) => (a.name < b.name ? -1 : 1));
  runTable(
    [
      get("/v2/recipes?limit=3", { name: "limit=3 returns the first 3 by _id", status: 200, json: ALL_ENTRIES.slice(0, 3) }),
      get("/v2/recipes?limit=51", { name: "limit=51 is served as 50 (decisions, Lists)", status: 200, json: ALL_ENTRIES }),
      get("/v2/recipes?limit=0", { name: "limit=0 is 400 Invalid limit (decisions, Lists)", status: 400, text: "Invalid limit" }),
      get("/v2/recipes?start_after=r-10", { name: "start_after=r-10 returns the recipes after r-10", status: 200, json: ALL_ENTRIES.slice(10) }),
      get("/v2/recipes?start_after=r-05&limit=2", { name: "start_after with limit returns the next page", status: 200, json: ALL_ENTRIES.slice(5, 7) }),
      get("/v2/recipes?order_by_direction=desc&limit=3", { name: "order_by_direction=desc orders by _id descending", status: 200, json: [...ALL_ENTRIES].reverse().slice(0, 3) }),
      get("/v2/recipes?order_by=name&limit=50", { name: "order_by=name orders by name", status: 200, json: byName.map((r) => entry(r)) }),
      get("/v2/recipes?order_by=batchSize&order_by_direction=desc&limit=2&include=batchSize", {
        name: "order_by=batchSize desc puts the largest batch first",
        status: 200,
        json: [byId("r-12"), byId("r-11")].map((r) => entry(r, ["batchSize"])),
      }),
      get("/v2/recipes?order_by_direction=up", { name: "order_by_direction=up is 400 Invalid order by direction", status: 400, text: "Invalid order by direction" }),
      get("/v2/recipes?order_by_direction=DESC", { name: "order_by_direction is case-sensitive: DESC is 400 (decisions, Lists)", status: 400, text: "Invalid order by direction" }),
      get("/v2/recipes?order_by=name;drop", { name: "order_by that is not a field path is 400 Invalid order by (decisions, Lists)", status: 400, text: "Invalid order by" }),
    ],
    makeWorld,
  );

  test("order_by=name pages with start_after through every recipe exactly once", async () => {
    const w = await makeWorld();
    const seen: string[] = [];
    let after = "";
    for (let i = 0; i < 5; i++) {
      const res = await w.call("GET", `/v2/recipes?order_by=name&limit=5${after && `&start_after=${after}`}`, "alice");
      const page = res.json() as Doc[];
      if (page.length === 0) break;
      seen.push(...names(page));
      after = page.at(-1)!._id;
    }
    expect(seen).toEqual(names(byName));
  });
});

describe("GET /v2/recipes/{id}", () => {
  runTable(
    [
      get("/v2/recipes/r-01", { name: "without include the whole document", status: 200, json: byId("r-01") }),
      get("/v2/recipes/r-01?include=", { name: "an empty include= returns the whole document (decisions, Lists)", status: 200, json: byId("r-01") }),
      get("/v2/recipes/r-01?include=notes", { name: "include=notes returns the default fields plus notes", status: 200, json: entry(byId("r-01"), ["notes"]) }),
      get("/v2/recipes/r-01?include=fermentation,mash.steps", {
        name: "include mixes whole fields and dot paths",
        status: 200,
        json: { ...entry(byId("r-01"), ["fermentation"]), mash: { steps: byId("r-01").mash.steps } },
      }),
      get("/v2/recipes/r-03?include=batchSize", { name: "a recipe without a style has no style key", status: 200, json: entry(byId("r-03"), ["batchSize"]) }),
      get("/v2/recipes/no-such-id", { name: "an unknown id is 404 Not Found (decisions, HTTP)", status: 404, text: "Not Found" }),
      get("/v2/recipes/r-bob", { name: "another account's recipe is 404 Not Found (Authentication rule 5)", status: 404, text: "Not Found" }),
      { ...get("/v2/recipes/r-bob", { name: "its owner reads it", status: 200, json: { _id: "r-bob", name: "Bob's Bitter" } }), as: "bob" },
      { ...get("/v2/recipes", { name: "bob's list holds only bob's recipe", status: 200, json: [{ _id: "r-bob", name: "Bob's Bitter" }] }), as: "bob" },
    ],
    makeWorld,
  );

  test("ids are path segments: percent-encoded ids reach the record whose _id they spell", async () => {
    const w = await openWorld({ alice: { recipes: [{ _id: "r 1", name: "Space" }, { _id: "r-ü", name: "Umlaut" }] } });
    expect((await w.call("GET", "/v2/recipes/r%201", "alice")).json()).toEqual({ _id: "r 1", name: "Space" });
    expect((await w.call("PATCH", "/v2/recipes/r-%C3%BC", "alice", { body: { notes: "n" } })).text).toBe("Updated");
    expect((await w.call("DELETE", "/v2/recipes/r%201", "alice")).text).toBe("Deleted");
    expect((await w.call("GET", "/v2/recipes", "alice")).json()).toEqual([{ _id: "r-ü", name: "Umlaut" }]);
  });

  test("PUT and POST on one recipe are unknown routes: 404 Not Found (decisions, HTTP)", async () => {
    const w = await makeWorld();
    for (const method of ["PUT", "POST"]) expect([method, (await w.call(method, "/v2/recipes/r-01", "alice", { body: { name: "x" } })).text]).toEqual([method, "Not Found"]);
    expect((await w.read("r-01")).name).toBe("Wit");
  });

  test("the whole document is served with keys in alphabetical order at every level", async () => {
    const w = await makeWorld();
    const res = await w.call("GET", "/v2/recipes/r-05", "alice");
    expect([res.status, res.headers.get("content-type"), sortedEverywhere(res.json())]).toEqual([200, "application/json; charset=utf-8", true]);
  });
});

describe("version 1 reads recipes only (Versioning)", () => {
  runTable(
    [
      { ...get("/v1/recipes?limit=2", { name: "GET /v1/recipes lists default fields by _id", status: 200, json: ALL_ENTRIES.slice(0, 2) }), as: "v1" },
      { ...get("/v1/recipes?limit=2&offset=3", { name: "GET /v1/recipes pages with offset", status: 200, json: ALL_ENTRIES.slice(3, 5) }), as: "v1" },
      { ...get("/v1/recipes/r-02", { name: "GET /v1/recipes/{id} reads one", status: 200, json: byId("r-02") }), as: "v1" },
      { method: "POST", url: "/v1/recipes", as: "v1", body: { name: "x" }, name: "POST /v1/recipes is an unknown route: 404 (decisions, HTTP)", status: 404, text: "Not Found" },
      { method: "PATCH", url: "/v1/recipes/r-02", as: "v1", body: { name: "x" }, name: "PATCH /v1/recipes/{id} is an unknown route: 404", status: 404, text: "Not Found" },
      { method: "DELETE", url: "/v1/recipes/r-02", as: "v1", name: "DELETE /v1/recipes/{id} is an unknown route: 404", status: 404, text: "Not Found" },
      get("/v1/recipes", { name: "a version 2 key is refused on /v1 with 401 (decisions, Keys)", status: 401, text: "Unauthorized" }),
      { ...get("/v2/recipes", { name: "a version 1 key is refused on /v2 with 401", status: 401, text: "Unauthorized" }), as: "v1" },
    ],
    async () => {
      const w = await makeWorld();
      await w.h.load("alice-v1", listImport());
      return w;
    },
  );
});
