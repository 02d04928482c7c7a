import { Elysia } from "elysia";
import { batchRoutes } from "./batches/routes.ts";
import type { Config } from "./config.ts";
import { Authenticator } from "./http/auth.ts";
import { CallHeaders } from "./http/call-headers.ts";
import type { Deps } from "./http/deps.ts";
import { badRequest, ERRORS, errorReply, HttpError, Reply } from "./http/errors.ts";
import { missingIdScope } from "./http/fallback.ts";
import { healthRoutes } from "./http/health.ts";
import { Observer } from "./http/observe.ts";
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
  const fail = (request: Request, error: unknown, route?: string, code?: unknown): Response => {
    if (error instanceof HttpError) return finish(request, errorReply(error), route);
    observer.log("error", "unhandled", { code, error: String((error as Error)?.stack ?? error) });
    return finish(request, errorReply(new HttpError(500, ERRORS.internal)), route);
  };
  const deps: Deps = { config, store, auth, responder: { reply: finish, fail } };
  // The API routes answer for themselves (src/http/endpoint.ts) and come before the hooks, which
  // Elysia would otherwise compile into each of them; the hooks serve the unmatched, the pages and
  // the documentation.
  // Elysia takes the path from request.url, searching for its first "/" from a fixed index. Its default
  // (11) assumes "https://" and a host of 3+ characters: over plain HTTP (loopback, or behind a proxy)
  // a host such as "nas" or "pi" had every route answer 404. Plain HTTP searches from just after
  // "http://", which is right for every host (docs/decisions.md).
  return new Elysia({ handler: { standardHostname: Boolean(config.tls) } })
    .onRequest(({ request }) => {
      observer.begin(request);
      if (config.trustProxy && pathOf(request.url) !== "/healthz") checkForwardedProto(request, config);
    })
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
}

export type App = ReturnType<typeof createApp>;

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
