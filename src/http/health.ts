import type { Deps } from "./deps.ts";
import { ApiRoutes } from "./endpoint.ts";
import { jsonText } from "./errors.ts";

/**
 * `GET /healthz`: no authentication, nothing secret; 503 when the database does not answer. An
 * endpoint like the API's, so a container's health checks reach it through Bun's router without
 * loading the pages and Elysia (src/server.ts).
 */
export function healthRoutes(deps: Deps): void {
  new ApiRoutes(deps, { tag: "Operations" }).get(
    "/healthz",
    {
      answer: "reply",
      doc: {
        summary: "Health",
        description: "No authentication. Status and database reachability; nothing secret.",
        responses: {
          "200": { description: "Healthy", content: { "application/json": { schema: { type: "object", properties: { status: { type: "string" }, database: { type: "string" } } } } } },
          "503": { description: "The database does not answer" },
        },
      },
    },
    async () => {
      const database = await deps.store.ping();
      return jsonText(JSON.stringify({ database: database ? "ok" : "unreachable", status: database ? "ok" : "degraded" }), database ? 200 : 503);
    },
  );
}
