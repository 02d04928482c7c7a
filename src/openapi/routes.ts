import { Elysia } from "elysia";
import type { Route } from "../http/endpoint.ts";
import { lazy } from "../lib/lazy.ts";

// `/swagger/json` comes from @elysiajs/swagger with the document built in document.ts (spec.ts). Both
// need every schema, which the API's first requests do not: they are loaded with the first request for
// the document. The plugin's own page loads its viewer from a CDN and is blank on a server without
// internet, so `/swagger` is served here with Swagger UI's files from the installed swagger-ui-dist.

// Found in the installed package when first asked for: a start does not wait on the lookup.
let uiPackage: URL | undefined;
const uiFile = (name: string) => new URL(name, (uiPackage ??= Bun.pathToFileURL(Bun.resolveSync("swagger-ui-dist/package.json", import.meta.dir))));
const ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
};

const INIT = `window.addEventListener("load", function () {
  // validatorUrl null: the viewer would otherwise send the document to an outside validator.
  window.ui = SwaggerUIBundle({ url: "/swagger/json", dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>brewrecords API</title>
  <link rel="stylesheet" href="/swagger/assets/swagger-ui.css">
  <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger/assets/swagger-ui-bundle.js"></script>
  <script src="/swagger/assets/init.js"></script>
</body>
</html>
`;

const SELF_ONLY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'";

export function openApiRoutes(routes: readonly Route[]) {
  const spec = lazy(async () => (await import("./spec.ts")).specApp(routes));
  return new Elysia({ name: "openapi" })
    .get("/swagger/json", async ({ request }) => (await spec()).handle(request), { detail: { hide: true } })
    .get("/swagger", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": SELF_ONLY } }), { detail: { hide: true } })
    .get("/swagger/assets/init.js", () => new Response(INIT, { headers: { "content-type": "text/javascript; charset=utf-8" } }), { detail: { hide: true } })
    .get(
      "/swagger/assets/:file",
      ({ params }) => {
        const asset = ASSETS[params.file];
        if (!asset) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
        return new Response(Bun.file(uiFile(asset.file)), { headers: { "content-type": asset.type, "cache-control": "public, max-age=86400" } });
      },
      { detail: { hide: true } },
    );
}
