import { ERRORS, HttpError } from "./errors.ts";
import type { ApiKeyRecord, KeyedCount, RateStorage } from "../store/types.ts";
import { coalesced, coalescedCounter, placeInCount } from "../lib/coalesce.ts";

// Fixed one-hour windows per account and API version (docs/decisions.md). With one process, counting
// happens in memory, so the check on every request is a map lookup. What the store holds is never
// less than what was handed out: before a count passes what the store has, the store is told of the
// next lease of calls (a twentieth of the hour's budget) at once, and calls are then counted in memory
// up to it. A process killed at any moment restarts with at least every call it answered counted, so a
// crash loop hands out no more than the hour allows; a restart may count up to one lease not used.
// Several processes on one PostgreSQL database count in it instead (SharedRateLimiter).

export const WINDOW_MS = 3_600_000;

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the full budget is back. */
  reset: number;
  apiVersion: 1 | 2;
}

/** What the request path needs of a limiter: count one call, or refuse it with 429. */
export interface Limiter {
  take(userId: string, apiVersion: 1 | 2): RateState | Promise<RateState>;
  /**
   * Where the store can: the account's key read and the call counted in one statement, counted only
   * when `digest` is the key's digest and the key is of this API version. The caller decides 401 from
   * `key` and only then asks `rate()` for the state (or the 429).
   */
  readonly takeKeyed?: (userId: string, apiVersion: 1 | 2, digest: string) => Promise<KeyedCall>;
  load(storage: RateStorage): Promise<void>;
  save(storage: RateStorage): Promise<void>;
  /** At a graceful stop: the exact counts, giving back what was stored ahead of use. */
  release(storage: RateStorage): Promise<void>;
}

/** One account's calls on one API version in the current window. */
interface Count {
  userId: string;
  apiVersion: 1 | 2;
  used: number;
  /** What the store is to hold for it (at least `used`): calls up to it are counted in memory alone. */
  leased: number;
  /** What this limiter has written to the store for it, or read from it. */
  stored: number;
  /** Its lease is not yet in the store (a write failed): listed in `dirty`, written by the next save. */
  dirty: boolean;
}

/** Calls leased at once: a twentieth of the hour's budget, so a budget of 500 writes once per 25 calls. */
export const leaseOf = (limit: number) => Math.max(1, Math.ceil(limit / 20));

export class RateLimiter implements Limiter {
  private windowStart = 0;
  // By API version, then by account: the request path looks a count up by the principal's own user id
  // string, whose hash the engine has kept since its first use, and changes it in place.
  private counts = { 1: new Map<string, Count>(), 2: new Map<string, Count>() };
  private dirty: Count[] = [];
  private storage?: RateStorage;

  constructor(
    protected readonly limits: { 1: number; 2: number },
    protected readonly now: () => number = Date.now,
  ) {}

