import { batchAdditionRoutes } from "./batches/additions.ts";
import { batchRoutes } from "./batches/routes.ts";
import { deviceApiRoutes } from "./devices/api-routes.ts";
import { loggingRoutes } from "./devices/routes.ts";
import type { Config } from "./config.ts";
import { Authenticator } from "./http/auth.ts";
import { CallHeaders } from "./http/call-headers.ts";
import type { Deps } from "./http/deps.ts";
import { EndpointTable } from "./http/endpoint.ts";
import { healthRoutes } from "./http/health.ts";
import { ERRORS, errorReply, HttpError, Reply } from "./http/errors.ts";
import type { Observer } from "./http/observe.ts";
import { isSharedRateCounter, RateLimiter, SharedRateLimiter, type Limiter } from "./http/rate-limit.ts";
import { checkForwardedProto } from "./http/transport.ts";
import { laterBody } from "./http/later-body.ts";
import { pathOf } from "./http/url.ts";
import { inventoryRoutes } from "./inventory/routes.ts";
import type { Awaitable } from "./lib/awaitable.ts";
import { readingRoutes } from "./readings/routes.ts";
import { recipeRoutes } from "./recipes/routes.ts";
import type { Store } from "./store/types.ts";
import { isStoreUnavailable, unavailableCause } from "./store/unavailable.ts";
import { webhookRoutes } from "./webhooks/routes.ts";
import { installOutbox } from "./webhooks/worker.ts";

/** Seconds a client is asked to wait while the database cannot be reached. */
export const RETRY_AFTER_UNAVAILABLE_S = 2;

// The API without any HTTP framework: its endpoints, the first hook every request passes, and how an
// answer or a failure becomes the Response with every header.
//
// Two routers serve it, and why. Every endpoint is registered once, in one table (EndpointTable,
// src/http/endpoint.ts), as a function that answers for itself: checks in their order, handler,
// Response with every header. From that table:
// - the server process (src/server.ts) hands the endpoints to Bun.serve's own router. A request it
//   matches goes straight to its endpoint: no Elysia routing, context or composed hooks, and a start
//   loads no Elysia before its first answer. Measured side by side (docs/performance.md, "API routes on
//   Bun's own router"): the default list 0.872x -> 0.921x the bare reference, cold start 50 -> 37 ms.
// - the Elysia app (src/app.ts) routes the same endpoints beside what only it serves: the pages, the
//   documentation, and what Bun's router does not match (a trailing slash, an escaped path, an unknown
//   route or method, an empty id that answers `Missing ID`). Tests drive it in process through
//   `app.handle`. Elysia reads a handler's source to decide how to call it, so endpoints are handed to it
//   as bound functions (which show none), making it call them plainly.
// test/http/routers.test.ts proves both answer alike: status, body and header names, HEAD and escaped
// paths included. The OpenAPI document's paths are made from the same table (src/openapi/document.ts).

export interface Api {
  deps: Deps;
  endpoints: EndpointTable;
  /** The device logging endpoints alone, for the plain-HTTP logging listener (also in `endpoints`). */
  logging: EndpointTable;
  /** The first hook of every request, whichever router found its route: request id, forwarded protocol. */
  begin(request: Request): void;
  /** The first hook on the logging listener: a request id only, since it is plain HTTP by design. */
  beginLogging(request: Request): void;
  /** An API Reply, or a Response made elsewhere, with the call's headers; the request is logged once. */
  finish(request: Request, reply: Reply | Response, route?: string): Response;
  /** A refusal as its own answer; anything else a logged 500 whose message is never sent. */
  fail(request: Request, error: unknown, route: string | undefined, code?: unknown): Response;
}

