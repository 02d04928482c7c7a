import { ERRORS, HttpError } from "./errors.ts";

// Fixed one-hour windows per account and API version (docs/decisions.md). With one process, counting
// happens in memory, so the check on every request is a map lookup; counts are saved to the store every
// second and at a graceful stop, and loaded at start, so a restart keeps them (a crash loses at most the
// last second). Several processes on one PostgreSQL database count in it instead (SharedRateLimiter).

export const WINDOW_MS = 3_600_000;

export interface RateCount {
  userId: string;
  apiVersion: 1 | 2;
  count: number;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the full budget is back. */
  reset: number;
  apiVersion: 1 | 2;
}

export interface RateStorage {
  loadRateCounts(windowStart: number): Promise<RateCount[]>;
  saveRateCounts(windowStart: number, counts: RateCount[]): Promise<void>;
}

/** What the request path needs of a limiter: count one call, or refuse it with 429. */
export interface Limiter {
  take(userId: string, apiVersion: 1 | 2): RateState | Promise<RateState>;
  load(storage: RateStorage): Promise<void>;
  save(storage: RateStorage): Promise<void>;
}

export class RateLimiter implements Limiter {
  private windowStart = 0;
  private counts = new Map<string, number>();
  private dirty = new Set<string>();

  constructor(
    protected readonly limits: { 1: number; 2: number },
    protected readonly now: () => number = Date.now,
  ) {}

  private roll(now: number): void {
    const start = now - (now % WINDOW_MS);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts.clear();
      this.dirty.clear();
    }
  }

  /** Counts one call; throws 429 with `Retry-After` when the window's budget is spent. */
  take(userId: string, apiVersion: 1 | 2): RateState {
    const now = this.now();
    this.roll(now);
    const key = `${apiVersion}:${userId}`;
    const used = this.counts.get(key) ?? 0;
    const limit = this.limits[apiVersion];
    const reset = Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000));
    const state: RateState = { limit, remaining: Math.max(0, limit - used - 1), reset, apiVersion };
    if (used >= limit) {
      throw new HttpError(429, ERRORS.tooManyRequests, { "retry-after": String(reset), ...rateHeaders({ ...state, remaining: 0 }) });
    }
    this.counts.set(key, used + 1);
    this.dirty.add(key);
    return state;
  }

  async load(storage: RateStorage): Promise<void> {
    this.roll(this.now());
    for (const { userId, apiVersion, count } of await storage.loadRateCounts(this.windowStart)) {
      const key = `${apiVersion}:${userId}`;
      this.counts.set(key, Math.max(count, this.counts.get(key) ?? 0));
    }
  }

  /** Saves the counts changed since the last save; after a failed save they stay pending for the next. */
  async save(storage: RateStorage): Promise<void> {
    if (this.dirty.size === 0) return;
    const keys = [...this.dirty];
    const windowStart = this.windowStart;
    const counts: RateCount[] = keys.map((key) => ({
      apiVersion: key[0] === "1" ? 1 : 2,
      userId: key.slice(key.indexOf(":") + 1),
      count: this.counts.get(key) ?? 0,
    }));
    this.dirty.clear();
    try {
      await storage.saveRateCounts(windowStart, counts);
    } catch (e) {
      // A busy database must not drop counts until their key is called again; a past window's are moot.
      if (this.windowStart === windowStart) for (const key of keys) this.dirty.add(key);
      throw e;
    }
  }
}

/** IETF RateLimit fields plus the widespread X-RateLimit trio (docs/decisions.md). */
export function rateHeaders(s: RateState): Record<string, string> {
  const policy = `v${s.apiVersion}`;
  return {
    "ratelimit-policy": `"${policy}";q=${s.limit};w=3600`,
    ratelimit: `"${policy}";r=${s.remaining};t=${s.reset}`,
    "x-ratelimit-limit": String(s.limit),
    "x-ratelimit-remaining": String(s.remaining),
    "x-ratelimit-reset": String(s.reset),
  };
}

/** A store that counts calls itself, atomically for every process on it (the PostgreSQL store). */
export interface SharedRateCounter {
  /** Adds one call to the window's count and returns the count including it. */
  countRateCall(userId: string, apiVersion: 1 | 2, windowStart: number): Promise<number>;
  dropRateWindowsBefore(windowStart: number): Promise<void>;
}

export function isSharedRateCounter(store: object): store is SharedRateCounter {
  return typeof (store as Partial<SharedRateCounter>).countRateCall === "function";
}

/**
 * Counts every call in the database with one atomic increment, so a key gets its budget across all
 * instances together, exactly. A refused call is counted too, which changes nothing: the count is past
 * the limit either way until the window ends.
 */
export class SharedRateLimiter implements Limiter {
  private window = 0;

  constructor(
    private readonly limits: { 1: number; 2: number },
    private readonly counter: SharedRateCounter,
    private readonly now: () => number = Date.now,
  ) {}

  async take(userId: string, apiVersion: 1 | 2): Promise<RateState> {
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    if (windowStart !== this.window) {
      this.window = windowStart;
      // Past windows are moot; any instance may drop them, a failure only leaves a few rows behind.
      void this.counter.dropRateWindowsBefore(windowStart).catch(() => {});
    }
    const used = (await this.counter.countRateCall(userId, apiVersion, windowStart)) - 1;
    const limit = this.limits[apiVersion];
    const reset = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    const state: RateState = { limit, remaining: Math.max(0, limit - used - 1), reset, apiVersion };
    if (used >= limit) throw new HttpError(429, ERRORS.tooManyRequests, { "retry-after": String(reset), ...rateHeaders({ ...state, remaining: 0 }) });
    return state;
  }

  /** Nothing to load or save: every count is already in the database. */
  async load(): Promise<void> {}
  async save(): Promise<void> {}
}
