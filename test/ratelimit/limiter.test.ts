// The limiter on its own, over the real SQLite store: fixed one-hour windows per account and API
// version, counts saved and loaded so that a restart keeps them (API document, Limits).
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { join } from "node:path";
import { HttpError } from "../../src/http/errors.ts";
import { leaseOf, RateLimiter, WINDOW_MS } from "../../src/http/rate-limit.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { tempDir } from "../helpers/process.ts";
import { HOUR0 } from "./clock.ts";

const dir = tempDir();
afterAll(() => dir.remove());
let files = 0;
const newPath = () => join(dir.path, `rates-${++files}.sqlite`);

/** Takes one call; the answer is the remaining count, or the Retry-After seconds of a 429. */
function take(l: RateLimiter, user: string, v: 1 | 2): { remaining: number } | { retryAfter: number } {
  try {
    return { remaining: l.take(user, v).remaining };
  } catch (e) {
    if (!(e instanceof HttpError) || e.status !== 429) throw e;
    return { retryAfter: Number(e.headers["retry-after"]) };
  }
}

describe("saved counts survive a new limiter on the same database", () => {
  test("37 v2 and 5 v1 calls released at a graceful stop and the database closed; a new limiter continues both counts exactly", async () => {
    const path = newPath();
    const now = { t: HOUR0 + 5000 };
    const store = SqliteStore.open(path);
    const first = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await first.load(store);
    for (let n = 0; n < 37; n++) first.take("alice", 2);
    for (let n = 0; n < 5; n++) first.take("alice", 1);
    await first.release(store);
    await store.close();
    const second = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await second.load(SqliteStore.open(path));
    expect([take(second, "alice", 2), take(second, "alice", 1), take(second, "bob", 2)]).toEqual([
      { remaining: 500 - 38 },
      { remaining: 150 - 6 },
      { remaining: 499 },
    ]);
  });

  test("a spent budget stays spent after the restart, with the same Retry-After", async () => {
    const path = newPath();
    const now = { t: HOUR0 + 600_000 };
    const store = SqliteStore.open(path);
    const first = new RateLimiter({ 1: 150, 2: 4 }, () => now.t);
    for (let n = 0; n < 4; n++) first.take("alice", 2);
    await first.save(store);
    const second = new RateLimiter({ 1: 150, 2: 4 }, () => now.t);
    await second.load(store);
    expect(take(second, "alice", 2)).toEqual({ retryAfter: 3000 });
  });

  test("counts saved in an earlier window are not loaded: the new hour starts from zero", async () => {
    const store = SqliteStore.open(newPath());
    const now = { t: HOUR0 + WINDOW_MS - 10 };
    const first = new RateLimiter({ 1: 150, 2: 4 }, () => now.t);
    for (let n = 0; n < 4; n++) first.take("alice", 2);
    await first.save(store);
    now.t = HOUR0 + WINDOW_MS + 10;
    const second = new RateLimiter({ 1: 150, 2: 4 }, () => now.t);
    await second.load(store);
    expect(take(second, "alice", 2)).toEqual({ remaining: 3 });
  });

  test("a save never lowers a stored count: a second limiter with fewer calls leaves the higher one", async () => {
    const store = SqliteStore.open(newPath());
    const now = { t: HOUR0 };
    const busy = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await busy.load(store);
    for (let n = 0; n < 20; n++) busy.take("alice", 2);
    await busy.release(store);
    const idle = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    idle.take("alice", 2);
    await idle.release(store);
    const reader = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await reader.load(store);
    expect(take(reader, "alice", 2)).toEqual({ remaining: 500 - 21 });
  });
});

describe("what the store holds is never less than what was answered", () => {
  test("each lease is in the store before the call that takes it is answered: a limiter dropped without a save leaves every call counted", async () => {
    const path = newPath();
    const now = { t: HOUR0 };
    const store = SqliteStore.open(path);
    const crashed = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await crashed.load(store);
    const taken = 61;
    for (let n = 0; n < taken; n++) {
      crashed.take("alice", 2);
      // Read back from another connection at once: the store already counts this call.
      const [row] = new Database(path).query("SELECT count FROM rate_counts WHERE user_id = 'alice'").all() as Array<{ count: number }>;
      expect(row.count).toBeGreaterThanOrEqual(n + 1);
      expect(row.count).toBeLessThanOrEqual(n + leaseOf(500));
    }
    const restarted = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await restarted.load(SqliteStore.open(path));
    const left = (take(restarted, "alice", 2) as { remaining: number }).remaining;
    expect(left).toBeLessThanOrEqual(500 - taken - 1);
    expect(left).toBeGreaterThanOrEqual(500 - taken - leaseOf(500));
  });

  test("a lease is a twentieth of the hour's budget, at least one call", () => {
    expect([leaseOf(500), leaseOf(150), leaseOf(10), leaseOf(1), leaseOf(1_000_000)]).toEqual([25, 8, 1, 1, 50_000]);
  });
});

describe("a save that fails loses nothing", () => {
  test("while another connection holds the write lock the save fails; the next save writes the counts", async () => {
    const path = newPath();
    const store = SqliteStore.open(path);
    store.db.exec("PRAGMA busy_timeout = 20");
    const now = { t: HOUR0 };
    const limiter = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    // Not loaded from the store: its leases wait for a save.
    for (let n = 0; n < 9; n++) limiter.take("alice", 2);
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    await expect(limiter.save(store)).rejects.toThrow();
    other.exec("COMMIT");
    other.close();
    // No call in between: the counts of the failed save must still be pending.
    await limiter.save(store);
    const reader = new RateLimiter({ 1: 150, 2: 500 }, () => now.t);
    await reader.load(SqliteStore.open(path));
    // The lease saved covers the nine calls: at least they are counted.
    expect(take(reader, "alice", 2)).toEqual({ remaining: 500 - leaseOf(500) - 1 });
  });
});

// A model of fixed windows written here: per (user, version, window) at most `limit` calls are
// accepted; a refusal's Retry-After is the seconds to the window's end, rounded up.
const opArb = fc.record({
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2 * WINDOW_MS })),
  user: fc.constantFrom("alice", "bob"),
  version: fc.constantFrom(1 as const, 2 as const),
  saveAndRestart: fc.boolean(),
});

describe("against a model of fixed windows", () => {
  test("any sequence of calls, clock moves and restarts gets exactly the model's answers", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.array(opArb, { maxLength: 60 }), async (l1, l2, ops) => {
        const store = SqliteStore.open(":memory:");
        const now = { t: HOUR0 };
        let limiter = new RateLimiter({ 1: l1, 2: l2 }, () => now.t);
        const used = new Map<string, number>();
        for (const op of ops) {
          now.t += op.advance;
          if (op.saveAndRestart) {
            await limiter.save(store);
            limiter = new RateLimiter({ 1: l1, 2: l2 }, () => now.t);
            await limiter.load(store);
          }
          const window = Math.floor((now.t - HOUR0) / WINDOW_MS);
          const key = `${op.user}/${op.version}/${window}`;
          const limit = op.version === 1 ? l1 : l2;
          const n = used.get(key) ?? 0;
          const retry = Math.ceil((HOUR0 + (window + 1) * WINDOW_MS - now.t) / 1000);
          const expected = n < limit ? { remaining: limit - n - 1 } : { retryAfter: retry };
          if (n < limit) used.set(key, n + 1);
          expect(take(limiter, op.user, op.version)).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});