  private roll(now: number): void {
    const start = now - (now % WINDOW_MS);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts[1].clear();
      this.counts[2].clear();
      this.dirty = [];
    }
  }

  private count(userId: string, apiVersion: 1 | 2): Count {
    const byUser = this.counts[apiVersion];
    let c = byUser.get(userId);
    if (!c) byUser.set(userId, (c = { userId, apiVersion, used: 0, leased: 0, stored: 0, dirty: false }));
    return c;
  }

  private markDirty(c: Count): void {
    if (c.dirty) return;
    c.dirty = true;
    this.dirty.push(c);
  }

  /** Counts one call; throws 429 with `Retry-After` when the window's budget is spent. */
  take(userId: string, apiVersion: 1 | 2): RateState {
    const now = this.now();
    this.roll(now);
    const c = this.count(userId, apiVersion);
    const limit = this.limits[apiVersion];
    const reset = Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000));
    if (c.used >= limit) {
      throw new HttpError(429, ERRORS.tooManyRequests, { "retry-after": String(reset), ...rateHeaders({ limit, remaining: 0, reset, apiVersion }) });
    }
    c.used++;
    if (c.used > c.leased) this.lease(c, limit);
    return { limit, remaining: Math.max(0, limit - c.used), reset, apiVersion };
  }

  /** Records the count's next lease in the store before the call it is taken for is answered. */
  private lease(c: Count, limit: number): void {
    c.leased = Math.min(c.used - 1 + leaseOf(limit), limit);
    if (!this.storage) return this.markDirty(c);
    // SQLite writes inside the call, before it returns; a failed write is tried again by the next save.
    const before = c.stored;
    c.stored = c.leased;
    this.storage.saveRateCounts(this.windowStart, [{ userId: c.userId, apiVersion: c.apiVersion, count: c.leased }]).catch(() => {
      c.stored = Math.min(c.stored, before);
      this.markDirty(c);
    });
  }

  async load(storage: RateStorage): Promise<void> {
    this.storage = storage;
    this.roll(this.now());
    for (const { userId, apiVersion, count } of await storage.loadRateCounts(this.windowStart)) {
      const c = this.count(userId, apiVersion);
      c.used = Math.max(count, c.used);
      c.leased = Math.max(c.used, c.leased);
      c.stored = Math.max(count, c.stored);
    }
  }

  /** Saves the leases not yet in the store; after a failed save they stay pending for the next. */
  async save(storage: RateStorage): Promise<void> {
    if (this.dirty.length === 0) return;
    const changed = this.dirty;
    const windowStart = this.windowStart;
    this.dirty = [];
    for (const c of changed) c.dirty = false;
    try {
      const leases = changed.map((c) => [c, c.leased] as const);
      await storage.saveRateCounts(windowStart, leases.map(([{ userId, apiVersion }, leased]) => ({ userId, apiVersion, count: leased })));
      for (const [c, leased] of leases) c.stored = Math.max(c.stored, leased);
    } catch (e) {
      // A busy database must not drop counts until their key is called again; a past window's are moot.
      if (this.windowStart === windowStart) for (const c of changed) this.markDirty(c);
      throw e;
    }
  }

  /** The window's exact counts, each giving back the calls it had stored ahead of use (a graceful stop). */
  async release(storage: RateStorage): Promise<void> {
    const counts = [...this.counts[1].values(), ...this.counts[2].values()];
    if (counts.length === 0) return;
    await storage.saveRateCounts(
      this.windowStart,
      counts.map(({ userId, apiVersion, used, stored }) => ({ userId, apiVersion, count: used, release: Math.max(0, stored - used) })),
    );
    for (const c of counts) {
      c.stored = c.leased = c.used;
      c.dirty = false;
    }
    this.dirty = [];
  }

}

// The policy and limit fields depend only on the version and its limit: made once, not per response.
const constantFields = { 1: new Map<number, { policy: string; limit: string }>(), 2: new Map<number, { policy: string; limit: string }>() };

/** IETF RateLimit fields plus the widespread X-RateLimit trio (docs/decisions.md). */
export function rateHeaders(s: RateState): Record<string, string> {
  return addRateHeaders({}, s);
}

/** The rate-limit fields written into `headers` (a response's own object, so none is built in between). */
export function addRateHeaders(headers: Record<string, string>, s: RateState): Record<string, string> {
  const byLimit = constantFields[s.apiVersion];
  let fixed = byLimit.get(s.limit);
  if (!fixed) byLimit.set(s.limit, (fixed = { policy: `"v${s.apiVersion}";q=${s.limit};w=3600`, limit: String(s.limit) }));
  headers["ratelimit-policy"] = fixed.policy;
  headers.ratelimit = rateField(s);
  headers["x-ratelimit-limit"] = fixed.limit;
  headers["x-ratelimit-remaining"] = String(s.remaining);
  headers["x-ratelimit-reset"] = String(s.reset);
  return headers;
}

/** The fields of addRateHeaders that change from call to call, set on headers that hold the rest. */
export function setChangingRateHeaders(headers: Headers, s: RateState): void {
  headers.set("ratelimit", rateField(s));
  headers.set("x-ratelimit-remaining", String(s.remaining));
  headers.set("x-ratelimit-reset", String(s.reset));
}

const rateField = (s: RateState) => `"v${s.apiVersion}";r=${s.remaining};t=${s.reset}`;

/** A store that counts calls itself, atomically for every process on it (the PostgreSQL store). */
export interface SharedRateCounter {
  /** Adds `calls` calls (one unless given) to the window's count and returns the count including them. */
  countRateCall(userId: string, apiVersion: 1 | 2, windowStart: number, calls?: number): Promise<number>;
  dropRateWindowsBefore(windowStart: number): Promise<void>;
}

export function isSharedRateCounter(store: object): store is SharedRateCounter {
  return typeof (store as Partial<SharedRateCounter>).countRateCall === "function";
}

