import { ConfigError } from "../config.ts";

// Settings of the web pages. Read from the environment here because they concern only this module;
// they follow the same rules as src/config.ts (whole numbers, refused when out of range).

export interface WebOptions {
  /** How long a sign-in lasts. Environment: SESSION_TTL_SECONDS (default 12 hours). */
  sessionTtlSeconds: number;
  /** The clock, replaceable in tests. */
  now: () => number;
}

export const DEFAULT_SESSION_TTL_SECONDS = 12 * 60 * 60;

export function webOptions(env: Record<string, string | undefined> = process.env): WebOptions {
  const raw = env.SESSION_TTL_SECONDS?.trim();
  let ttl = DEFAULT_SESSION_TTL_SECONDS;
  if (raw) {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > 31 * 24 * 3600) throw new ConfigError(`SESSION_TTL_SECONDS must be a whole number from 1 to ${31 * 24 * 3600}, got "${raw}"`);
    ttl = n;
  }
  return { sessionTtlSeconds: ttl, now: Date.now };
}
