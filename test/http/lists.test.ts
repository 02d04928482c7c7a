// Batch list parameters (API document, Endpoints › Common list query parameters; Batch Object: default
// fields; "List endpoints return properties in alphabetical key order") and docs/decisions.md (Lists).
import { describe, expect, test } from "bun:test";
import { canonical, keysSortedEverywhere, runTable, world, type Scenario } from "./harness.ts";
import { listEntry, OWNER_LIST } from "./endpoints.ts";
import { BARE, manyBatches, ownerImport, PALE, STOUT, type Doc } from "./fixtures.ts";

const makeWorld = () => world({ alice: { data: ownerImport() }, many: { data: manyBatches(55) } });
const list = (url: string, rest: Partial<Scenario> & Pick<Scenario, "name" | "status">): Scenario => ({ method: "GET", url, as: "alice", ...rest });
const textOf = (docs: unknown[]) => JSON.stringify(canonical(docs));
const ALL = [BARE, PALE, STOUT];
const withRecipe = (paths: string[]) =>
  ALL.map((d) => {
    const entry = listEntry(d);
    const recipe = d.recipe as Doc | undefined;
    if (recipe) entry.recipe = paths.length ? Object.fromEntries(["name", ...paths].map((p) => [p, recipe[p]])) : recipe;
    return entry;
  });

describe("entries and their fields", () => {
  runTable(
    [
      list("/v2/batches", { name: "default entries carry _id, name, batchNo, status, brewer, brewDate, recipe.name; missing ones omitted, keys sorted", status: 200, text: textOf(OWNER_LIST) }),
      list("/v2/batches?complete=True", { name: "complete=True returns whole documents, keys sorted at every level", status: 200, text: textOf(ALL) }),
      list("/v2/batches?complete=true", { name: "complete=true returns whole documents (decisions: any letter case)", status: 200, text: textOf(ALL) }),
      list("/v2/batches?complete=TRUE", { name: "complete=TRUE returns whole documents", status: 200, text: textOf(ALL) }),
      list("/v2/batches?complete=False", { name: "complete=False returns the default fields", status: 200, text: textOf(OWNER_LIST) }),
      list("/v2/batches?complete=yes", { name: "complete=yes is 400 Invalid complete (decisions)", status: 400, text: "Invalid complete" }),
      list("/v2/batches?include=recipe", { name: "include=recipe embeds the whole recipe", status: 200, text: textOf(withRecipe([])) }),
      list("/v2/batches?include=recipe.fermentation,recipe.mash", { name: "include=recipe.fermentation,recipe.mash adds those beside recipe.name", status: 200, text: textOf(withRecipe(["fermentation", "mash"])) }),
      list("/v2/batches?include=recipe.fermentation%2Crecipe.mash", { name: "an encoded comma (%2C) separates include paths too", status: 200, text: textOf(withRecipe(["fermentation", "mash"])) }),
      list("/v2/batches?include=", { name: "an empty include= gives the default fields", status: 200, text: textOf(OWNER_LIST) }),
      list("/v2/batches?include=recipe&complete=True", { name: "include does not trim a complete list", status: 200, text: textOf(ALL) }),
      list("/v2/batches?include=measuredOg,noSuchField", {
        name: "included fields are added where present and omitted where missing",
        status: 200,
        json: ALL.map((d) => ({ ...listEntry(d), ...("measuredOg" in d ? { measuredOg: d.measuredOg } : {}) })),
      }),
    ],
    makeWorld,
  );

  test("entries have keys in alphabetical order at every level, though imported unsorted", async () => {
    expect(keysSortedEverywhere(PALE)).toBe(false);
    const w = await makeWorld();
    for (const q of ["", "?complete=True", "?include=recipe", "?include=recipe.mash,notes,cost.total", "?order_by=name&order_by_direction=desc"]) {
      const body = (await w.h.call("GET", `/v2/batches${q}`, w.accounts.alice)).json();
      expect([q, body.length, keysSortedEverywhere(body)]).toEqual([q, 3, true]);
    }
  });
});

