// When a failed delivery is tried again: exponential backoff from a base (WEBHOOK_RETRY_BASE_MS, 5 s),
// four times longer each time up to 4096 bases (about 5.7 h), for WEBHOOK_MAX_ATTEMPTS attempts (11):
// with the defaults the last attempt comes about 24.6 h after the first, then the event is given up
// and its subscription shown as failing.

const MAX_STEP = 6;

/** The wait after the `attempts`-th failed attempt (1-based). */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return baseMs * 4 ** Math.min(Math.max(attempts - 1, 0), MAX_STEP);
}

/** Requests a second at or above which a process counts as busy, and its deliveries give way. */
export const BUSY_PER_SECOND = 100;

/**
 * Whether `requests` begun over `elapsedMs` make a busy process: a client polling now and then, or a
 * device posting every few seconds, does not hold deliveries back.
 */
export function busy(requests: number, elapsedMs: number): boolean {
  return requests > 0 && requests * 1000 >= BUSY_PER_SECOND * Math.max(elapsedMs, 1);
}

/**
 * Whether the worker pauses before its next round, giving way to requests: only after a round that
 * delivered something (one that found nothing waits anyway), while the process is busy, and while
 * the oldest new event it claimed (`oldestNewAt`, undefined for none) has waited less than `maxLagMs`.
 */
export function givesWay(claimed: number, serving: boolean, oldestNewAt: number | undefined, now: number, maxLagMs: number): boolean {
  return claimed > 0 && serving && (oldestNewAt === undefined || now - oldestNewAt <= maxLagMs);
}

/** After a failed attempt (`attempts` made so far, this one included): try again then, or give up. */
export function afterFailure(attempts: number, at: number, baseMs: number, maxAttempts: number): { result: "retry"; retryAt: number } | { result: "given-up" } {
  return attempts >= maxAttempts ? { result: "given-up" } : { result: "retry", retryAt: at + retryDelayMs(attempts, baseMs) };
}
