import { runKey } from "../store/outbox.ts";
import type { DueDelivery } from "../store/types.ts";

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
 * Whether what waits in the outbox (since `waitingSince`, undefined for nothing) has waited longer
 * than `maxLagMs`: a busy worker then stops giving way and catches up.
 */
export function late(waitingSince: number | undefined, now: number, maxLagMs: number): boolean {
  return waitingSince !== undefined && now - waitingSince > maxLagMs;
}

/**
 * Whether catching up is done after a round: it claimed no new event (`oldestNewAt` undefined: only
 * retries, or nothing), or the oldest it claimed had waited `withinMs` or less.
 */
export function caughtUp(oldestNewAt: number | undefined, now: number, withinMs: number): boolean {
  return oldestNewAt === undefined || now - oldestNewAt <= withinMs;
}

/** After a failed attempt (`attempts` made so far, this one included): try again then, or give up. */
export function afterFailure(attempts: number, at: number, baseMs: number, maxAttempts: number): { result: "retry"; retryAt: number } | { result: "given-up" } {
  return attempts >= maxAttempts ? { result: "given-up" } : { result: "retry", retryAt: at + retryDelayMs(attempts, baseMs) };
}

/** Due deliveries by subscription and resource, each run in outbox order. */
export function runsOf(due: readonly DueDelivery[]): DueDelivery[][] {
  const runs = new Map<string, DueDelivery[]>();
  for (const d of due) {
    const key = runKey(d.webhookId, d.resource);
    const run = runs.get(key);
    if (run) run.push(d);
    else runs.set(key, [d]);
  }
  return [...runs.values()];
}