describe("limit", () => {
  const MANY = (manyBatches(55).batches as Doc[]).map(listEntry);
  const page = (url: string, name: string, from: number, to: number): Scenario => ({ ...list(url, { name, status: 200 }), as: "many", json: MANY.slice(from, to) });
  runTable(
    [
      page("/v2/batches", "no limit returns 10", 0, 10),
      page("/v2/batches?limit=", "an empty limit= counts as absent: 10", 0, 10),
      page("/v2/batches?limit=1", "limit=1 returns 1", 0, 1),
      page("/v2/batches?limit=50", "limit=50 returns 50", 0, 50),
      page("/v2/batches?limit=51", "limit=51 returns 50 (the maximum)", 0, 50),
      page("/v2/batches?limit=1000", "limit=1000 returns 50", 0, 50),
      page("/v2/batches?limit=50&start_after=m-049", "the page after 50 holds the last 5", 50, 55),
      ...["0", "-1", "abc", "1.5"].map((v) => list(`/v2/batches?limit=${v}`, { name: `limit=${v} is 400 Invalid limit`, status: 400, text: "Invalid limit" })),
    ],
    makeWorld,
  );
});

describe("order and paging parameters", () => {
  const order = (q: string, name: string, docs: Doc[]) => list(`/v2/batches${q}`, { name, status: 200, text: textOf(docs.map(listEntry)) });
  runTable(
    [
      order("", "the default order is _id ascending", [BARE, PALE, STOUT]),
      order("?order_by_direction=desc", "order_by_direction=desc reverses the _id order", [STOUT, PALE, BARE]),
      order("?order_by=brewDate", "order_by=brewDate orders by brew day", [BARE, PALE, STOUT]),
      order("?order_by=batchNo", "a batch without the field comes first in ascending order", [BARE, PALE, STOUT]),
      order("?order_by=batchNo&order_by_direction=desc", "and last in descending order", [STOUT, PALE, BARE]),
      order("?order_by=name", "order_by=name orders by name (B, D, P)", [BARE, STOUT, PALE]),
      order("?order_by=recipe.name", "order_by takes a dot path: recipe.name, missing first", [BARE, STOUT, PALE]),
      order("?order_by=recipe.name&order_by_direction=desc", "a dot path in descending order, missing last", [PALE, STOUT, BARE]),
      order("?start_after=b-c", "start_after with the default order needs no existing record", [PALE, STOUT]),
      order("?start_after=b-pale&limit=1", "start_after returns the items after that _id", [STOUT]),
      order("?order_by=name&start_after=b-stout", "start_after follows the requested order", [PALE]),
      list("/v2/batches?order_by_direction=up", { name: "order_by_direction=up is 400 Invalid order by direction", status: 400, text: "Invalid order by direction" }),
      list("/v2/batches?order_by_direction=ASC", { name: "order_by_direction is case-sensitive: ASC is 400", status: 400, text: "Invalid order by direction" }),
      list("/v2/batches?order_by=na%20me", { name: "an order_by that is no field path is 400 Invalid order by", status: 400, text: "Invalid order by" }),
      list("/v2/batches?order_by=name&start_after=no-such-id", { name: "an unknown start_after with another order is 400 Invalid start_after", status: 400, text: "Invalid start_after" }),
    ],
    makeWorld,
  );
});

describe("request forms that change nothing", () => {
  runTable(
    [
      list("/v2/batches/", { name: "a trailing slash on the list path is the list", status: 200, text: textOf(OWNER_LIST) }),
      list("/v2/batches/?status=Planning", { name: "a trailing slash with a query is the list with that query", status: 200, text: textOf([listEntry(PALE)]) }),
      list("/v2/batches/?limit=1&order_by_direction=desc", { name: "a trailing slash keeps limit and direction", status: 200, text: textOf([listEntry(STOUT)]) }),
      list("/v2/batches?foo=bar&page=3&offset=2", { name: "unknown query parameters are ignored (offset is version 1 only)", status: 200, text: textOf(OWNER_LIST) }),
      list("/v2/batches", { name: "Content-Type: application/json on a GET without body is served", status: 200, text: textOf(OWNER_LIST), headers: { "content-type": "application/json" } }),
    ],
    makeWorld,
  );
});
