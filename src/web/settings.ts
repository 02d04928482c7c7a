import { isScope, SCOPES, type Scope } from "../lib/scopes.ts";
import { issueApiKey } from "../store/keys.ts";
import { sentForAnotherState, signedInPost, viewerOf, type Web } from "./guard.ts";
import { html } from "./html.ts";
import { page, type Viewer } from "./layout.ts";
import { keyTag, settingsMain, type SettingsView } from "./pages/settings.ts";
import { webhooksSection, type WebhooksSectionView } from "./pages/settings-webhooks.ts";
import { isSecureRequest } from "./session.ts";
import { postWebhook, postWebhookChange, postWebhookDelete, postWebhookSecret, postWebhookTest, webhooksView } from "./webhooks.ts";

/** Why a key form was refused when sent for a key that has been replaced since. */
export const KEY_SENT_AGAIN =
  "This form was sent before, or the key changed since the page was shown: no key was generated, and the key shown when it was first sent still works. Generate again to replace it.";

function settingsPage(view: SettingsView, viewer: Viewer, hooks: WebhooksSectionView, status = 200): Response {
  const main = html`${settingsMain(view)}
${webhooksSection(hooks)}`;
  return page({ title: "Settings", section: "settings", viewer, main, scripts: view.created || hooks.created ? ["copy.js"] : [] }, status);
}

/** The settings page after a webhook form: the key as it stands, the webhooks as the form left them. */
const withHooks = (web: Web) => async (viewer: Viewer, hooks: WebhooksSectionView, status = 200) =>
  settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current: await web.store.getApiKey(viewer.userId) }, viewer, hooks, status);

export const postWebhookForm = (web: Web, request: Request) => postWebhook(web, request, withHooks(web));
export const postWebhookDeleteForm = (web: Web, request: Request, id: string) => postWebhookDelete(web, request, id, withHooks(web));
export const postWebhookTestForm = (web: Web, request: Request, id: string) => postWebhookTest(web, request, id, withHooks(web));
export const postWebhookChangeForm = (web: Web, request: Request, id: string) => postWebhookChange(web, request, id, withHooks(web));
export const postWebhookSecretForm = (web: Web, request: Request, id: string) => postWebhookSecret(web, request, id, withHooks(web));

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
  return settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current }, viewer, await webhooksView(web, viewer));
}

export async function postApiKey(web: Web, request: Request): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, form } = posted;
  const chosen = form.getAll("scope");
  const refuse = async (error: string, status = 400) =>
    settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current: await web.store.getApiKey(viewer.userId), checked: chosen.filter(isScope), error }, viewer, await webhooksView(web, viewer), status);
  if (sentForAnotherState(form, "replaces", keyTag(await web.store.getApiKey(viewer.userId)))) return refuse(KEY_SENT_AGAIN, 409);

  const version = form.get("apiVersion");
  if (version !== null && version !== "2") return refuse("Version 1 keys cannot be generated here. Existing version 1 keys keep working until they are replaced.");
  const unknown = chosen.filter((s) => !isScope(s));
  if (unknown.length) return refuse(`Unknown scope: ${unknown.join(", ")}.`);
  if (chosen.length === 0) return refuse("Choose at least one scope.");

  const scopes = SCOPES.filter((s) => chosen.includes(s));
  const key = await issueApiKey(web.store, viewer.userId, scopes, 2);
  const current = await web.store.getApiKey(viewer.userId);
  const created = { key, curl: curlExample(baseUrl(request), viewer.userId, key, scopes) };
  return settingsPage({ userId: viewer.userId, csrf: viewer.csrf, current, created }, viewer, await webhooksView(web, viewer));
}
