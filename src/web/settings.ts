import { isScope, SCOPES, type Scope } from "../lib/scopes.ts";
import { issueApiKey } from "../store/keys.ts";
import { signedInPost, viewerOf, type Web } from "./guard.ts";
import { page, type Viewer } from "./layout.ts";
import { settingsMain, type SettingsView } from "./pages/settings.ts";
import { isSecureRequest } from "./session.ts";

function settingsPage(view: SettingsView, viewer: Viewer, status = 200): Response {
  return page({ title: "Settings", section: "settings", viewer, main: settingsMain(view), scripts: view.created ? ["copy.js"] : [] }, status);
}

/** The base URL clients of this server use, as the request reached it. */
export function baseUrl(request: Request): string {
  const url = new URL(request.url);
  return `${isSecureRequest(request) ? "https" : "http"}://${url.host}`;
}

/** A first call the new key can make: a list its scopes allow. */
export function curlExample(base: string, userId: string, key: string, scopes: readonly Scope[]): string {
  const path = scopes.includes("batches.read")
    ? "/v2/batches"
    : scopes.includes("recipes.read")
      ? "/v2/recipes"
      : scopes.includes("inventory.read")
        ? "/v2/inventory/fermentables"
        : "/v2/batches";
  // User ids and keys hold no quote (src/cli/commands.ts, src/lib/keys.ts), so single quotes suffice.
  return `curl -u '${userId}:${key}' '${base}${path}'`;
}

export async function getSettings(web: Web, request: Request): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const current = await web.store.getApiKey(viewer.userId);
  return settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current }, viewer);
}

export async function postApiKey(web: Web, request: Request): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, form } = posted;
  const chosen = form.getAll("scope");
  const refuse = async (error: string) =>
    settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current: await web.store.getApiKey(viewer.userId), checked: chosen.filter(isScope), error }, viewer, 400);

  const version = form.get("apiVersion");
  if (version !== null && version !== "2") return refuse("Version 1 keys cannot be generated here. Existing version 1 keys keep working until they are replaced.");
  const unknown = chosen.filter((s) => !isScope(s));
  if (unknown.length) return refuse(`Unknown scope: ${unknown.join(", ")}.`);
  if (chosen.length === 0) return refuse("Choose at least one scope.");

  const scopes = SCOPES.filter((s) => chosen.includes(s));
  const key = await issueApiKey(web.store, viewer.userId, scopes, 2);
  const current = await web.store.getApiKey(viewer.userId);
  const created = { key, curl: curlExample(baseUrl(request), viewer.userId, key, scopes) };
  return settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current, created }, viewer);
}
