// Pacing against the remote's rate limit (API document, Limits: 500 calls per hour per key, "may change
// at any time"; 429 with Retry-After). What a response's headers say wins over the documented figure.

/** The remote's budget as last seen. */
export interface Budget {
  limit: number;
  remaining: number;
  /** When the window ends and the full budget is back (Unix ms). */
  resetAt: number;
  windowMs: number;
}

/** The documented rate of version 2: assumed until the remote's headers say otherwise. */
export const DOCUMENTED = { limit: 500, windowMs: 3_600_000 } as const;

type HeaderSource = { get(name: string): string | null };

const wholeNumber = (v: string | null | undefined): number | undefined => {
  if (v === null || v === undefined) return undefined;
  const t = v.trim();
  return /^\d+$/.test(t) ? Number(t) : undefined;
};

/** A member `name=<digits>` of an IETF structured field (`"v2";r=12;t=300`). */
function member(field: string | null, name: string): number | undefined {
  if (!field) return undefined;
  const m = new RegExp(`(?:^|[;,\\s])${name}=(\\d+)`).exec(field);
  return m ? Number(m[1]) : undefined;
}

/**
 * Seconds until reset as a header gives them: a delay, or (GitHub style, and any value past 2001) a Unix
 * time in seconds.
 */
function resetAtFrom(value: number, now: number): number {
  return value > 1_000_000_000 ? value * 1000 : now + value * 1000;
}

/**
 * The budget a response's headers state: the IETF draft fields (`RateLimit: "v2";r=<remaining>;t=<seconds>`
 * with `RateLimit-Policy: …;q=<limit>;w=<seconds>`), the older draft's `RateLimit-Limit/-Remaining/-Reset`,
 * or `X-RateLimit-Limit/-Remaining/-Reset`. Undefined when they do not give the remaining calls and the reset.
 */
export function budgetFromHeaders(headers: HeaderSource, now: number): Budget | undefined {
  const policy = headers.get("ratelimit-policy");
  const field = headers.get("ratelimit");
  const windowSeconds = member(policy, "w");
  const windowMs = windowSeconds ? windowSeconds * 1000 : DOCUMENTED.windowMs;
  const pick = (...values: Array<number | undefined>) => values.find((v) => v !== undefined);
  const remaining = pick(member(field, "r"), wholeNumber(headers.get("ratelimit-remaining")), wholeNumber(headers.get("x-ratelimit-remaining")));
  const reset = pick(member(field, "t"), wholeNumber(headers.get("ratelimit-reset")), wholeNumber(headers.get("x-ratelimit-reset")));
  if (remaining === undefined || reset === undefined) return undefined;
  const limit = pick(member(policy, "q"), wholeNumber(headers.get("ratelimit-limit")), wholeNumber(headers.get("x-ratelimit-limit"))) ?? Math.max(remaining, DOCUMENTED.limit);
  return { limit, remaining, resetAt: resetAtFrom(reset, now), windowMs };
}

/**
 * The budget to assume when the remote sends no rate headers: the documented limit over a window that
 * began with this run's first call, less the calls made since.
 */
export function assumedBudget(callsInWindow: number, windowStart: number): Budget {
  return {
    limit: DOCUMENTED.limit,
    remaining: Math.max(0, DOCUMENTED.limit - callsInWindow),
    resetAt: windowStart + DOCUMENTED.windowMs,
    windowMs: DOCUMENTED.windowMs,
  };
}

/**
 * How long to wait before the next call. Calls that fit in what is left of the window go at once; when
 * more are needed, what is left is spread evenly up to the reset, so the key keeps some budget for the
 * brewer's other clients all along and the run still ends when bursting and waiting would; a spent
 * budget waits for the reset.
 */
export function delayBeforeCall(budget: Budget | undefined, callsNeeded: number, now: number): number {
  if (!budget || now >= budget.resetAt) return 0;
  const untilReset = budget.resetAt - now;
  if (budget.remaining <= 0) return untilReset;
  if (callsNeeded <= budget.remaining) return 0;
  return Math.ceil(untilReset / budget.remaining);
}

/** Milliseconds to wait after a 429: its `Retry-After` (seconds or an HTTP date), else until the known reset, else a minute. */
export function retryAfterMs(value: string | null, budget: Budget | undefined, now: number): number {
  const seconds = wholeNumber(value);
  if (seconds !== undefined) return Math.max(1, seconds) * 1000;
  const date = value ? Date.parse(value) : Number.NaN;
  if (Number.isFinite(date)) return Math.max(1000, date - now);
  if (budget && budget.resetAt > now) return budget.resetAt - now;
  return 60_000;
}

/** Wait before retry `attempt` (1, 2, …) after a network failure or a 5xx: 1 s doubling, at most 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

/**
 * About how long `callsNeeded` more calls take: at `msPerCall` while they fit in this window's budget;
 * past it, the rest of this window, a whole window for each further full budget, and the last calls.
 */
export function finishEstimateMs(budget: Budget | undefined, callsNeeded: number, now: number, msPerCall: number): number {
  if (callsNeeded <= 0) return 0;
  if (!budget || now >= budget.resetAt || callsNeeded <= budget.remaining) return callsNeeded * msPerCall;
  const later = callsNeeded - budget.remaining;
  const fullWindows = Math.floor((later - 1) / budget.limit);
  const lastCalls = later - fullWindows * budget.limit;
  return budget.resetAt - now + fullWindows * budget.windowMs + lastCalls * msPerCall;
}
