import { Elysia } from "elysia";
import { batchRoutes } from "./batches/routes.ts";
import type { Config } from "./config.ts";
import { Authenticator } from "./http/auth.ts";
import { CallHeaders } from "./http/call-headers.ts";
import type { Deps } from "./http/deps.ts";
import { badRequest, ERRORS, errorReply, HttpError, Reply } from "./http/errors.ts";
import { missingIdScope } from "./http/fallback.ts";
import { EndpointTable } from "./http/endpoint.ts";
import { healthRoutes } from "./http/health.ts";
import { Observer } from "./http/observe.ts";
import type { Awaitable } from "./lib/awaitable.ts";
import { isSharedRateCounter, RateLimiter, SharedRateLimiter, type Limiter } from "./http/rate-limit.ts";
import { checkForwardedProto } from "./http/transport.ts";
import { pathOf } from "./http/url.ts";
import { inventoryRoutes } from "./inventory/routes.ts";
import { openApiRoutes } from "./openapi/routes.ts";
import { recipeRoutes } from "./recipes/routes.ts";
import type { Store } from "./store/types.ts";
import { webRoutes } from "./web/routes.ts";

/**
 * The whole HTTP application. Tests drive it in process with `app.handle(new Request(…))`; the
 * server process serves the same object (src/server.ts), passing the rate limiter it persists.
 */
export function createApp(config: Config, store: Store, limiter = newRateLimiter(config, store), observer = new Observer(config)) {
  return buildApp(config, store, limiter, observer).app;
}

/** A request as Bun.serve's own router hands it over, with its route's parameters. */
export type RoutedRequest = Request & { params: Record<string, string> };

/** Bun.serve's `routes`: a handler per route pattern and method. */
export type NativeRoutes = Record<string, Record<string, (request: RoutedRequest) => Awaitable<Response>>>;

/**
 * The app, and its API endpoints for Bun.serve's own router. A request the router matches goes
 * straight to its endpoint after the app's first hook (request id, forwarded protocol): no Elysia
 * routing, context or composed handler, so a start composes none of them before its first answer.
 * What the router does not match (a trailing slash, another method, the pages) is Elysia's, which
 * routes the API too. Both answer alike, HEAD and escaped paths included (test/http/routers.test.ts).
 */
export function servedApp(config: Config, store: Store, limiter: Limiter): { app: App; routes: NativeRoutes } {
  const { app, endpoints, begin, fail } = buildApp(config, store, limiter, new Observer(config));
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
  return { app, routes };
}

function buildApp(config: Config, store: Store, limiter: Limiter, observer: Observer) {
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
  // A refusal is its own answer; anything else is a defect: logged, its message never leaked.
  const fail = (request: Request, error: unknown, route: string | undefined, code?: unknown): Response => {
    if (error instanceof HttpError) return finish(request, errorReply(error), route);
    observer.log("error", "unhandled", { code, error: String((error as Error)?.stack ?? error) });
    return finish(request, errorReply(new HttpError(500, ERRORS.internal)), route);
  };
  const endpoints = new EndpointTable();
  const deps: Deps = { config, store, auth, responder: { reply: finish, fail }, endpoints };
  // The first hook of every request, whichever router found its route.
  const begin = (request: Request) => {
    observer.begin(request);
    if (config.trustProxy && pathOf(request.url) !== "/healthz") checkForwardedProto(request, config);
  };
  // The API routes answer for themselves (src/http/endpoint.ts) and come before the hooks, which
  // Elysia would otherwise compile into each of them; the hooks serve the unmatched, the pages and
  // the documentation.
  // Elysia takes the path from request.url, searching for its first "/" from a fixed index. Its default
  // (11) assumes "https://" and a host of 3+ characters: over plain HTTP (loopback, or behind a proxy)
  // a host such as "nas" or "pi" had every route answer 404. Plain HTTP searches from just after
  // "http://", which is right for every host (docs/decisions.md).
  const app = new Elysia({ handler: { standardHostname: Boolean(config.tls) } })
    .onRequest(({ request }) => begin(request))
    .use(batchRoutes(deps, 2))
    .use(recipeRoutes(deps, 2))
    .use(inventoryRoutes(deps, 2))
    .use(batchRoutes(deps, 1))
    .use(recipeRoutes(deps, 1))
    .use(inventoryRoutes(deps, 1))
    .onError(async ({ code, error, request, route }) => {
      if (code === "NOT_FOUND") return finish(request, errorReply(await unmatched(deps, request)));
      if (code === "PARSE") return finish(request, errorReply(badRequest(ERRORS.invalidJson)), route);
      return fail(request, error, route, code);
    })
    .mapResponse(({ request, response, route }) =>
      response instanceof Reply || response instanceof Response ? finish(request, response, route) : undefined,
    )
    .use(healthRoutes(deps))
    .use(openApiRoutes())
    .use(webRoutes(deps));
  return { app, endpoints, begin, fail };
}

export type App = ReturnType<typeof buildApp>["app"];

/** In memory for one process; in the database when the store counts for every process on it. */
export function newRateLimiter(config: Config, store?: Store): Limiter {
  const limits = { 1: config.rateLimitV1PerHour, 2: config.rateLimitV2PerHour };
  return store && isSharedRateCounter(store) ? new SharedRateLimiter(limits, store) : new RateLimiter(limits);
}

/** No route matched: `Missing ID` for a one-record operation with an empty id, else 404. */
async function unmatched(deps: Deps, request: Request): Promise<HttpError> {
  const need = missingIdScope(request.method, pathOf(request.url));
  if (!need) return new HttpError(404, ERRORS.notFound);
  try {
    await deps.auth.authorize(request, need.scope, need.version);
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  return badRequest(ERRORS.missingId);
}
