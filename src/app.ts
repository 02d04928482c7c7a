import { Elysia } from "elysia";
import { buildApi, newRateLimiter, type Api } from "./api.ts";
import type { Config } from "./config.ts";
import type { Deps } from "./http/deps.ts";
import { badRequest, ERRORS, errorReply, HttpError, Reply } from "./http/errors.ts";
import { missingIdRules, missingIdScope, type MissingIdRule } from "./http/fallback.ts";
import { Observer } from "./http/observe.ts";
import { pathOf } from "./http/url.ts";
import { openApiRoutes } from "./openapi/routes.ts";
import type { Store } from "./store/types.ts";
import { webRoutes } from "./web/routes.ts";

/**
 * The whole HTTP application. Tests drive it in process with `app.handle(new Request(…))`; the
 * server process serves the same app (src/server.ts) over the same API, passing the rate limiter it
 * persists.
 */
export function createApp(config: Config, store: Store, limiter = newRateLimiter(config, store), observer = new Observer(config)) {
  return elysiaAppFor(buildApi(config, store, limiter, observer));
}

/**
 * The Elysia app over an API already built: its endpoints, hooks and rate counts are the API's own.
 * It routes the API as well as the pages and the documentation (why there are two routers: src/api.ts).
 */
export function elysiaAppFor({ deps, endpoints, begin, finish, fail }: Api) {
  // Elysia takes the path from request.url, searching for its first "/" from a fixed index. Its default
  // (11) assumes "https://" and a host of 3+ characters: over plain HTTP (loopback, or behind a proxy)
  // a host such as "nas" or "pi" had every route answer 404. Plain HTTP searches from just after
  // "http://", which is right for every host (docs/decisions.md).
  const missingId = missingIdRules(endpoints.routes);
  const app = new Elysia({ handler: { standardHostname: Boolean(deps.config.tls) } }).onRequest(({ request }) => begin(request));
  // The API routes answer for themselves and come before the hooks, which Elysia would otherwise
  // compile into each of them; the hooks serve the unmatched, the pages and the documentation.
  for (const [route, methods] of Object.entries(endpoints.byRoute)) {
    for (const [method, endpoint] of Object.entries(methods)) app.route(method, route, endpoint);
  }
  return app
    .onError(async ({ code, error, request, route }) => {
      if (code === "NOT_FOUND") return finish(request, errorReply(await unmatched(deps, missingId, request)));
      if (code === "PARSE") return finish(request, errorReply(badRequest(ERRORS.invalidJson)), route);
      return fail(request, error, route, code);
    })
    .mapResponse(({ request, response, route }) =>
      response instanceof Reply || response instanceof Response ? finish(request, response, route) : undefined,
    )
    .use(openApiRoutes(endpoints.routes))
    .use(webRoutes(deps));
}

export type App = ReturnType<typeof elysiaAppFor>;

/** No route matched: `Missing ID` for a one-record operation with an empty id, else 404. */
async function unmatched(deps: Deps, rules: readonly MissingIdRule[], request: Request): Promise<HttpError> {
  const need = missingIdScope(rules, request.method, pathOf(request.url));
  if (!need) return new HttpError(404, ERRORS.notFound);
  try {
    await deps.auth.authorize(request, need.scope, need.version);
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  return badRequest(ERRORS.missingId);
}
