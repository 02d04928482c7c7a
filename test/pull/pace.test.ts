import { describe, expect, test } from "bun:test";
import { assumedBudget, backoffMs, budgetFromHeaders, delayBeforeCall, DOCUMENTED, finishEstimateMs, retryAfterMs, type Budget } from "../../src/pull/pace.ts";

// Pacing to the remote's rate limit (API document, Limits: 500 calls per hour per key, 429 with
// Retry-After), from the header styles in use (IETF draft, X-RateLimit-*).

const NOW = 1_750_000_000_000;
const headers = (h: Record<string, string>) => new Headers(h);
const budget = (remaining: number, resetInS: number, limit = 500): Budget => ({ limit, remaining, resetAt: NOW + resetInS * 1000, windowMs: 3_600_000 });

describe("budgetFromHeaders", () => {
  test("the IETF draft fields give limit, remaining, reset and window", () => {
    expect(budgetFromHeaders(headers({ "ratelimit-policy": '"v2";q=40;w=600', ratelimit: '"v2";r=12;t=300' }), NOW)).toEqual({
      limit: 40, remaining: 12, resetAt: NOW + 300_000, windowMs: 600_000,
    });
  });

  test("X-RateLimit-* with Reset in seconds from now", () => {
    expect(budgetFromHeaders(headers({ "x-ratelimit-limit": "500", "x-ratelimit-remaining": "7", "x-ratelimit-reset": "42" }), NOW)).toEqual({
      limit: 500, remaining: 7, resetAt: NOW + 42_000, windowMs: DOCUMENTED.windowMs,
    });
  });

  test("X-RateLimit-Reset as a Unix time in seconds (GitHub style) is taken as that time", () => {
    const reset = NOW / 1000 + 120;
    expect(budgetFromHeaders(headers({ "x-ratelimit-remaining": "3", "x-ratelimit-reset": String(reset) }), NOW)?.resetAt).toBe(NOW + 120_000);
  });

  test("the IETF fields win over X-RateLimit-* when both are sent", () => {
    const b = budgetFromHeaders(headers({ ratelimit: '"v2";r=5;t=10', "x-ratelimit-remaining": "99", "x-ratelimit-reset": "99" }), NOW);
    expect(b?.remaining).toBe(5);
    expect(b?.resetAt).toBe(NOW + 10_000);
  });

  test("without a limit, the documented 500 (or the remaining, if more) is assumed", () => {
    expect(budgetFromHeaders(headers({ "x-ratelimit-remaining": "3", "x-ratelimit-reset": "9" }), NOW)?.limit).toBe(500);
    expect(budgetFromHeaders(headers({ "x-ratelimit-remaining": "900", "x-ratelimit-reset": "9" }), NOW)?.limit).toBe(900);
  });

  test("no fields, or remaining without reset, or values that are not whole numbers give no budget", () => {
    expect(budgetFromHeaders(headers({}), NOW)).toBeUndefined();
    expect(budgetFromHeaders(headers({ "x-ratelimit-remaining": "3" }), NOW)).toBeUndefined();
    expect(budgetFromHeaders(headers({ "x-ratelimit-remaining": "-1", "x-ratelimit-reset": "9" }), NOW)).toBeUndefined();
    expect(budgetFromHeaders(headers({ "x-ratelimit-remaining": "3.5", "x-ratelimit-reset": "9" }), NOW)).toBeUndefined();
  });
});

describe("delayBeforeCall", () => {
  test("no wait while the calls still needed fit in what is left", () => {
    expect(delayBeforeCall(budget(10, 3000), 10, NOW)).toBe(0);
    expect(delayBeforeCall(undefined, 10_000, NOW)).toBe(0);
  });

  test("more calls needed than are left: what is left is spread evenly up to the reset", () => {
    expect(delayBeforeCall(budget(100, 3000), 101, NOW)).toBe(30_000);
    expect(delayBeforeCall(budget(3, 10), 500, NOW)).toBe(3334);
  });

  test("a spent budget waits until the reset", () => {
    expect(delayBeforeCall(budget(0, 75), 1, NOW)).toBe(75_000);
  });

  test("a budget whose reset has passed no longer holds the calls back", () => {
    expect(delayBeforeCall(budget(0, -1), 1, NOW)).toBe(0);
  });
});

describe("assumedBudget", () => {
  test("the documented 500 an hour, from the first call of the window, less the calls made", () => {
    expect(assumedBudget(12, NOW)).toEqual({ limit: 500, remaining: 488, resetAt: NOW + 3_600_000, windowMs: 3_600_000 });
    expect(assumedBudget(600, NOW).remaining).toBe(0);
  });
});

describe("retryAfterMs", () => {
  test("whole seconds, at least one", () => {
    expect(retryAfterMs("2", undefined, NOW)).toBe(2000);
    expect(retryAfterMs("0", undefined, NOW)).toBe(1000);
  });

  test("an HTTP date, at least a second from now", () => {
    expect(retryAfterMs(new Date(NOW + 90_000).toUTCString(), undefined, NOW)).toBe(90_000);
    expect(retryAfterMs(new Date(NOW - 90_000).toUTCString(), undefined, NOW)).toBe(1000);
  });

  test("missing or unreadable: until the known reset, else a minute", () => {
    expect(retryAfterMs(null, budget(0, 40), NOW)).toBe(40_000);
    expect(retryAfterMs("soon", undefined, NOW)).toBe(60_000);
  });
});

describe("backoffMs", () => {
  test("1 s, doubling, at most 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});

describe("finishEstimateMs", () => {
  test("calls that fit in the budget take their average time each", () => {
    expect(finishEstimateMs(budget(100, 3000), 40, NOW, 250)).toBe(10_000);
    expect(finishEstimateMs(budget(100, 3000), 0, NOW, 250)).toBe(0);
  });

  test("past the budget: the rest of this window, a window per further full budget, then the last calls", () => {
    // 10 left, 1200 needed at 500 an hour: this window (100 s), then 500 + 500 in two windows, 190 after.
    expect(finishEstimateMs(budget(10, 100), 1200, NOW, 100)).toBe(100_000 + 2 * 3_600_000 + 190 * 100);
    expect(finishEstimateMs(budget(10, 100), 510, NOW, 100)).toBe(100_000 + 500 * 100);
  });
});
