import { swagger } from "@elysiajs/swagger";
import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { DOCUMENTATION } from "./document.ts";

/**
 * `/swagger/json`: @elysiajs/swagger serving the document built in document.ts. Every path is described
 * there; none is generated from the routes. Loaded with the first request for it (src/openapi/routes.ts).
 */
export const specApp = new Elysia({ name: "openapi-spec" }).use(
  swagger({
    path: "/swagger",
    specPath: "/swagger/json",
    documentation: DOCUMENTATION(pkg.version) as never,
    exclude: [/./],
  }),
);
