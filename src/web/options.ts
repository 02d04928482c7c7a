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
  /** Webhook hosts the operator allows on any address (WEBHOOK_ALLOW_HOSTS). */
  webhookAllowHosts?: readonly string[];
}

export function webOptions(config: Pick<Config, "sessionTtlSeconds" | "loggingPort" | "loggingMinIntervalSeconds" | "webhookAllowHosts">): WebOptions {
  const { sessionTtlSeconds, loggingPort, loggingMinIntervalSeconds, webhookAllowHosts } = config;
  return { sessionTtlSeconds, now: Date.now, loggingPort, loggingMinIntervalSeconds, webhookAllowHosts };
}
