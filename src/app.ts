import { Elysia } from "elysia";
import { batchRoutes } from "./batches/routes.ts";
import type { Config } from "./config.ts";
import { Authenticator } from "./http/auth.ts";
import type { Deps } from "./http/deps.ts";
import { badRequest, ERRORS, errorResponse, HttpError } from "./http/errors.ts";
import { missingIdScope } from "./http/fallback.ts";
import { pathOf } from "./http/url.ts";
import type { Store } from "./store/types.ts";

/**
 * The whole HTTP application. Tests drive it in process with `app.handle(new Request(…))`; the
 * server process serves the same object.
 */
export function createApp(config: Config, store: Store) {
  const deps: Deps = { config, store, auth: new Authenticator(store) };
  return new Elysia()
    .onError(async ({ code, error, request }) => {
      if (error instanceof HttpError) return errorResponse(error);
      if (code === "NOT_FOUND") return errorResponse(await unmatched(deps, request));
      if (code === "PARSE") return errorResponse(badRequest(ERRORS.invalidJson));
      // Anything else is a defect: log it, never leak its message to the client.
      console.error(JSON.stringify({ level: "error", msg: "unhandled", code, error: String((error as Error)?.stack ?? error) }));
      return errorResponse(new HttpError(500, ERRORS.internal));
    })
    .use(batchRoutes(deps));
}

export type App = ReturnType<typeof createApp>;

/** No route matched: `Missing ID` for a one-record operation with an empty id, else 404. */
async function unmatched(deps: Deps, request: Request): Promise<HttpError> {
  const scope = missingIdScope(request.method, pathOf(request.url));
  if (!scope) return new HttpError(404, ERRORS.notFound);
  try {
    await deps.auth.authorize(request.headers.get("authorization"), scope);
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  return badRequest(ERRORS.missingId);
}
