import type { Server } from "bun";
import { readFileSync } from "node:fs";
import { buildApi, nativeRoutes, newRateLimiter, type Api } from "./api.ts";
import { MAX_POST_BYTES } from "./devices/body.ts";
import { ERRORS, errorReply, HttpError } from "./http/errors.ts";
import { ConfigError, type Config } from "./config.ts";
import { Observer } from "./http/observe.ts";
import { plainHttpRefusal } from "./http/transport.ts";
import { andThen } from "./lib/awaitable.ts";
import { lazy } from "./lib/lazy.ts";
import type { Store } from "./store/types.ts";
import { DeliveryWorker } from "./webhooks/worker.ts";

export interface RunningServer {
  url: string;
  /** The plain-HTTP logging listener's address, when LOGGING_PORT is set. */
  loggingUrl?: string;
  stop(): Promise<void>;
}

/** How often a rate-limit lease whose write failed is tried again (src/http/rate-limit.ts). */
export const RATE_SAVE_INTERVAL_MS = 1000;
/** How long a graceful stop waits for in-flight requests. */
export const STOP_GRACE_MS = 10_000;

// TLS 1.2 suites with forward secrecy and AEAD only (TLS 1.3 suites are all of that kind).
const TLS12_CIPHERS = [
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "ECDHE-ECDSA-CHACHA20-POLY1305",
  "ECDHE-RSA-CHACHA20-POLY1305",
].join(":");

/**
 * The logging listener (LOGGING_PORT): plain HTTP for devices that cannot speak TLS, serving the three
 * logging endpoints and nothing else, over the same API and store as the main listener. A logging id
 * is its only credential; no API key, page or document is reachable here.
 */
function serveLogging(config: Config, api: Api): Server<undefined> {
  const notFound = (request: Request) => {
    api.beginLogging(request);
    return api.finish(request, errorReply(new HttpError(404, ERRORS.notFound)));
  };
  return Bun.serve({
    port: config.loggingPort,
    hostname: config.host,
    routes: nativeRoutes({ endpoints: api.logging, begin: api.beginLogging, fail: api.fail }),
    fetch: notFound,
    maxRequestBodySize: MAX_POST_BYTES * 4,
    idleTimeout: 30,
  });
}

/**
 * A certificate or key file's text. One the server cannot read (a key mounted into a container for
 * root alone, say) stops the start with the setting, the path and why, not a stack trace.
 */
function tlsFile(setting: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new ConfigError(`${setting}: cannot read ${path} as user id ${process.getuid?.() ?? "?"} (${reason})`);
  }
}

/**
 * Serves the API with Bun.serve: its endpoints on Bun's own router, the rest through the Elysia app
 * (src/api.ts says why). Bodies past the configured cap are refused in src/http/body.ts with a clear
 * 413; Bun's own limit (which answers with an empty body) sits well above it as a backstop.
 */
export async function startServer(config: Config, store: Store): Promise<RunningServer> {
  const refusal = plainHttpRefusal(config);
  if (refusal) throw new ConfigError(refusal);
  const limiter = newRateLimiter(config, store);
  await limiter.load(store);
  // The Elysia app is loaded and built over the same API, with its rate counts and key cache, when the
  // first request that needs it comes, so a start neither loads nor composes it before its first answer.
  const observer = new Observer(config);
  const api = buildApi(config, store, limiter, observer);
  const app = lazy(async () => {
    const built = (await import("./app.ts")).elysiaAppFor(api);
    // Elysia gives its handlers this server (the web pages read the client's address from it).
    built.server = server;
    return built;
  });
  const server: Server<undefined> = Bun.serve({
    port: config.port,
    hostname: config.host,
    routes: nativeRoutes(api),
    fetch: (request) => andThen(app(), (built) => built.fetch(request)),
    maxRequestBodySize: config.maxBodyBytes * 4,
    idleTimeout: 30,
    ...(config.tls ? { tls: { cert: tlsFile("TLS_CERT_FILE", config.tls.certFile), key: tlsFile("TLS_KEY_FILE", config.tls.keyFile), ciphers: TLS12_CIPHERS } } : {}),
  });
  const logging = config.loggingPort === undefined ? undefined : serveLogging(config, api);
  // One delivery worker per process: webhook events are delivered after their writes commit.
  const log = (level: "warn" | "error", message: string, fields?: Record<string, unknown>) => observer.log(level, message, fields);
  const deliveries = new DeliveryWorker(store, config, log, undefined, () => observer.begun).start();
  const timer = setInterval(() => void limiter.save(store).catch((e) => console.error(String(e))), RATE_SAVE_INTERVAL_MS);
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `${config.tls ? "https" : "http"}://${host}:${server.port}`,
    ...(logging ? { loggingUrl: `http://${host}:${logging.port}` } : {}),
    async stop() {
      clearInterval(timer);
      // In-flight requests may finish; after the grace period the rest are closed.
      const grace = setTimeout(() => {
        void server.stop(true);
        void logging?.stop(true);
      }, STOP_GRACE_MS);
      await Promise.all([server.stop(), logging?.stop()]);
      clearTimeout(grace);
      await deliveries.stop();
      await limiter.release(store);
    },
  };
}
