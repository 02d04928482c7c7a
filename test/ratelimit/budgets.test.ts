// Whose budget a call uses (API document, Limits: "per API key"; Versioning: 150 calls per hour on
// version 1, 500 on version 2). One key per account, so this server counts per account and API
// version: regenerating the key keeps the account's count, and v1 and v2 are counted apart.
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { testApp } from "../helpers/app.ts";
import { clockApp, HOUR0 } from "./clock.ts";

const spend = async (h: Awaited<ReturnType<typeof clockApp>>, auth: string, path: string, n: number) => {
  for (let i = 0; i < n; i++) expect((await h.call("GET", path, auth)).status).toBe(200);
};

describe("regenerating the key does not reset the budget", () => {
  test("after 500 calls a new v2 key is refused with 429 and the old key with 401", async () => {
    const h = await clockApp();
    const first = await h.account("alice");
    await spend(h, first.auth, "/v2/batches", 500);
    const second = await h.account("alice");
    expect((await h.call("GET", "/v2/batches", second.auth)).status).toBe(429);
    expect((await h.call("GET", "/v2/batches", first.auth)).status).toBe(401);
  });

  test("a new key continues the count where the old one stopped", async () => {
    const h = await clockApp({ 1: 150, 2: 10 });
    await spend(h, (await h.account("alice")).auth, "/v2/batches", 4);
    const res = await h.call("GET", "/v2/batches", (await h.account("alice", ["batches.read"])).auth);
    expect([res.status, res.headers.get("x-ratelimit-remaining")]).toEqual([200, "5"]);
  });
});

describe("v1 and v2 budgets are separate", () => {
  test("with the v2 budget spent, a v1 key of the same account has its 150 calls; back on v2 it is still spent", async () => {
    const h = await clockApp();
    await spend(h, (await h.account("alice")).auth, "/v2/batches", 500);
    const v1 = await h.account("alice", undefined, 1);
    await spend(h, v1.auth, "/v1/batches", 150);
    expect((await h.call("GET", "/v1/batches", v1.auth)).status).toBe(429);
    const v2 = await h.account("alice");
    expect((await h.call("GET", "/v2/batches", v2.auth)).status).toBe(429);
  });

  test("v1 calls do not use the v2 budget", async () => {
    const h = await clockApp({ 1: 150, 2: 500 });
    await spend(h, (await h.account("alice", undefined, 1)).auth, "/v1/recipes", 30);
    const res = await h.call("GET", "/v2/recipes", (await h.account("alice")).auth);
    expect([res.status, res.headers.get("x-ratelimit-remaining")]).toEqual([200, "499"]);
  });
});

describe("each account has its own budget", () => {
  test("alice's spent budget leaves bob's whole", async () => {
    const h = await clockApp({ 1: 150, 2: 3 });
    await spend(h, (await h.account("alice")).auth, "/v2/batches", 3);
    const bob = await h.account("bob");
    const res = await h.call("GET", "/v2/batches", bob.auth);
    expect([res.status, res.headers.get("x-ratelimit-remaining")]).toEqual([200, "2"]);
    expect(h.clock.now).toBe(HOUR0);
  });
});

describe("limits come from the configuration", () => {
  test("by default 500 on v2 and 150 on v1", async () => {
    const h = await testApp();
    const v2 = await h.call("GET", "/v2/batches", await h.account("alice"));
    const v1 = await h.call("GET", "/v1/batches", await h.account("old", undefined, 1));
    expect([v2.headers.get("x-ratelimit-limit"), v1.headers.get("x-ratelimit-limit")]).toEqual(["500", "150"]);
    expect([v2.headers.get("ratelimit-policy"), v1.headers.get("ratelimit-policy")]).toEqual(['"v2";q=500;w=3600', '"v1";q=150;w=3600']);
  });

  test("RATE_LIMIT_V2_PER_HOUR and RATE_LIMIT_V1_PER_HOUR set them", async () => {
    const config = loadConfig({ DEMO: "0", RATE_LIMIT_V2_PER_HOUR: "7", RATE_LIMIT_V1_PER_HOUR: "3" });
    const h = await testApp({ rateLimitV2PerHour: config.rateLimitV2PerHour, rateLimitV1PerHour: config.rateLimitV1PerHour });
    const v2 = await h.call("GET", "/v2/batches", await h.account("alice"));
    const v1 = await h.call("GET", "/v1/batches", await h.account("old", undefined, 1));
    expect([v2.headers.get("x-ratelimit-limit"), v1.headers.get("x-ratelimit-limit")]).toEqual(["7", "3"]);
  });

  test("a limit that is not a whole number from 1 is refused at start, naming the variable", () => {
    for (const bad of ["0", "-5", "ten", "1.5"]) {
      expect(() => loadConfig({ RATE_LIMIT_V1_PER_HOUR: bad })).toThrow(`RATE_LIMIT_V1_PER_HOUR must be a whole number from 1 to 1000000000, got "${bad}"`);
    }
  });
});
