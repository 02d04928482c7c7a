import { Elysia } from "elysia";
import { batchRoutes } from "./batches/routes.ts";
import type { Config } from "./config.ts";
import { Authenticator } from "./http/auth.ts";
import type { Deps } from "./http/deps.ts";
import { badRequest, ERRORS, errorResponse, HttpError } from "./http/errors.ts";
import { missingIdScope } from "./http/fallback.ts";
import { healthRoutes } from "./http/health.ts";
import { Observer } from "./http/observe.ts";
import { isSharedRateCounter, RateLimiter, rateHeaders, SharedRateLimiter, type Limiter } from "./http/rate-limit.ts";
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
  const deps: Deps = { config, store, auth };
  // Every response tells the client its request id and, for a counted call, its remaining budget.
  const finish = (request: Request, response: Response, route?: string) => {
    const state = auth.rateOf.get(request);
    if (state) for (const [k, v] of Object.entries(rateHeaders(state))) response.headers.set(k, v);
    // Clients that reached us over HTTPS keep to it (HSTS, RFC 6797).
    if (config.tls || config.trustProxy) response.headers.set("strict-transport-security", "max-age=31536000");
    const userId = auth.userOf.get(request);
    if (userId) observer.identify(request, userId);
    return observer.finish(request, response, route);
  };
  return new Elysia()
    .onRequest(({ request }) => {
      observer.begin(request);
      if (pathOf(request.url) !== "/healthz") checkForwardedProto(request, config);
    })
    .onError(async ({ code, error, request, route }) => {
      if (error instanceof HttpError) return finish(request, errorResponse(error), route);
      if (code === "NOT_FOUND") return finish(request, errorResponse(await unmatched(deps, request)));
      if (code === "PARSE") return finish(request, errorResponse(badRequest(ERRORS.invalidJson)), route);
      // Anything else is a defect: log it, never leak its message to the client.
      observer.log("error", "unhandled", { code, error: String((error as Error)?.stack ?? error) });
      return finish(request, errorResponse(new HttpError(500, ERRORS.internal)), route);
    })
    .mapResponse(({ request, response, route }) => (response instanceof Response ? finish(request, response, route) : undefined))
    .use(healthRoutes(deps))
    .use(openApiRoutes())
    .use(batchRoutes(deps, 2))
    .use(recipeRoutes(deps, 2))
    .use(inventoryRoutes(deps, 2))
    .use(batchRoutes(deps, 1))
    .use(recipeRoutes(deps, 1))
    .use(inventoryRoutes(deps, 1))
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
