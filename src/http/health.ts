import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { jsonText } from "./errors.ts";

/** `GET /healthz`: no authentication, nothing secret; 503 when the database does not answer. */
export function healthRoutes({ store }: Deps) {
  return new Elysia({ name: "health" }).get("/healthz", async () => {
    const database = await store.ping();
    return jsonText(JSON.stringify({ database: database ? "ok" : "unreachable", status: database ? "ok" : "degraded" }), database ? 200 : 503);
  });
}
