import { swagger } from "@elysiajs/swagger";
import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import type { Route } from "../http/endpoint.ts";
import { DOCUMENTATION } from "./document.ts";

/**
 * `/swagger/json`: @elysiajs/swagger serving the document built in document.ts from the API's route
 * table (none of it is inferred by the plugin). Loaded with the first request for it (src/openapi/routes.ts).
 */
export function specApp(routes: readonly Route[]) {
  return new Elysia({ name: "openapi-spec" }).use(
    swagger({
      path: "/swagger",
      specPath: "/swagger/json",
      documentation: DOCUMENTATION(pkg.version, routes) as never,
      exclude: [/./],
    }),
  );
}
