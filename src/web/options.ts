import type { Config } from "../config.ts";

// Settings of the web pages, taken from the configuration (src/config.ts reads the environment).

export interface WebOptions {
  /** How long a sign-in lasts (SESSION_TTL_SECONDS, default 12 hours). */
  sessionTtlSeconds: number;
  /** The clock, replaceable in tests. */
  now: () => number;
  /** LOGGING_PORT and LOGGING_MIN_INTERVAL_SECONDS, as Settings › Devices explains them. */
  loggingPort?: number;
  loggingMinIntervalSeconds?: number;
}

export function webOptions(config: Pick<Config, "sessionTtlSeconds" | "loggingPort" | "loggingMinIntervalSeconds">): WebOptions {
  const { sessionTtlSeconds, loggingPort, loggingMinIntervalSeconds } = config;
  return { sessionTtlSeconds, now: Date.now, loggingPort, loggingMinIntervalSeconds };
}
