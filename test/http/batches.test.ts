// Batch reads and delete (API document, Endpoints › Batches; Common read-one query parameter;
// Errors) and docs/decisions.md (Lists, Batches). One table per endpoint.
import { describe, expect, test } from "bun:test";
import { canonical, runTable, world, type Scenario, type World } from "./harness.ts";
import { OWNER_LIST, listEntry } from "./endpoints.ts";
import { BARE, ownerImport, PALE, PALE_READINGS, PALE_TRACKER, STOUT, type Doc } from "./fixtures.ts";

const makeWorld = () => world({ alice: { data: ownerImport() } });
const get = (url: string, rest: Partial<Scenario> & Pick<Scenario, "name" | "status">): Scenario => ({ method: "GET", url, as: "alice", ...rest });
const readingsByTime = [...PALE_READINGS].sort((a, b) => (a.time as number) - (b.time as number));
const PALE_DEFAULTS = listEntry(PALE);
const { name: _n, ...paleRecipeRest } = PALE.recipe as Doc;

describe("GET /v2/batches: status filter", () => {
  runTable(
    [
      get("/v2/batches", { name: "no status returns batches of every status", status: 200, json: OWNER_LIST }),
      get("/v2/batches?status=Planning", { name: "status=Planning returns the Planning batches only", status: 200, json: [listEntry(PALE)] }),
      get("/v2/batches?status=Fermenting", { name: "status=Fermenting returns the Fermenting batches only", status: 200, json: [listEntry(STOUT)] }),
      get("/v2/batches?status=Completed", { name: "status=Completed returns the Completed batches only", status: 200, json: [listEntry(BARE)] }),
      get("/v2/batches?status=Brewing", { name: "a status no batch has returns []", status: 200, text: "[]" }),
      get("/v2/batches?status=Archived&complete=True", { name: "the filter applies to complete lists too", status: 200, text: "[]" }),
      get("/v2/batches?status=", { name: "an empty status counts as absent (decisions, Lists)", status: 200, json: OWNER_LIST }),
      get("/v2/batches?status=Unknown", { name: "an unknown status is 400 Invalid status (decisions, Lists)", status: 400, text: "Invalid status" }),
      get("/v2/batches?status=planning", { name: "status values are exact: planning is 400 Invalid status", status: 400, text: "Invalid status" }),
    ],
    makeWorld,
  );
});

describe("GET /v2/batches/{id}", () => {
  runTable(
    [
      get("/v2/batches/b-pale", { name: "without include the whole document, keys sorted", status: 200, text: JSON.stringify(canonical(PALE)) }),
      get("/v2/batches/b-pale?include=", { name: "an empty include returns the whole document (decisions, Lists)", status: 200, text: JSON.stringify(canonical(PALE)) }),
      get("/v2/batches/b-pale?include=measuredOg", { name: "include adds the asked field to the default fields", status: 200, json: { ...PALE_DEFAULTS, measuredOg: 1.05 } }),
      get("/v2/batches/b-pale?include=measuredFg", { name: "an included null field is returned as null", status: 200, json: { ...PALE_DEFAULTS, measuredFg: null } }),
      get("/v2/batches/b-pale?include=recipe.fermentation,recipe.mash", {
        name: "include dot paths add nested fields beside recipe.name",
        status: 200,
        json: { ...PALE_DEFAULTS, recipe: { name: "House Pale", fermentation: paleRecipeRest.fermentation, mash: paleRecipeRest.mash } },
      }),
      get("/v2/batches/b-pale?include=recipe.fermentation%2Crecipe.mash", {
        name: "an encoded comma separates include paths too",
        status: 200,
        json: { ...PALE_DEFAULTS, recipe: { name: "House Pale", fermentation: paleRecipeRest.fermentation, mash: paleRecipeRest.mash } },
      }),
      get("/v2/batches/b-pale?include=recipe", { name: "include=recipe returns the whole recipe", status: 200, json: { ...PALE_DEFAULTS, recipe: PALE.recipe } }),
      get("/v2/batches/b-pale?include=cost.total,notes", {
        name: "include mixes dot paths and whole fields",
        status: 200,
        json: { ...PALE_DEFAULTS, cost: { total: 31.5 }, notes: PALE.notes },
      }),
      get("/v2/batches/b-pale?include=noSuchField", { name: "an included missing field is omitted", status: 200, json: PALE_DEFAULTS }),
      get("/v2/batches/b-bare?include=measuredOg", { name: "missing default fields are omitted, not null", status: 200, json: { _id: "b-bare", name: "Bare", status: "Completed", brewDate: BARE.brewDate } }),
      get("/v2/batches/b-stout?include=measuredOg", { name: "a null default field is kept", status: 200, json: { ...listEntry(STOUT), measuredOg: 1.042 } }),
      get("/v2/batches/no-such-id", { name: "an unknown id is 404 Not Found (decisions, HTTP)", status: 404, text: "Not Found" }),
      get("/v2/batches/no-such-id?include=name", { name: "an unknown id with include is 404 Not Found", status: 404, text: "Not Found" }),
    ],
    makeWorld,
  );
});