export function buildApi(config: Config, store: Store, limiter: Limiter, observer: Observer): Api {
  // Every write of the API records its events for the account's webhooks (the outbox); the server
  // process's delivery worker delivers them (src/server.ts), and installs the hook again to be told.
  installOutbox(store);
  const auth = new Authenticator(store, limiter);
  // Clients that reached us over HTTPS keep to it (HSTS, RFC 6797).
  const callHeaders = new CallHeaders(config.tls || config.trustProxy ? { "strict-transport-security": "max-age=31536000" } : {});
  // Every response tells the client its request id and, for a counted call, its remaining budget. An
  // API Reply becomes a Response here, with all its headers at once; a Response (web pages, the API
  // documentation) gets them added.
  const finish = (request: Request, reply: Reply | Response, route?: string, later = false): Response => {
    // A response that passed this way before (an error mapped, then mapped again) has them already.
    const call = observer.end(request, reply.status, route);
    if (reply instanceof Reply) {
      const headers = call ? callHeaders.forAnswer(reply.type, call) : { "content-type": reply.type };
      const response = new Response(later ? laterBody(reply.body) : reply.body, { status: reply.status, headers });
      // An answer's own fields (Retry-After and the spent budget of a 429, say) are rare: set one by one.
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) response.headers.set(k, v);
      return response;
    }
    if (call) callHeaders.addTo(reply.headers, call);
    return reply;
  };
  // A client that asks to close its connection is told it will be (RFC 9112, 9.6), so a keep-alive pool
  // does not reuse the socket.
  const answer = (request: Request, reply: Reply | Response, route?: string, later?: boolean): Response => {
    const response = finish(request, reply, route, later);
    if (request.headers.get("connection")?.toLowerCase().includes("close")) sayClosing(response);
    if (outage.active && response.status !== 503) outage.over();
    return response;
  };
  // A database that cannot be reached answers 503 with Retry-After, and is logged once as a warning
  // with its cause (and once when it answers again), not as a failure of each request.
  const outage = {
    active: false,
    begin(cause: string) {
      if (!this.active) observer.log("warn", "database unavailable", { cause });
      this.active = true;
    },
    over() {
      this.active = false;
      observer.log("info", "database available again");
    },
  };
  const fail = (request: Request, error: unknown, route: string | undefined, code?: unknown): Response => {
    if (error instanceof HttpError) return answer(request, errorReply(error), route);
    if (isStoreUnavailable(error)) {
      outage.begin(unavailableCause(error));
      return answer(request, errorReply(new HttpError(503, ERRORS.serviceUnavailable, { "retry-after": String(RETRY_AFTER_UNAVAILABLE_S) })), route);
    }
    observer.log("error", "unhandled", { code, error: String((error as Error)?.stack ?? error) });
    return answer(request, errorReply(new HttpError(500, ERRORS.internal)), route);
  };
  const begin = (request: Request) => {
    observer.begin(request);
    if (config.trustProxy && pathOf(request.url) !== "/healthz") checkForwardedProto(request, config);
  };
  const endpoints = new EndpointTable();
  const deps: Deps = { config, store, auth, responder: { reply: answer, fail }, endpoints };
  healthRoutes(deps);
  for (const version of [2, 1] as const) {
    batchRoutes(deps, version);
    recipeRoutes(deps, version);
    inventoryRoutes(deps, version);
  }
  batchAdditionRoutes(deps);
  readingRoutes(deps);
  deviceApiRoutes(deps);
  webhookRoutes(deps);
  // The logging endpoints go in a table of their own for the logging listener, and in the API's.
  const logging = new EndpointTable();
  loggingRoutes({ ...deps, endpoints: logging });
  for (const route of logging.routes) endpoints.add(route, logging.byRoute[route.path]![route.method]!);
  return { deps, endpoints, logging, begin, beginLogging: (request) => observer.begin(request), finish: answer, fail };
}

/** A request as Bun.serve's own router hands it over, with its route's parameters. */
export type RoutedRequest = Request & { params: Record<string, string> };

/** Bun.serve's `routes`: a handler per route pattern and method. */
export type NativeRoutes = Record<string, Record<string, (request: RoutedRequest) => Awaitable<Response>>>;

/** Marks a response as the connection's last; a Response with immutable headers (made by `Response.redirect`) is left as it is. */
function sayClosing(response: Response): void {
  try {
    response.headers.set("connection", "close");
  } catch {
    // Bun closes the connection all the same.
  }
}

/** The API's endpoints for Bun.serve's own router, each after the first hook. */
export function nativeRoutes({ endpoints, begin, fail }: Pick<Api, "endpoints" | "begin" | "fail">): NativeRoutes {
  const routes: NativeRoutes = {};
  for (const [route, methods] of Object.entries(endpoints.byRoute)) {
    const handlers: NativeRoutes[string] = (routes[route] = {});
    for (const [method, endpoint] of Object.entries(methods)) {
      handlers[method] = (request) => {
        try {
          begin(request);
        } catch (error) {
          return fail(request, error, undefined);
        }
        return endpoint({ request, params: request.params });
      };
    }
  }
  return routes;
}

/** In memory for one process; in the database when the store counts for every process on it. */
export function newRateLimiter(config: Config, store?: Store): Limiter {
  const limits = { 1: config.rateLimitV1PerHour, 2: config.rateLimitV2PerHour };
  return store && isSharedRateCounter(store) ? new SharedRateLimiter(limits, store) : new RateLimiter(limits);
}
