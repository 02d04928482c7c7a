import { describe, expect, test } from "bun:test";
import { lockAfter, SignInThrottle, type ThrottlePolicy } from "../../src/web/throttle.ts";

const USER: ThrottlePolicy = { freeFailures: 3, baseLockMs: 1000, maxLockMs: 8000, forgetAfterMs: 60_000 };
const ADDRESS: ThrottlePolicy = { freeFailures: 5, baseLockMs: 1000, maxLockMs: 8000, forgetAfterMs: 60_000 };

function throttle(maxEntries = 100) {
  const clock = { now: 1_000_000 };
  return { clock, t: new SignInThrottle(() => clock.now, { user: USER, address: ADDRESS }, maxEntries) };
}

describe("sign-in throttle", () => {
  test("lock time: none while free, then doubling from the base up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => lockAfter(USER, n))).toEqual([0, 0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  test("the free failures pass; the next one locks the user id from that address for one second", () => {
    const { clock, t } = throttle();
    for (let i = 0; i < 3; i++) {
      expect(t.waitMs("alice", "10.0.0.1")).toBe(0);
      t.failed("alice", "10.0.0.1");
    }
    expect(t.waitMs("alice", "10.0.0.1")).toBe(0);
    t.failed("alice", "10.0.0.1");
    expect(t.waitMs("alice", "10.0.0.1")).toBe(1000);
    expect(t.waitMs("ALICE", "10.0.0.1")).toBe(1000);
    // The lock is on the account from that address: the owner elsewhere is not locked out.
    expect(t.waitMs("alice", "10.0.0.2")).toBe(0);
    expect(t.waitMs("bob", "10.0.0.1")).toBe(0);
    clock.now += 400;
    expect(t.waitMs("alice", "10.0.0.1")).toBe(600);
    clock.now += 600;
    expect(t.waitMs("alice", "10.0.0.1")).toBe(0);
    t.failed("alice", "10.0.0.1");
    expect(t.waitMs("alice", "10.0.0.1")).toBe(2000);
  });

  test("a stranger cannot lock a user out: many wrong passwords from one address leave the owner's address free", () => {
    const { t } = throttle();
    for (let i = 0; i < 12; i++) t.failed("alice", "203.0.113.7");
    expect(t.waitMs("alice", "203.0.113.7")).toBeGreaterThan(0);
    expect(t.waitMs("alice", "192.168.1.20")).toBe(0);
  });

  test("guessing stays bounded per address whatever the user ids: the address locks", () => {
    const { t } = throttle();
    for (let i = 0; i < 6; i++) t.failed(i % 2 ? "alice" : "Alice ", "203.0.113.7");
    expect(t.waitMs("carol", "203.0.113.7")).toBe(1000);
  });

  test("many user ids from one address lock that address", () => {
    const { t } = throttle();
    for (let i = 0; i < 5; i++) t.failed(`user${i}`, "10.0.0.9");
    expect(t.waitMs("fresh", "10.0.0.9")).toBe(0);
    t.failed("user5", "10.0.0.9");
    expect(t.waitMs("fresh", "10.0.0.9")).toBe(1000);
    expect(t.waitMs("fresh", "10.0.0.8")).toBe(0);
  });

  test("a correct password clears the account's count but not the address's", () => {
    const { t } = throttle();
    for (let i = 0; i < 3; i++) t.failed("alice", "10.0.0.1");
    t.succeeded("alice", "10.0.0.1");
    t.failed("alice", "10.0.0.1");
    expect(t.waitMs("alice", "10.0.0.1")).toBe(0);
    // The address kept all five failures: the sixth locks it.
    t.failed("carol", "10.0.0.1");
    expect(t.waitMs("dave", "10.0.0.1")).toBe(0);
    t.failed("carol", "10.0.0.1");
    expect(t.waitMs("dave", "10.0.0.1")).toBe(1000);
  });

  test("failures older than the forget window start the count again", () => {
    const { clock, t } = throttle();
    for (let i = 0; i < 3; i++) t.failed("alice", "10.0.0.1");
    clock.now += 60_000;
    t.failed("alice", "10.0.0.1");
    expect(t.waitMs("alice", "10.0.0.1")).toBe(0);
  });

  test("memory is bounded: the oldest key is forgotten first", () => {
    const { t } = throttle(2);
    for (let i = 0; i < 4; i++) t.failed("alice", "a1");
    t.failed("bob", "a2");
    t.failed("carol", "a3");
    expect(t.waitMs("alice", "a9")).toBe(0);
  });
});
