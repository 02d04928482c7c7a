// Rate limit (API document, Limits: "500 calls per hour per API key; exceeding gives 429 with
// `Retry-After`"; Errors: 429). This server counts in fixed one-hour windows aligned to the clock's
// hours, per account and API version; `Retry-After` is the whole seconds until the window ends, never 0.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { clockApp, expectedHeaders, HOUR0, rateHeadersOf, WINDOW_MS } from "./clock.ts";

// 20 min 34.567 s into the hour: 2365.433 s are left, so Retry-After rounds up to 2366.
const INTO = 1_234_567;
const LEFT_S = 2366;

describe("the 501st v2 call in a window", () => {
  test("calls 1 to 500 are 200, each saying how many remain; the 501st is 429 with Retry-After 2366", async () => {
    const h = await clockApp();
    const alice = await h.account("alice");
    h.clock.now = HOUR0 + INTO;
    for (let n = 1; n <= 500; n++) {
      const res = await h.call("GET", "/v2/batches", alice.auth);
      expect([n, res.status, res.text]).toEqual([n, 200, "[]"]);
      expect(rateHeadersOf(res.headers)).toEqual(expectedHeaders(2, 500, 500 - n, LEFT_S));
    }
    const res = await h.call("GET", "/v2/batches", alice.auth);
    expect({ status: res.status, text: res.text }).toEqual({ status: 429, text: "Too Many Requests" });
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("retry-after")).toBe(String(LEFT_S));
    expect(rateHeadersOf(res.headers)).toEqual(expectedHeaders(2, 500, 0, LEFT_S));
  });

  test("a refused call uses nothing: later calls in the window are refused too, with Retry-After counting down", async () => {
    const h = await clockApp({ 1: 150, 2: 500 });
    const alice = await h.account("alice");
    h.clock.now = HOUR0 + INTO;
    for (let n = 0; n < 500; n++) await h.call("GET", "/v2/batches", alice.auth);
    for (const [after, retry] of [[0, 2366], [433, 2365], [434, 2365], [1433, 2364], [2_365_000, 1], [2_365_432, 1]]) {
      h.clock.now = HOUR0 + INTO + after;
      const res = await h.call("GET", "/v2/batches", alice.auth);
      expect([after, res.status, res.headers.get("retry-after")]).toEqual([after, 429, String(retry)]);
    }
  });

  test("after waiting Retry-After seconds the next call is accepted with the full budget back", async () => {
    const h = await clockApp();
    const alice = await h.account("alice");
    h.clock.now = HOUR0 + INTO;
    for (let n = 0; n < 500; n++) await h.call("GET", "/v2/batches", alice.auth);
    const refused = await h.call("GET", "/v2/batches", alice.auth);
    h.clock.now += Number(refused.headers.get("retry-after")) * 1000;
    const res = await h.call("GET", "/v2/batches", alice.auth);
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "[]" });
    // 0.567 s into the next hour: 3599.433 s are left, rounded up.
    expect(rateHeadersOf(res.headers)).toEqual(expectedHeaders(2, 500, 499, 3600));
  });

  test("Retry-After is never 0: 1 ms before the window ends it is 1, and at the hour the call passes", async () => {
    const h = await clockApp({ 1: 150, 2: 3 });
    const alice = await h.account("alice");
    h.clock.now = HOUR0 + WINDOW_MS - 1;
    for (let n = 0; n < 3; n++) expect((await h.call("GET", "/v2/batches", alice.auth)).status).toBe(200);
    const last = await h.call("GET", "/v2/batches", alice.auth);
    expect([last.status, last.headers.get("retry-after"), last.headers.get("x-ratelimit-reset")]).toEqual([429, "1", "1"]);
    h.clock.now = HOUR0 + WINDOW_MS;
    const next = await h.call("GET", "/v2/batches", alice.auth);
    expect(next.status).toBe(200);
    expect(rateHeadersOf(next.headers)).toEqual(expectedHeaders(2, 3, 2, 3600));
  });

  test("at the first millisecond of a window, Retry-After is the whole hour: 3600", async () => {
    const h = await clockApp({ 1: 150, 2: 1 });
    const alice = await h.account("alice");
    expect((await h.call("GET", "/v2/batches", alice.auth)).status).toBe(200);
    const res = await h.call("GET", "/v2/batches", alice.auth);
    expect([res.status, res.headers.get("retry-after")]).toEqual([429, "3600"]);
  });

  test("the 151st v1 call is 429 with Retry-After and the v1 policy in the headers", async () => {
    const h = await clockApp();
    const old = await h.account("old", undefined, 1);
    h.clock.now = HOUR0 + INTO;
    for (let n = 1; n <= 150; n++) {
      const res = await h.call("GET", "/v1/batches", old.auth);
      expect([n, res.status]).toEqual([n, 200]);
      expect(rateHeadersOf(res.headers)).toEqual(expectedHeaders(1, 150, 150 - n, LEFT_S));
    }
    const res = await h.call("GET", "/v1/batches", old.auth);
    expect({ status: res.status, text: res.text, retry: res.headers.get("retry-after") }).toEqual({
      status: 429,
      text: "Too Many Requests",
      retry: String(LEFT_S),
    });
    expect(rateHeadersOf(res.headers)).toEqual(expectedHeaders(1, 150, 0, LEFT_S));
  });
});

describe("Retry-After, for any moment of the window", () => {
  test("it is the least whole number of seconds that is enough: one second less is still refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: WINDOW_MS - 1 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 5 }), async (into, limit, hours) => {
        const h = await clockApp({ 1: 150, 2: limit });
        const alice = await h.account("alice");
        const at = HOUR0 + hours * WINDOW_MS + into;
        h.clock.now = at;
        for (let n = 0; n < limit; n++) expect((await h.call("GET", "/v2/batches", alice.auth)).status).toBe(200);
        const refused = await h.call("GET", "/v2/batches", alice.auth);
        const retry = Number(refused.headers.get("retry-after"));
        expect([refused.status, retry]).toEqual([429, Math.ceil((WINDOW_MS - into) / 1000)]);
        expect(retry).toBeGreaterThanOrEqual(1);
        if (retry > 1) {
          h.clock.now = at + (retry - 1) * 1000;
          expect((await h.call("GET", "/v2/batches", alice.auth)).status).toBe(429);
        }
        h.clock.now = at + retry * 1000;
        const passed = await h.call("GET", "/v2/batches", alice.auth);
        expect([passed.status, passed.headers.get("x-ratelimit-remaining")]).toEqual([200, String(limit - 1)]);
      }),
      { numRuns: 60 },
    );
  });
});
