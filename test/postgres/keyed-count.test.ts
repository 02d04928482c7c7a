// On PostgreSQL a request's key is read and its call counted in one statement (countKeyedCall, src/http/auth.ts
// verifyCounted). These prove it answers as a key read followed by a count did (API document, Limits; Errors:
// 401 and 429): only an accepted key of the right API version is counted, 401 comes before 429 and 429 before
// 403, and calls made together each get their own place in the budget.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keyDigest } from "../../src/lib/keys.ts";
import { SCOPES } from "../../src/lib/scopes.ts";
import { keySecret } from "../../src/store/keys.ts";
import type { PostgresStore } from "../../src/store/postgres.ts";
import { basic } from "../helpers/app.ts";
import { HAVE_POSTGRES, storeApp, type StoreApp } from "../helpers/stores.ts";

const LIMIT = 6;
const WINDOW = Date.UTC(2024, 0, 1);
const remainingOf = (headers: Headers) => headers.get("x-ratelimit-remaining");

describe.skipIf(!HAVE_POSTGRES)("the key read and the rate count in one statement", () => {
  let h: StoreApp;
  let store: PostgresStore;

  beforeAll(async () => {
    h = await storeApp("postgres", { rateLimitV2PerHour: LIMIT, rateLimitV1PerHour: LIMIT });
    store = h.store as unknown as PostgresStore;
  });
  afterAll(() => h.close());

  test("countKeyedCall counts only the key's own digest for its own API version, and returns the key each time", async () => {
    const alice = await h.account("keyed-store");
    const digest = keyDigest(await keySecret(h.store), alice.key);
    const wrong = keyDigest(await keySecret(h.store), "A".repeat(43));
    const count = (version: 1 | 2, d: string, calls = 1) => store.countKeyedCall("keyed-store", version, WINDOW, d, calls);
    expect(await count(2, wrong)).toMatchObject({ key: { userId: "keyed-store", digest, apiVersion: 2 }, count: undefined });
    expect(await count(1, digest)).toMatchObject({ key: { digest, apiVersion: 2 }, count: undefined });
    expect((await count(2, digest, 3)).count).toBe(3);
    expect((await count(2, digest)).count).toBe(4);
    expect(await store.countKeyedCall("nobody", 2, WINDOW, digest, 1)).toEqual({ key: undefined, count: undefined });
    expect(await store.countKeyedCall("no\u0000body", 2, WINDOW, digest, 1)).toEqual({ key: undefined, count: undefined });
    expect(await store.loadRateCounts(WINDOW)).toEqual([{ userId: "keyed-store", apiVersion: 2, count: 4 }]);
  });

  test("wrong keys, unknown accounts and a key of the other API version are 401, without rate headers, and use nothing", async () => {
    const alice = await h.account("keyed-401");
    const refused = [basic("keyed-401", "A".repeat(43)), basic("nobody", alice.key), "Bearer abc"];
    for (const auth of refused) {
      const res = await h.call("GET", "/v2/batches", null, { auth });
      expect([res.status, res.text, remainingOf(res.headers), res.headers.get("ratelimit")]).toEqual([401, "Unauthorized", null, null]);
    }
    for (let n = 0; n < 3; n++) expect((await h.call("GET", "/v1/batches", alice)).status).toBe(401);
    expect(remainingOf((await h.call("GET", "/v2/batches", alice)).headers)).toBe(String(LIMIT - 1));
  });

  test(`${LIMIT * 3} calls at once with ${LIMIT} wrong keys among them: exactly ${LIMIT} answered, each with its own remaining, the rest 429`, async () => {
    const alice = await h.account("keyed-burst");
    const wrong = basic("keyed-burst", "B".repeat(43));
    const answers = await Promise.all(Array.from({ length: LIMIT * 3 }, (_, i) => h.call("GET", "/v2/batches", alice, i % 3 === 2 ? { auth: wrong } : {})));
    expect(answers.filter((a) => a.status === 401).length).toBe(LIMIT);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.map((a) => Number(remainingOf(a.headers))).sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(LIMIT);
    expect(refused.every((a) => a.text === "Too Many Requests" && Number(a.headers.get("retry-after")) >= 1 && remainingOf(a.headers) === "0")).toBe(true);
  });

  test("with the budget spent: a wrong key is 401, a key lacking the scope is 429 (not 403)", async () => {
    const reader = await h.account("keyed-order", SCOPES.filter((s) => s !== "batches.delete"));
    for (let n = 0; n < LIMIT; n++) expect((await h.call("GET", "/v2/batches", reader)).status).toBe(200);
    const wrong = await h.call("GET", "/v2/batches", null, { auth: basic("keyed-order", "C".repeat(43)) });
    expect([wrong.status, wrong.headers.get("retry-after")]).toEqual([401, null]);
    const spent = await h.call("DELETE", "/v2/batches/nope", reader);
    expect([spent.status, spent.text, remainingOf(spent.headers)]).toEqual([429, "Too Many Requests", "0"]);
  });

  test("a key lacking the scope is 403 and counted; a replaced key is 401 at its next call", async () => {
    const first = await h.account("keyed-scope", ["batches.read"]);
    const res = await h.call("DELETE", "/v2/batches/nope", first);
    expect([res.status, res.text, remainingOf(res.headers)]).toEqual([403, "Forbidden", String(LIMIT - 1)]);
    const second = await h.account("keyed-scope");
    expect((await h.call("GET", "/v2/batches", first)).status).toBe(401);
    expect(remainingOf((await h.call("GET", "/v2/batches", second)).headers)).toBe(String(LIMIT - 2));
  });
});