/** A shared counter that also reads the account's key in the statement that counts (the PostgreSQL store). */
export interface KeyedRateCounter extends SharedRateCounter {
  countKeyedCall(userId: string, apiVersion: 1 | 2, windowStart: number, digest: string, calls: number): Promise<KeyedCount>;
}

function isKeyedRateCounter(counter: SharedRateCounter): counter is KeyedRateCounter {
  return typeof (counter as Partial<KeyedRateCounter>).countKeyedCall === "function";
}

/** The key as read with the call, and the call's rate state (throws 429), to ask for once the key is accepted. */
export interface KeyedCall {
  key: ApiKeyRecord | undefined;
  rate(): RateState;
}

type RateKey = { userId: string; apiVersion: 1 | 2; windowStart: number };
type KeyedKey = RateKey & { digest: string };

/**
 * Counts every call in the database with atomic increments, so a key gets its budget across all
 * instances together, exactly. Calls of one key that arrive while its increment is in flight go as
 * one increment by their number (src/lib/coalesce.ts): one statement for many calls under load, each
 * call still given its own place in the count. A refused call is counted too, which changes nothing:
 * the count is past the limit either way until the window ends. On a store that can (the PostgreSQL
 * store's countKeyedCall), the request's key read and its count are one statement (takeKeyed).
 */
export class SharedRateLimiter implements Limiter {
  private window = 0;
  private readonly count: (key: RateKey) => Promise<number>;
  readonly takeKeyed?: (userId: string, apiVersion: 1 | 2, digest: string) => Promise<KeyedCall>;

  constructor(
    private readonly limits: { 1: number; 2: number },
    private readonly counter: SharedRateCounter,
    private readonly now: () => number = Date.now,
  ) {
    const keyOf = (k: RateKey) => `${k.apiVersion} ${k.windowStart} ${k.userId}`;
    this.count = coalescedCounter(keyOf, (k, calls) => counter.countRateCall(k.userId, k.apiVersion, k.windowStart, calls));
    if (!isKeyedRateCounter(counter)) return;
    // Calls with the same key (and the same digest presented) go together as one statement; each gets
    // its own place in the count, as coalescedCounter hands them, and the key record they share.
    const countKeyed = coalesced(
      (k: KeyedKey) => `${keyOf(k)} ${k.digest}`,
      (k, calls) => counter.countKeyedCall(k.userId, k.apiVersion, k.windowStart, k.digest, calls),
      ({ key, count }, i, calls) => ({ key, count: count === undefined ? undefined : placeInCount(count, i, calls) }),
    );
    this.takeKeyed = async (userId, apiVersion, digest) => {
      const now = this.now();
      const windowStart = this.windowAt(now);
      const { key, count } = await countKeyed({ userId, apiVersion, windowStart, digest });
      return {
        key,
        rate: () => {
          if (count === undefined) throw new Error("a call with an accepted key was not counted");
          return this.state(count, apiVersion, windowStart, now);
        },
      };
    };
  }

  async take(userId: string, apiVersion: 1 | 2): Promise<RateState> {
    const now = this.now();
    const windowStart = this.windowAt(now);
    return this.state(await this.count({ userId, apiVersion, windowStart }), apiVersion, windowStart, now);
  }

  /** The window `now` falls in; past windows are dropped once a window. */
  private windowAt(now: number): number {
    const windowStart = now - (now % WINDOW_MS);
    if (windowStart !== this.window) {
      this.window = windowStart;
      // Past windows are moot; any instance may drop them, a failure only leaves a few rows behind.
      void this.counter.dropRateWindowsBefore(windowStart).catch(() => {});
    }
    return windowStart;
  }

  /** The state after the call that made the count `count`; 429 when it is past the limit. */
  private state(count: number, apiVersion: 1 | 2, windowStart: number, now: number): RateState {
    const used = count - 1;
    const limit = this.limits[apiVersion];
    const reset = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    const state: RateState = { limit, remaining: Math.max(0, limit - used - 1), reset, apiVersion };
    if (used >= limit) throw new HttpError(429, ERRORS.tooManyRequests, { "retry-after": String(reset), ...rateHeaders({ ...state, remaining: 0 }) });
    return state;
  }

  /** Nothing to load, save or give back: every count is already in the database. */
  async load(): Promise<void> {}
  async save(): Promise<void> {}
  async release(): Promise<void> {}
}
