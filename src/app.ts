import { Elysia } from "elysia";
import { batchRoutes } from "./batches/routes.ts";
import type { Config } from "./config.ts";
import { Authenticator } from "./http/auth.ts";
import type { Deps } from "./http/deps.ts";
import { badRequest, ERRORS, errorResponse, HttpError } from "./http/errors.ts";
import { missingIdScope } from "./http/fallback.ts";
import { RateLimiter, rateHeaders } from "./http/rate-limit.ts";
import { pathOf } from "./http/url.ts";
import { inventoryRoutes } from "./inventory/routes.ts";
import { recipeRoutes } from "./recipes/routes.ts";
import type { Store } from "./store/types.ts";

/**
 * The whole HTTP application. Tests drive it in process with `app.handle(new Request(…))`; the
 * server process serves the same object (src/server.ts), passing the rate limiter it persists.
 */
export function createApp(config: Config, store: Store, limiter = newRateLimiter(config)) {
  const auth = new Authenticator(store, limiter);
  const deps: Deps = { config, store, auth };
  // Every response to a counted call tells the client its remaining budget.
  const withRate = (request: Request, response: Response) => {
    const state = auth.rateOf.get(request);
    if (state) for (const [k, v] of Object.entries(rateHeaders(state))) response.headers.set(k, v);
    return response;
  };
  return new Elysia()
    .onError(async ({ code, error, request }) => {
      if (error instanceof HttpError) return withRate(request, errorResponse(error));
      if (code === "NOT_FOUND") return withRate(request, errorResponse(await unmatched(deps, request)));
      if (code === "PARSE") return errorResponse(badRequest(ERRORS.invalidJson));
      // Anything else is a defect: log it, never leak its message to the client.
      console.error(JSON.stringify({ level: "error", msg: "unhandled", code, error: String((error as Error)?.stack ?? error) }));
      return errorResponse(new HttpError(500, ERRORS.internal));
    })
    .mapResponse(({ request, response }) => (response instanceof Response ? withRate(request, response) : undefined))
    .use(batchRoutes(deps, 2))
    .use(recipeRoutes(deps, 2))
    .use(inventoryRoutes(deps, 2))
    .use(batchRoutes(deps, 1))
    .use(recipeRoutes(deps, 1))
    .use(inventoryRoutes(deps, 1));
}

export type App = ReturnType<typeof createApp>;

export function newRateLimiter(config: Config): RateLimiter {
  return new RateLimiter({ 1: config.rateLimitV1PerHour, 2: config.rateLimitV2PerHour });
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
