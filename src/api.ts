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
import { pathOf } from "./http/url.ts";
import { inventoryRoutes } from "./inventory/routes.ts";
import type { Awaitable } from "./lib/awaitable.ts";
import { recipeRoutes } from "./recipes/routes.ts";
import type { Store } from "./store/types.ts";

// The API without any HTTP framework: its endpoints, the first hook every request passes, and how an
// answer or a failure becomes the Response with every header. The app (src/app.ts) routes it with
// Elysia beside the pages and the documentation; the server process (src/server.ts) also hands the
// endpoints to Bun.serve's own router, and loads Elysia only for the first request that needs it.

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
  const auth = new Authenticator(store, limiter);
  // Clients that reached us over HTTPS keep to it (HSTS, RFC 6797).
  const callHeaders = new CallHeaders(config.tls || config.trustProxy ? { "strict-transport-security": "max-age=31536000" } : {});
  // Every response tells the client its request id and, for a counted call, its remaining budget. An
  // API Reply becomes a Response here, with all its headers at once; a Response (web pages, the API
  // documentation) gets them added.
  const finish = (request: Request, reply: Reply | Response, route?: string): Response => {
    // A response that passed this way before (an error mapped, then mapped again) has them already.
    const call = observer.end(request, reply.status, route);
    if (reply instanceof Reply) {
      const headers = call ? callHeaders.forAnswer(reply.type, call) : { "content-type": reply.type };
      const response = new Response(reply.body, { status: reply.status, headers });
      // An answer's own fields (Retry-After and the spent budget of a 429, say) are rare: set one by one.
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) response.headers.set(k, v);
      return response;
    }
    if (call) callHeaders.addTo(reply.headers, call);
    return reply;
  };
  const fail = (request: Request, error: unknown, route: string | undefined, code?: unknown): Response => {
    if (error instanceof HttpError) return finish(request, errorReply(error), route);
    observer.log("error", "unhandled", { code, error: String((error as Error)?.stack ?? error) });
    return finish(request, errorReply(new HttpError(500, ERRORS.internal)), route);
  };
  const begin = (request: Request) => {
    observer.begin(request);
    if (config.trustProxy && pathOf(request.url) !== "/healthz") checkForwardedProto(request, config);
  };
  const endpoints = new EndpointTable();
  const deps: Deps = { config, store, auth, responder: { reply: finish, fail }, endpoints };
  for (const version of [2, 1] as const) {
    batchRoutes(deps, version);
    recipeRoutes(deps, version);
    inventoryRoutes(deps, version);
  }
  deviceApiRoutes(deps);
  healthRoutes(deps);
  const logging = new EndpointTable();
  loggingRoutes({ ...deps, endpoints: logging });
  for (const [route, methods] of Object.entries(logging.byRoute)) {
    for (const [method, endpoint] of Object.entries(methods)) endpoints.add(method, route, endpoint);
  }
  return { deps, endpoints, logging, begin, beginLogging: (request) => observer.begin(request), finish, fail };
}

/** A request as Bun.serve's own router hands it over, with its route's parameters. */
export type RoutedRequest = Request & { params: Record<string, string> };

/** Bun.serve's `routes`: a handler per route pattern and method. */
export type NativeRoutes = Record<string, Record<string, (request: RoutedRequest) => Awaitable<Response>>>;

/**
 * The API's endpoints for Bun.serve's own router. A request it matches goes straight to its endpoint
 * after the first hook: no Elysia routing, context or composed handler. What it does not match (a
 * trailing slash, another method, the pages) is the app's, which routes the API too; both answer
 * alike, HEAD and escaped paths included (test/http/routers.test.ts).
 */
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
