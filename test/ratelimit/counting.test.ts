// What a call against the budget is (API document, Limits; Errors: 401 and 429). A request that fails
// authentication is not counted and carries no rate headers; every authenticated request is counted
// whatever its answer (403, 404, 400 included), and its response tells the remaining budget. Order of
// the checks: 401, then 429, then 403 (src/http/auth.ts).
import { describe, expect, test } from "bun:test";
import { SCOPES } from "../../src/lib/scopes.ts";
import { basic, clockApp, expectedHeaders, HOUR0, rateHeadersOf } from "./clock.ts";

const NO_RATE = expectedHeaders(2, 0, 0, 0);
const none = Object.fromEntries(Object.keys(NO_RATE).map((k) => [k, null]));
const LEFT = 3600; // the clock stays at the first millisecond of the hour

describe("every authenticated call counts, whatever its answer, and says so in its headers", () => {
  const calls: Array<[string, string, string, number, string]> = [
    ["a list", "GET", "/v2/batches", 200, "[]"],
    ["a missing batch", "GET", "/v2/batches/nope", 404, "Not Found"],
    ["a bad list parameter", "GET", "/v2/batches?limit=0", 400, "Invalid limit"],
    ["a one-record operation without its id", "PATCH", "/v2/batches/", 400, "Missing ID"],
    ["an unknown inventory collection", "GET", "/v2/inventory/grains", 404, "Not Found"],
    ["a scope the key lacks", "DELETE", "/v2/batches/nope", 403, "Forbidden"],
    ["a PATCH of a missing batch", "PATCH", "/v2/batches/nope?status=Brewing", 404, "Not Found"],
  ];
  test("seven different answers use seven calls: remaining goes 9, 8, … 3", async () => {
    const h = await clockApp({ 1: 150, 2: 10 });
    const alice = await h.account("alice", SCOPES.filter((s) => s !== "batches.delete"));
    let remaining = 10;
    for (const [what, method, path, status, text] of calls) {
      const res = await h.call(method, path, alice.auth);
      remaining -= 1;
      expect([what, res.status, res.text]).toEqual([what, status, text]);
      expect([what, rateHeadersOf(res.headers)]).toEqual([what, expectedHeaders(2, 10, remaining, LEFT)]);
    }
  });
});

describe("failed authentication does not count", () => {
  test("a thousand calls with a wrong key, no key or another scheme leave the whole budget", async () => {
    const h = await clockApp({ 1: 150, 2: 5 });
    const alice = await h.account("alice");
    const wrong = [basic("alice", "A".repeat(43)), null, "Bearer abc", basic("nobody", alice.key)];
    for (let n = 0; n < 1000; n++) {
      const res = await h.call("GET", "/v2/batches", wrong[n % wrong.length]);
      expect([n, res.status, res.text]).toEqual([n, 401, "Unauthorized"]);
      expect(rateHeadersOf(res.headers)).toEqual(none);
    }
    const res = await h.call("GET", "/v2/batches", alice.auth);
    expect([res.status, res.headers.get("x-ratelimit-remaining")]).toEqual([200, "4"]);
  });

  test("with the budget spent, a wrong key is still 401 (not 429), and no rate headers", async () => {
    const h = await clockApp({ 1: 150, 2: 2 });
    const alice = await h.account("alice");
    for (let n = 0; n < 2; n++) await h.call("GET", "/v2/batches", alice.auth);
    const res = await h.call("GET", "/v2/batches", basic("alice", "B".repeat(43)));
    expect([res.status, res.text, res.headers.get("retry-after")]).toEqual([401, "Unauthorized", null]);
    expect(rateHeadersOf(res.headers)).toEqual(none);
  });

  test("a key of the other API version is a failed authentication: not counted on either budget", async () => {
    const h = await clockApp({ 1: 3, 2: 3 });
    const v2 = await h.account("alice");
    for (let n = 0; n < 10; n++) expect((await h.call("GET", "/v1/batches", v2.auth)).status).toBe(401);
    expect((await h.call("GET", "/v2/batches", v2.auth)).headers.get("x-ratelimit-remaining")).toBe("2");
  });
});

