import { Elysia, NotFoundError } from "elysia";
import type { Deps } from "../http/deps.ts";
import type { Web } from "./guard.ts";
import { redirect } from "./layout.ts";
import { webOptions, type WebOptions } from "./options.ts";
import { WebSessions } from "./sessions.ts";
import { lazy } from "../lib/lazy.ts";

// The pages themselves (templates, the chart, password checks) load with the first page asked for.
const account = lazy(() => import("./account.ts"));
const settings = lazy(() => import("./settings.ts"));
const batches = lazy(() => import("./batches.ts"));
const recipes = lazy(() => import("./recipes.ts"));
const inventory = lazy(() => import("./inventory.ts"));
const devices = lazy(() => import("./devices.ts"));
const batchDevices = lazy(() => import("./batch-devices.ts"));
import { SignInThrottle } from "./throttle.ts";

// The pages a person uses in a browser: sign-in, settings (the API key, devices), batches, recipes and inventory. Everything
// they need is served from here: one stylesheet and a few small scripts, no external font, script or CDN.

const ASSETS: Record<string, { file: string; type: string }> = {
  "style.css": { file: "static/style.css", type: "text/css; charset=utf-8" },
  "copy.js": { file: "static/copy.js", type: "text/javascript; charset=utf-8" },
  "chart.js": { file: "static/chart.js", type: "text/javascript; charset=utf-8" },
  "live.js": { file: "static/live.js", type: "text/javascript; charset=utf-8" },
  "icon.svg": { file: "static/icon.svg", type: "image/svg+xml" },
};

const assetCache = new Map<string, Promise<string>>();

async function asset(name: string): Promise<Response> {
  const entry = ASSETS[name];
  if (!entry) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  let body = assetCache.get(name);
  if (!body) assetCache.set(name, (body = Bun.file(new URL(entry.file, import.meta.url)).text()));
  return new Response(await body, { headers: { "content-type": entry.type, "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" } });
}

/**
 * The client's address for the sign-in throttle. Behind a trusted proxy (TRUST_PROXY=1) it is the
 * last X-Forwarded-For entry, the one the proxy itself appended; a client can forge only earlier ones.
 */
export function clientAddress(request: Request, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress ?? "unknown";
}

/**
 * The pages answer browsers: requests that accept HTML (browsers and curl say so in `Accept`). Other
 * requests on these paths, such as an API client that left out `/v2`, get the API's own 404.
 */
export function acceptsHtml(request: Request): boolean {
  const accept = request.headers.get("accept");
  return accept !== null && /(^|[\s,])(text\/html|application\/xhtml\+xml|\*\/\*)\s*(;|,|$)/i.test(accept);
}

export function webRoutes({ store, config }: Pick<Deps, "store" | "config">, options: WebOptions = webOptions(config)) {
  const web: Web = { store, options, sessions: new WebSessions(store, options), throttle: new SignInThrottle(options.now) };
  return new Elysia({ name: "web" })
    .get("/static/:name", ({ params }) => asset(params.name))
    // JSON for the batch page's own script, which asks for JSON: before the pages' HTML-only rule.
    .get("/batches/:id/live", async ({ request, params }) => (await batchDevices()).getLive(web, request, params.id))
    .onBeforeHandle({ as: "local" }, ({ request }) => {
      if (!acceptsHtml(request)) throw new NotFoundError();
    })
    .get("/", async ({ request }) => {
      const visitor = await web.sessions.visitor(request);
      return redirect(visitor.state === "signed-in" ? "/batches" : "/signin");
    })
    .get("/signin", async ({ request }) => (await account()).getSignIn(web, request))
    .post(
      "/signin",
      async ({ request, server }) => (await account()).postSignIn(web, request, clientAddress(request, server?.requestIP(request)?.address, config.trustProxy)),
      { parse: "none" },
    )
    .post("/signout", async ({ request }) => (await account()).postSignOut(web, request), { parse: "none" })
    .get("/settings", async ({ request }) => (await settings()).getSettings(web, request))
    .post("/settings/api-key", async ({ request }) => (await settings()).postApiKey(web, request), { parse: "none" })
    .get("/settings/devices", async ({ request }) => (await devices()).getDevices(web, request))
    .post("/settings/logging-id", async ({ request }) => (await devices()).postLoggingId(web, request), { parse: "none" })
    .post("/settings/webhooks", async ({ request }) => (await settings()).postWebhookForm(web, request), { parse: "none" })
    .post("/settings/webhooks/:id/delete", async ({ request, params }) => (await settings()).postWebhookDeleteForm(web, request, params.id), { parse: "none" })
    .post("/settings/webhooks/:id/test", async ({ request, params }) => (await settings()).postWebhookTestForm(web, request, params.id), { parse: "none" })
    .post("/settings/webhooks/:id/change", async ({ request, params }) => (await settings()).postWebhookChangeForm(web, request, params.id), { parse: "none" })
    .post("/settings/webhooks/:id/secret", async ({ request, params }) => (await settings()).postWebhookSecretForm(web, request, params.id), { parse: "none" })
    .get("/batches", async ({ request }) => (await batches()).getBatchList(web, request))
    .get("/batches/:id", async ({ request, params }) => (await batches()).getBatch(web, request, params.id))
    .post("/batches/:id/measured", async ({ request, params }) => (await batches()).postMeasured(web, request, params.id), { parse: "none" })
    .post("/batches/:id/devices/attach", async ({ request, params }) => (await batchDevices()).postAttach(web, request, params.id), { parse: "none" })
    .post("/batches/:id/devices/detach", async ({ request, params }) => (await batchDevices()).postDetach(web, request, params.id), { parse: "none" })
    .post("/batches/:id/devices/offsets", async ({ request, params }) => (await batchDevices()).postOffsets(web, request, params.id), { parse: "none" })
    .get("/recipes", async ({ request }) => (await recipes()).getRecipeList(web, request))
    .get("/recipes/:id", async ({ request, params }) => (await recipes()).getRecipe(web, request, params.id))
    .get("/inventory", async ({ request }) => (await inventory()).getInventory(web, request))
    .get("/inventory/:collection", async ({ request, params }) => (await inventory()).getCollection(web, request, params.collection))
    .post("/inventory/:collection/:id/stock", async ({ request, params }) => (await inventory()).postStock(web, request, params.collection, params.id), {
      parse: "none",
    });
}