describe("GET /v2/batches/{id}/readings", () => {
  runTable(
    [
      get("/v2/batches/b-pale/readings", { name: "readings come ascending by time, whatever the import order", status: 200, text: JSON.stringify(canonical(readingsByTime)) }),
      get("/v2/batches/b-stout/readings", { name: "a batch imported with no readings answers []", status: 200, text: "[]" }),
      get("/v2/batches/b-bare/readings", { name: "a batch never given readings answers [] (decisions, Batches)", status: 200, text: "[]" }),
      get("/v2/batches/no-such-id/readings", { name: "an unknown batch is 404 Not Found", status: 404, text: "Not Found" }),
    ],
    makeWorld,
  );
});

describe("GET /v2/batches/{id}/readings/last", () => {
  runTable(
    [
      get("/v2/batches/b-pale/readings/last", { name: "the newest reading by time, though it was not imported last", status: 200, text: JSON.stringify(canonical(readingsByTime.at(-1))) }),
      get("/v2/batches/b-stout/readings/last", { name: "a batch with an empty readings list is 404", status: 404, text: "Not Found" }),
      get("/v2/batches/b-bare/readings/last", { name: "a batch never given readings is 404", status: 404, text: "Not Found" }),
      get("/v2/batches/no-such-id/readings/last", { name: "an unknown batch is 404", status: 404, text: "Not Found" }),
    ],
    makeWorld,
  );
});

describe("GET /v2/batches/{id}/brewtracker", () => {
  runTable(
    [
      get("/v2/batches/b-pale/brewtracker", { name: "the stored tracker, keys sorted", status: 200, text: JSON.stringify(canonical(PALE_TRACKER)) }),
      get("/v2/batches/b-stout/brewtracker", { name: "a batch without a tracker is 404", status: 404, text: "Not Found" }),
      get("/v2/batches/no-such-id/brewtracker", { name: "an unknown batch is 404", status: 404, text: "Not Found" }),
    ],
    makeWorld,
  );
});

describe("DELETE /v2/batches/{id}", () => {
  async function gone(w: World) {
    const a = w.accounts.alice;
    for (const [method, url] of [
      ["GET", "/v2/batches/b-pale"],
      ["DELETE", "/v2/batches/b-pale"],
      ["PATCH", "/v2/batches/b-pale?status=Brewing"],
      ["GET", "/v2/batches/b-pale/readings"],
      ["GET", "/v2/batches/b-pale/readings/last"],
      ["GET", "/v2/batches/b-pale/brewtracker"],
    ]) {
      const res = await w.h.call(method, url, a);
      expect([method, url, res.status, res.text]).toEqual([method, url, 404, "Not Found"]);
    }
    expect((await w.h.call("GET", "/v2/batches", a)).json()).toEqual([listEntry(BARE), listEntry(STOUT)]);
    // Readings and tracker are deleted with the batch (decisions, Batches), not only hidden.
    expect(await w.h.store.readings("alice", "b-pale")).toBeUndefined();
    expect(await w.h.store.brewTracker("alice", "b-pale")).toBeUndefined();
  }
  runTable(
    [
      { name: "Deleted, then every endpoint of the batch is 404 and its readings and tracker are gone", method: "DELETE", url: "/v2/batches/b-pale", as: "alice", status: 200, text: "Deleted", after: gone },
      { name: "an unknown id is 404 Not Found", method: "DELETE", url: "/v2/batches/no-such-id", as: "alice", status: 404, text: "Not Found" },
      {
        name: "deleting one batch leaves the others whole",
        method: "DELETE",
        url: "/v2/batches/b-stout",
        as: "alice",
        status: 200,
        text: "Deleted",
        after: async (w) => {
          expect(await w.h.store.get("alice", "batch", "b-pale")).toBe(JSON.stringify(canonical(PALE)));
          expect((await w.h.call("GET", "/v2/batches/b-pale/readings", w.accounts.alice)).json()).toEqual(readingsByTime);
        },
      },
    ],
    makeWorld,
  );
});

test("JSON answers are application/json and text answers text/plain, both UTF-8", async () => {
  const w = await makeWorld();
  const a = w.accounts.alice;
  for (const url of ["/v2/batches", "/v2/batches/b-pale", "/v2/batches/b-pale/readings", "/v2/batches/b-pale/readings/last", "/v2/batches/b-pale/brewtracker"]) {
    expect([url, (await w.h.call("GET", url, a)).headers.get("content-type")]).toEqual([url, "application/json; charset=utf-8"]);
  }
  for (const [method, url] of [["PATCH", "/v2/batches/b-pale?status=Brewing"], ["GET", "/v2/batches/none"], ["DELETE", "/v2/batches/b-pale"]]) {
    expect([url, (await w.h.call(method, url, a)).headers.get("content-type")]).toEqual([url, "text/plain; charset=utf-8"]);
  }
});