describe("unknown routes are not counted", () => {
  test("v2-only operations under /v1 and unknown paths answer 404 without rate headers and use nothing", async () => {
    const h = await clockApp({ 1: 150, 2: 3 });
    const alice = await h.account("alice");
    for (const [method, path] of [["GET", "/v2/nothing"], ["PUT", "/v2/batches"], ["POST", "/v1/batches"], ["DELETE", "/v1/batches/b"], ["GET", "/v3/batches"]]) {
      for (let n = 0; n < 5; n++) {
        const res = await h.call(method, path, alice.auth);
        expect([method, path, res.status, res.text]).toEqual([method, path, 404, "Not Found"]);
        expect(rateHeadersOf(res.headers)).toEqual(none);
      }
    }
    expect((await h.call("GET", "/v2/batches", alice.auth)).headers.get("x-ratelimit-remaining")).toBe("2");
  });
});

describe("a spent budget is refused before the scope check", () => {
  test("a key without the scope gets 403 while it has budget, then 429", async () => {
    const h = await clockApp({ 1: 150, 2: 2 });
    const reader = await h.account("reader", ["batches.read"]);
    for (let n = 0; n < 2; n++) expect((await h.call("DELETE", "/v2/batches/b", reader.auth)).status).toBe(403);
    const res = await h.call("DELETE", "/v2/batches/b", reader.auth);
    expect([res.status, res.text, res.headers.get("retry-after")]).toEqual([429, "Too Many Requests", "3600"]);
  });

  test("every endpoint of both versions is refused with 429 once the budget is spent", async () => {
    const h = await clockApp({ 1: 1, 2: 1 });
    const v2 = await h.account("alice");
    const v1 = await h.account("old", undefined, 1);
    expect((await h.call("GET", "/v2/recipes", v2.auth)).status).toBe(200);
    expect((await h.call("GET", "/v1/recipes", v1.auth)).status).toBe(200);
    const v2Paths: Array<[string, string]> = [
      ["GET", "/v2/batches"], ["GET", "/v2/batches/b"], ["PATCH", "/v2/batches/b"], ["DELETE", "/v2/batches/b"],
      ["GET", "/v2/batches/b/readings"], ["GET", "/v2/batches/b/readings/last"], ["GET", "/v2/batches/b/brewtracker"],
      ["GET", "/v2/recipes"], ["GET", "/v2/recipes/r"], ["POST", "/v2/recipes"], ["PATCH", "/v2/recipes/r"], ["DELETE", "/v2/recipes/r"],
      ["GET", "/v2/inventory/hops"], ["GET", "/v2/inventory/hops/h"], ["POST", "/v2/inventory/hops"],
      ["PATCH", "/v2/inventory/hops/h"], ["DELETE", "/v2/inventory/hops/h"],
    ];
    const v1Paths: Array<[string, string]> = [
      ["GET", "/v1/batches"], ["GET", "/v1/batches/b"], ["PATCH", "/v1/batches/b"], ["GET", "/v1/batches/b/readings"],
      ["GET", "/v1/batches/b/readings/last"], ["GET", "/v1/batches/b/brewtracker"], ["GET", "/v1/recipes"], ["GET", "/v1/recipes/r"],
      ["GET", "/v1/inventory/yeasts"], ["GET", "/v1/inventory/yeasts/y"], ["PATCH", "/v1/inventory/yeasts/y"],
    ];
    for (const [who, paths] of [[v2, v2Paths], [v1, v1Paths]] as const) {
      for (const [method, path] of paths) {
        const res = await h.call(method, path, who.auth);
        expect([method, path, res.status, res.text, res.headers.get("retry-after")]).toEqual([method, path, 429, "Too Many Requests", "3600"]);
      }
    }
    expect(h.clock.now).toBe(HOUR0);
  });
});
