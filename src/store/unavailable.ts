// A database that cannot be reached is not a server bug: the request may be tried again shortly. This
// tells such a failure (connection refused or lost, the server starting or shutting down) from the rest.

// Bun's PostgreSQL client: failures of the connection itself.
const CONNECTION_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
]);

// SQLSTATE: class 08 (connection exception); admin, crash shutdown and "cannot connect now" (57P01-03);
// too many connections (53300).
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;

/** True when `error` says the database is away for now rather than that the request or the server is wrong. */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
  return typeof errno === "string" && UNAVAILABLE_STATES.test(errno);
}

/** The cause of an unavailable store in one line, for the log: never a query or its values. */
export function unavailableCause(error: unknown): string {
  const { code, errno, message } = error as { code?: string; errno?: string; message?: string };
  return [code, errno, message].filter(Boolean).join(" ");
}
