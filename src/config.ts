// The only reader of the environment. Every setting is documented in README.md.
export interface Config {
  port: number;
  host: string;
  /** SQLite file path (or ":memory:"); `postgres://` URLs are reserved for the PostgreSQL store. */
  databaseUrl: string;
  rateLimitV2PerHour: number;
  rateLimitV1PerHour: number;
  /** Create the demo account on first start with an empty database. */
  demo: boolean;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** Certificate and key files: the server speaks HTTPS itself. */
  tls?: { certFile: string; keyFile: string };
  /** A TLS-terminating proxy sits in front: requests not forwarded as HTTPS are refused. */
  trustProxy: boolean;
  /** How long a sign-in to the web pages lasts. */
  sessionTtlSeconds: number;
  /** The remote API key `pull` uses when none is given on its command line. */
  pullApiKey?: string;
  /** A second, plain-HTTP listener serving only the device logging endpoints (README, Devices). */
  loggingPort?: number;
  /** Least time between two stored posts of one device; 0 stores every post. */
  loggingMinIntervalSeconds: number;
  /** Webhook hosts allowed over plain HTTP and on any address (loopback, private networks); lower case. */
  webhookAllowHosts: string[];
  /** The first wait before a failed webhook delivery is tried again; each later wait is four times longer. */
  webhookRetryBaseMs: number;
  /** Attempts at one event before it is given up and its subscription shown as failing. */
  webhookMaxAttempts: number;
  /** How long one delivery may take. */
  webhookTimeoutMs: number;
  /** SQLite's `synchronous` in WAL mode: NORMAL survives a process crash, FULL also a power loss (README). */
  sqliteSynchronous: SqliteSynchronous;
}

export const SQLITE_SYNCHRONOUS = ["NORMAL", "FULL"] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

function synchronous(raw: string | undefined): SqliteSynchronous {
  const value = (raw?.trim() || "NORMAL").toUpperCase();
  if (!(SQLITE_SYNCHRONOUS as readonly string[]).includes(value)) {
    throw new ConfigError(`SQLITE_SYNCHRONOUS must be NORMAL or FULL, got "${raw?.trim()}"`);
  }
  return value as SqliteSynchronous;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

const flag = (v: string | undefined) => ["1", "true", "yes", "on"].includes((v ?? "").trim().toLowerCase());

/** `sqlite://<path>`, `sqlite:<path>` or a plain path; relative paths are relative to the working directory. */
export function sqlitePath(url: string): string {
  if (url.startsWith("sqlite://")) return url.slice("sqlite://".length);
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length);
  return url;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const level = (env.LOG_LEVEL?.trim() || "info").toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  const demo = (env.DEMO?.trim() ?? "1").toLowerCase();
  const certFile = env.TLS_CERT_FILE?.trim();
  const keyFile = env.TLS_KEY_FILE?.trim();
  if (Boolean(certFile) !== Boolean(keyFile)) throw new ConfigError("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  return {
    port: integer(env, "PORT", 3000, 0, 65535),
    host: env.HOST?.trim() || "127.0.0.1",
    databaseUrl: env.DATABASE_URL?.trim() || "data/brewrecords.sqlite",
    rateLimitV2PerHour: integer(env, "RATE_LIMIT_V2_PER_HOUR", 500, 1, 1_000_000_000),
    rateLimitV1PerHour: integer(env, "RATE_LIMIT_V1_PER_HOUR", 150, 1, 1_000_000_000),
    demo: !["0", "false", "no", "off"].includes(demo),
    maxBodyBytes: integer(env, "MAX_BODY_BYTES", 1024 * 1024, 1024, 64 * 1024 * 1024),
    logLevel: level as Config["logLevel"],
    tls: certFile && keyFile ? { certFile, keyFile } : undefined,
    trustProxy: flag(env.TRUST_PROXY),
    sessionTtlSeconds: integer(env, "SESSION_TTL_SECONDS", 12 * 60 * 60, 1, 31 * 24 * 3600),
    pullApiKey: env.PULL_API_KEY?.trim() || undefined,
    loggingPort: env.LOGGING_PORT?.trim() ? integer(env, "LOGGING_PORT", 0, 0, 65535) : undefined,
    loggingMinIntervalSeconds: integer(env, "LOGGING_MIN_INTERVAL_SECONDS", 900, 0, 31 * 24 * 3600),
    webhookAllowHosts: (env.WEBHOOK_ALLOW_HOSTS ?? "").split(",").map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1")).filter(Boolean),
    webhookRetryBaseMs: integer(env, "WEBHOOK_RETRY_BASE_MS", 5000, 1, 3_600_000),
    webhookMaxAttempts: integer(env, "WEBHOOK_MAX_ATTEMPTS", 11, 1, 100),
    webhookTimeoutMs: integer(env, "WEBHOOK_TIMEOUT_MS", 10_000, 1, 60_000),
    sqliteSynchronous: synchronous(env.SQLITE_SYNCHRONOUS),
  };
}
