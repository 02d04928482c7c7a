import { HttpError } from "../http/errors.ts";
import { READ_SCOPES } from "../lib/scopes.ts";
import { createWebhook, deleteWebhook, listWebhooks, rotateSecret, sendTestEvent, updateWebhook } from "../webhooks/service.ts";
import { sentForAnotherState, signedInPost, type Web } from "./guard.ts";
import type { Viewer } from "./layout.ts";
import { hooksTag, type WebhooksSectionView } from "./pages/settings-webhooks.ts";

// The settings page's webhook forms: add one (its secret shown on this answer only), change one's url
// and events, send one a test event, give one a new secret (shown on that answer only), and delete one.
// The signed-in owner of the account may subscribe to every event, as a key with every read scope
// (a key's scopes limit the API's subscriptions, not the owner's). The page answers with the whole settings page (settings.ts).

export type SettingsWithHooks = (viewer: Viewer, hooks: WebhooksSectionView, status?: number) => Promise<Response>;

export async function webhooksView(web: Web, viewer: Viewer, extra: Partial<WebhooksSectionView> = {}): Promise<WebhooksSectionView> {
  return { csrf: viewer.csrf, hooks: await listWebhooks(web.store, viewer.userId), ...extra };
}

const GONE = "That webhook no longer exists.";

/** A signed-in post of a webhook's url and events (the add and change forms). */
async function postedWebhook(web: Web, request: Request): Promise<Response | { viewer: Viewer; url: string; events: string[]; form: URLSearchParams }> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  return { viewer: posted.viewer, url: posted.form.get("url") ?? "", events: posted.form.getAll("event"), form: posted.form };
}

/** Why the form's webhook was refused: the service's text, or a plainer one when no event was checked. */
const refusal = (error: HttpError, events: readonly string[]) => (events.length ? error.body : "Choose at least one event.");

/** Why an add form was refused when sent for a list of webhooks that has changed since. */
export const WEBHOOK_SENT_AGAIN = "This form was sent before, or the webhooks changed since the page was shown: no webhook was added. The list above is the current one.";

export async function postWebhook(web: Web, request: Request, page: SettingsWithHooks): Promise<Response> {
  const posted = await postedWebhook(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, url, events, form } = posted;
  const hooks = await webhooksView(web, viewer);
  if (sentForAnotherState(form, "beside", hooksTag(hooks.hooks))) return page(viewer, { ...hooks, error: WEBHOOK_SENT_AGAIN }, 409);
  try {
    const created = await createWebhook(web.store, viewer.userId, READ_SCOPES, { url, events }, web.options.webhookAllowHosts ?? []);
    return page(viewer, await webhooksView(web, viewer, { created: { ...created, url } }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return page(viewer, await webhooksView(web, viewer, { error: refusal(error, events), url, checked: events }), 400);
  }
}

export async function postWebhookChange(web: Web, request: Request, id: string, page: SettingsWithHooks): Promise<Response> {
  const posted = await postedWebhook(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, url, events } = posted;
  try {
    await updateWebhook(web.store, viewer.userId, READ_SCOPES, id, { url, events }, web.options.webhookAllowHosts ?? []);
    return page(viewer, await webhooksView(web, viewer, { changed: { id } }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.status === 404) return page(viewer, await webhooksView(web, viewer, { error: GONE }), 404);
    return page(viewer, await webhooksView(web, viewer, { changed: { id, error: refusal(error, events), url, checked: events } }), 400);
  }
}

/** A signed-in button on one webhook: `act` does what it says and answers what the page shows after; a webhook gone since is 404. */
async function webhookButton(web: Web, request: Request, page: SettingsWithHooks, act: (viewer: Viewer) => Promise<Partial<WebhooksSectionView>>): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer } = posted;
  let shown: Partial<WebhooksSectionView>;
  try {
    shown = await act(viewer);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return page(viewer, await webhooksView(web, viewer, { error: GONE }), 404);
  }
  return page(viewer, await webhooksView(web, viewer, shown));
}

export const postWebhookSecret = (web: Web, request: Request, id: string, page: SettingsWithHooks) =>
  webhookButton(web, request, page, async (viewer) => {
    const rotated = await rotateSecret(web.store, viewer.userId, READ_SCOPES, id);
    const url = (await listWebhooks(web.store, viewer.userId)).find((w) => w.id === id)?.url ?? "";
    return { rotated: { ...rotated, url } };
  });

export const postWebhookTest = (web: Web, request: Request, id: string, page: SettingsWithHooks) =>
  webhookButton(web, request, page, async (viewer) => ({ tested: { id, ...(await sendTestEvent(web.store, viewer.userId, READ_SCOPES, id)) } }));

export const postWebhookDelete = (web: Web, request: Request, id: string, page: SettingsWithHooks) =>
  webhookButton(web, request, page, async (viewer) => {
    await deleteWebhook(web.store, viewer.userId, READ_SCOPES, id);
    return {};
  });
