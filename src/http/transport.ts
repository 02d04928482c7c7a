import type { Config } from "../config.ts";
import { HttpError } from "./errors.ts";

// "Only HTTPS is supported" (API document, Authentication). Plain HTTP is served only where it is safe:
// on loopback, or behind a TLS-terminating proxy that says so in X-Forwarded-Proto (TRUST_PROXY=1).

export const HTTPS_REQUIRED = "HTTPS required: call this server with https://";

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why the server must not start with this configuration, or undefined when it may. */
export function plainHttpRefusal(config: Pick<Config, "host" | "tls" | "trustProxy">): string | undefined {
  if (config.tls || config.trustProxy || isLoopback(config.host)) return undefined;
  return (
    `refusing to serve plain HTTP on ${config.host}: the API is HTTPS only. Set TLS_CERT_FILE and ` +
    `TLS_KEY_FILE to serve HTTPS, or TRUST_PROXY=1 when a TLS-terminating proxy sits in front, or ` +
    `HOST=127.0.0.1 to serve this machine only.`
  );
}

/** Behind a trusted proxy, a request that did not arrive over HTTPS is refused. */
export function checkForwardedProto(request: Request, config: Pick<Config, "trustProxy">): void {
  if (!config.trustProxy) return;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (proto !== "https") throw new HttpError(403, HTTPS_REQUIRED);
}
