// Common list query parameters (API document, Endpoints › Common list query parameters) and the
// choices of docs/decisions.md (Lists) where the document is silent.
import { describe, expect, test } from "bun:test";
import { HttpError } from "../../src/http/errors.ts";
import { parseBoolean, parseInclude, parseLimit, parseListRequest, parseListRequestFor } from "../../src/http/list-params.ts";

const q = (s: string) => new URLSearchParams(s);

/** The 400 a parser throws, as { status, body }; fails the test when it returns instead. */
function refusal(fn: () => unknown): { status: number; body: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, body: e.body };
    throw e;
  }
  throw new Error("expected a refusal, got a value");
}

describe("parseLimit", () => {
  const accepted: Array<[string, number]> = [
    ["", 10], // absent: the document's default
    ["limit=", 10], // empty counts as absent (decisions)
    ["limit=1", 1],
    ["limit=10", 10],
    ["limit=50", 50],
    ["limit=51", 50], // above the maximum is served as the maximum (decisions)
    ["limit=1000000", 50],
    ["limit=007", 7],
  ];
  for (const [query, limit] of accepted) {
    test(`"${query}" gives ${limit}`, () => expect(parseLimit(q(query))).toBe(limit));
  }
  for (const query of ["limit=0", "limit=-1", "limit=abc", "limit=1.5", "limit=1e1", "limit=%2B5", "limit=0x10", "limit=5abc", "limit=%20", "limit=%2012%20"]) {
    test(`"${query}" is 400 Invalid limit`, () => expect(refusal(() => parseLimit(q(query)))).toEqual({ status: 400, body: "Invalid limit" }));
  }
});

describe("parseBoolean", () => {
  const cases: Array<[string, boolean]> = [
    ["", false],
    ["complete=", false],
    ["complete=True", true],
    ["complete=true", true],
    ["complete=TRUE", true],
    ["complete=tRuE", true],
    ["complete=False", false],
    ["complete=false", false],
    ["complete=FALSE", false],
  ];
  for (const [query, value] of cases) {
    test(`"${query}" is ${value}`, () => expect(parseBoolean(q(query), "complete")).toBe(value));
  }
  for (const query of ["complete=yes", "complete=1", "complete=0", "complete=truee"]) {
    test(`"${query}" is 400 Invalid complete`, () =>
      expect(refusal(() => parseBoolean(q(query), "complete"))).toEqual({ status: 400, body: "Invalid complete" }));
  }
  test("another boolean parameter names itself in its error", () =>
    expect(refusal(() => parseBoolean(q("inventory_exists=maybe"), "inventory_exists"))).toEqual({ status: 400, body: "Invalid inventory_exists" }));
});

describe("parseInclude", () => {
  const cases: Array<[string, string[]]> = [
    ["", []],
    ["include=", []],
    ["include=recipe", ["recipe"]],
    ["include=recipe.fermentation,recipe.mash", ["recipe.fermentation", "recipe.mash"]],
    ["include=recipe.fermentation%2Crecipe.mash", ["recipe.fermentation", "recipe.mash"]],
    ["include=a,,b,%20,c%20", ["a", "b", "c"]],
    ["include=a&include=b,c", ["a", "b", "c"]], // repeated parameters are joined (decisions)
  ];
  for (const [query, paths] of cases) {
    test(`"${query}" gives ${JSON.stringify(paths)}`, () => expect(parseInclude(q(query))).toEqual(paths));
  }
});

describe("parseListRequest", () => {
  test("no parameters: limit 10, order by _id ascending, default fields", () => {
    expect(parseListRequest(q(""))).toEqual({
      complete: false,
      include: [],
      query: { limit: 10, startAfter: undefined, orderBy: "_id", desc: false, fields: "summary" },
    });
  });
  test("no parameters, per version, as parsing an empty value of each gives; the shared defaults cannot be changed", () => {
    const empty = q("limit=&start_after=&order_by=&order_by_direction=&include=&complete=&offset=");
    for (const version of [1, 2] as const) {
      const defaults = parseListRequestFor(version, q(""));
      expect(defaults).toEqual(parseListRequestFor(version, empty));
      expect(() => ((defaults.query as { limit: number }).limit = 50)).toThrow(TypeError);
      expect(() => defaults.include.push("notes")).toThrow(TypeError);
    }
    expect(parseListRequestFor(1, q("")).query).toEqual({ limit: 10, offset: 0, orderBy: "_id", desc: false, fields: "summary" });
  });
  test("every parameter given is carried into the query", () => {
    expect(parseListRequest(q("limit=5&start_after=abc&order_by=recipe.name&order_by_direction=desc&include=notes"))).toEqual({
      complete: false,
      include: ["notes"],
      query: { limit: 5, startAfter: "abc", orderBy: "recipe.name", desc: true, fields: "body" },
    });
  });
  test("complete=True returns whole documents and drops include (include applies when complete is false)", () => {
    expect(parseListRequest(q("complete=True&include=recipe"))).toEqual({
      complete: true,
      include: [],
      query: { limit: 10, startAfter: undefined, orderBy: "_id", desc: false, fields: "body" },
    });
  });
  test("empty start_after, order_by and order_by_direction count as absent", () => {
    expect(parseListRequest(q("start_after=&order_by=&order_by_direction=")).query).toEqual({
      limit: 10,
      startAfter: undefined,
      orderBy: "_id",
      desc: false,
      fields: "summary",
    });
  });
  test("order_by_direction=asc is ascending", () => expect(parseListRequest(q("order_by_direction=asc")).query.desc).toBe(false));

  const refused: Array<[string, string]> = [
    ["order_by_direction=up", "Invalid order by direction"],
    ["order_by_direction=ASC", "Invalid order by direction"], // exactly asc or desc (decisions)
    ["order_by_direction=Desc", "Invalid order by direction"],
    ["order_by_direction=%20", "Invalid order by direction"], // taken as sent: only an empty value is absent
    ["order_by_direction=%20desc", "Invalid order by direction"],
    ["order_by=na%20me", "Invalid order by"],
    ["order_by=name;drop", "Invalid order by"],
    ["order_by=recipe..name", "Invalid order by"],
    ["order_by=.name", "Invalid order by"],
    ["order_by=$.name", "Invalid order by"],
    ["order_by=1abc", "Invalid order by"],
    ["limit=0", "Invalid limit"],
    ["complete=maybe", "Invalid complete"],
  ];
  for (const [query, body] of refused) {
    test(`"${query}" is 400 ${body}`, () => expect(refusal(() => parseListRequest(q(query)))).toEqual({ status: 400, body }));
  }
});
