// Failed sign-ins slow the next attempt down, counted per user id and client address together
// (guessing one account's password from one place) and per client address (trying many accounts, or
// one account, from one place). A user id is never locked as such: a stranger's wrong passwords lock
// the stranger's address out of that account, not the account's owner signing in from elsewhere
// (docs/decisions.md, Web pages). After a few free failures each further failure locks that key for a
// doubling time, up to a cap. Counts live in memory: a restart forgets them, which only ever gives an
// attacker one fresh start.

export interface ThrottlePolicy {
  /** Failures allowed before any lock. */
  freeFailures: number;
  /** Lock after the first failure past the free ones; doubles with each further failure. */
  baseLockMs: number;
  maxLockMs: number;
  /** A key with no failure for this long starts again from zero. */
  forgetAfterMs: number;
}

export const USER_POLICY: ThrottlePolicy = { freeFailures: 5, baseLockMs: 1_000, maxLockMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 20, baseLockMs: 1_000, maxLockMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };

interface Entry {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
}

/** Lock time after the n-th consecutive failure under a policy (0 while failures are free). */
export function lockAfter(policy: ThrottlePolicy, failures: number): number {
  const past = failures - policy.freeFailures;
  if (past <= 0) return 0;
  return Math.min(policy.maxLockMs, policy.baseLockMs * 2 ** Math.min(past - 1, 30));
}

class Counter {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly policy: ThrottlePolicy, private readonly maxEntries: number) {}

  waitMs(key: string, now: number): number {
    const e = this.entries.get(key);
    return e ? Math.max(0, e.lockedUntil - now) : 0;
  }

  fail(key: string, now: number): void {
    const old = this.entries.get(key);
    const failures = old && now - old.lastFailure < this.policy.forgetAfterMs ? old.failures + 1 : 1;
    // Re-inserting keeps the map in order of last failure, so the oldest entry is evicted first.
    this.entries.delete(key);
    this.entries.set(key, { failures, lastFailure: now, lockedUntil: now + lockAfter(this.policy, failures) });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(key: string): void {
    this.entries.delete(key);
  }
}

export class SignInThrottle {
  /** Per user id and address. */
  private readonly users: Counter;
  private readonly addresses: Counter;

  constructor(
    private readonly now: () => number = Date.now,
    policies: { user: ThrottlePolicy; address: ThrottlePolicy } = { user: USER_POLICY, address: ADDRESS_POLICY },
    maxEntries = 10_000,
  ) {
    this.users = new Counter(policies.user, maxEntries);
    this.addresses = new Counter(policies.address, maxEntries);
  }

  /** Milliseconds until another attempt for this user id from this address is allowed; 0 now. */
  waitMs(userId: string, address: string): number {
    const now = this.now();
    return Math.max(this.users.waitMs(userKey(userId, address), now), this.addresses.waitMs(address, now));
  }

  failed(userId: string, address: string): void {
    const now = this.now();
    this.users.fail(userKey(userId, address), now);
    this.addresses.fail(address, now);
  }

  /** A correct password clears its account's count from that address; the address keeps its own
   * count, so signing in to one's own account between guesses does not reset the limit on guessing. */
  succeeded(userId: string, address: string): void {
    this.users.clear(userKey(userId, address));
  }
}

const userKey = (userId: string, address: string) => `${userId.slice(0, 200).toLowerCase()}\n${address}`;
