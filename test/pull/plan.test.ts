import { describe, expect, test } from "bun:test";
import { baseUrl, HOSTED_BASE_URL, keyFromInput, parsePullArgs } from "../../src/pull/options.ts";
import { callsStillNeeded, isLastPage, listPath, needsChildren, parsePage, parseReadings, parseTracker, readingsPath, trackerPath } from "../../src/pull/plan.ts";

// The paging plan (API document, Endpoints: list parameters, batches' readings and brew tracker) and the
// command line of `pull`.

describe("the paging plan", () => {
  test("every list is read whole with complete=True, 50 at a time, after the last _id of the page before", () => {
    expect(listPath("batch")).toBe("/v2/batches?complete=True&limit=50");
    expect(listPath("recipe", "Rc49")).toBe("/v2/recipes?complete=True&limit=50&start_after=Rc49");
    expect(listPath("miscs", "a b&c")).toBe("/v2/inventory/miscs?complete=True&limit=50&start_after=a+b%26c");
  });

  test("a page of fewer than 50 is the last", () => {
    expect(isLastPage(49)).toBe(true);
    expect(isLastPage(0)).toBe(true);
    expect(isLastPage(50)).toBe(false);
  });

  test("a batch's readings and tracker paths encode its id", () => {
    expect(readingsPath("a/b")).toBe("/v2/batches/a%2Fb/readings");
    expect(trackerPath("X1")).toBe("/v2/batches/X1/brewtracker");
  });

  test("readings and tracker are read for a batch changed there, an active one, or all with --full", () => {
    expect(needsChildren({ status: "Completed" }, true, false)).toBe(true);
    for (const status of ["Brewing", "Fermenting", "Conditioning"]) expect(needsChildren({ status }, false, false)).toBe(true);
    for (const status of ["Planning", "Completed", "Archived"]) expect(needsChildren({ status }, false, false)).toBe(false);
    expect(needsChildren({ status: "Archived" }, false, true)).toBe(true);
  });

  test("calls still needed: a page for each kind not listed, two for each batch left", () => {
    expect(callsStillNeeded(6, 0)).toBe(6);
    expect(callsStillNeeded(0, 12)).toBe(24);
  });

  test("a page is an array of objects with a string _id; anything else says what it is", () => {
    expect(parsePage('[{"_id":"a","n":1}]')).toEqual([{ _id: "a", n: 1 }]);
    expect(parsePage("[]")).toEqual([]);
    expect(parsePage("<html>")).toBe("the body is not JSON");
    expect(parsePage('{"_id":"a"}')).toBe("the body is not a JSON array");
    expect(parsePage('[{"_id":"a"},{"name":"b"}]')).toBe("element 1 is not an object with an _id");
    expect(parsePage('[{"_id":""}]')).toBe("element 0 is not an object with an _id");
  });

  test("readings are an array of objects; a tracker is an object", () => {
    expect(parseReadings('[{"time":1}]')).toEqual([{ time: 1 }]);
    expect(parseReadings("[1]")).toBe("the readings are not an array of objects");
    expect(parseTracker("{}")).toEqual({});
    expect(parseTracker("[]")).toBe("the brew tracker is not a JSON object");
    expect(parseTracker("nope")).toBe("the brew tracker is not JSON");
  });
});

describe("the command line", () => {
  test("the defaults: the hosted service's address, 5 retries, nothing pruned", () => {
    expect(parsePullArgs(["alice", "--user-id", "u1"])).toEqual({
      localUser: "alice", from: HOSTED_BASE_URL, remoteUser: "u1", apiKey: undefined, prune: false, full: false, retries: 5, state: undefined, newSource: false,
    });
    expect(HOSTED_BASE_URL).toBe("https://api.brewfather.app");
  });

  test("every option in any order", () => {
    expect(parsePullArgs(["--prune", "--api-key", "k", "alice", "--full", "--user-id", "u1", "--new-source", "--retries", "0", "--state", "s.json", "--from", "https://brew.example.org/"])).toEqual({
      localUser: "alice", from: "https://brew.example.org", remoteUser: "u1", apiKey: "k", prune: true, full: true, retries: 0, state: "s.json", newSource: true,
    });
  });

  const refused: Array<[string[], string]> = [
    [["--user-id", "u"], "missing <userId> (the account here)"],
    [["a", "b", "--user-id", "u"], "one <userId> expected, got a b"],
    [["a"], "missing --user-id (the user id shown beside the API key on the remote)"],
    [["a", "--user-id"], "--user-id needs a value"],
    [["a", "--user-id", "--prune"], "--user-id needs a value"],
    [["a", "--user-id", "u:x"], "--user-id cannot contain a colon"],
    [["a", "--user-id", "u", "--user-id", "v"], "--user-id given twice"],
    [["a", "--user-id", "u", "--retries", "-1"], "--retries must be a whole number from 0 to 99"],
    [["a", "--user-id", "u", "--retries", "100"], "--retries must be a whole number from 0 to 99"],
    [["a", "--user-id", "u", "--dry-run"], "unknown option --dry-run"],
  ];
  for (const [args, error] of refused) {
    test(`${JSON.stringify(args)} is refused: ${error}`, () => {
      expect(parsePullArgs(args)).toEqual({ error });
    });
  }

  test("the key goes over https, or plain http to this machine only", () => {
    expect(baseUrl("https://api.brewfather.app")).toBe("https://api.brewfather.app");
    expect(baseUrl("http://127.0.0.1:3000/")).toBe("http://127.0.0.1:3000");
    expect(baseUrl("http://[::1]:3000")).toBe("http://[::1]:3000");
    expect(baseUrl("http://localhost:3000/base/")).toBe("http://localhost:3000/base");
    expect(baseUrl("http://192.168.1.5:3000")).toEqual({ error: expect.stringContaining("the API key is sent over https:// only") });
    expect(baseUrl("ftp://example.org")).toEqual({ error: expect.stringContaining("https:// only") });
    expect(baseUrl("api.brewfather.app")).toEqual({ error: "--from: not a URL: api.brewfather.app" });
    expect(baseUrl("https://u:p@example.org")).toEqual({ error: expect.stringContaining("without query, fragment or credentials") });
    expect(baseUrl("https://example.org/?x=1")).toEqual({ error: expect.stringContaining("without query") });
  });

  test("a key on standard input: its first line, without spaces or line end", () => {
    expect(keyFromInput("  abc \r\nsecond")).toBe("abc");
    expect(keyFromInput("")).toBe("");
  });
});
