import { HttpError } from "../http/errors.ts";
import { createWebhook, deleteWebhook, listWebhooks, sendTestEvent } from "../webhooks/service.ts";
import { signedInPost, type Web } from "./guard.ts";
import type { Viewer } from "./layout.ts";
import type { WebhooksSectionView } from "./pages/settings-webhooks.ts";

// The settings page's webhook forms: add one (its secret shown on this answer only), send one a test
// event, and delete one.
// The signed-in owner of the account may subscribe to every event (a key's scopes limit the API's
// subscriptions, not the owner's). The page answers with the whole settings page (settings.ts).

export type SettingsWithHooks = (viewer: Viewer, hooks: WebhooksSectionView, status?: number) => Promise<Response>;

export async function webhooksView(web: Web, viewer: Viewer, extra: Partial<WebhooksSectionView> = {}): Promise<WebhooksSectionView> {
  return { csrf: viewer.csrf, hooks: await listWebhooks(web.store, viewer.userId), ...extra };
}

export async function postWebhook(web: Web, request: Request, page: SettingsWithHooks): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, form } = posted;
  const url = form.get("url") ?? "";
  const events = form.getAll("event");
  try {
    const created = await createWebhook(web.store, viewer.userId, ["batches.read", "recipes.read", "inventory.read"], { url, events }, web.options.webhookAllowHosts ?? []);
    return page(viewer, await webhooksView(web, viewer, { created: { ...created, url } }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const message = events.length ? error.body : "Choose at least one event.";
    return page(viewer, await webhooksView(web, viewer, { error: message, url, checked: events }), 400);
  }
}

export async function postWebhookTest(web: Web, request: Request, id: string, page: SettingsWithHooks): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer } = posted;
  try {
    const { eventId } = await sendTestEvent(web.store, viewer.userId, id);
    return page(viewer, await webhooksView(web, viewer, { tested: { id, eventId } }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return page(viewer, await webhooksView(web, viewer, { error: "That webhook no longer exists." }), 404);
  }
}

export async function postWebhookDelete(web: Web, request: Request, id: string, page: SettingsWithHooks): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer } = posted;
  try {
    await deleteWebhook(web.store, viewer.userId, id);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return page(viewer, await webhooksView(web, viewer, { error: "That webhook no longer exists." }), 404);
  }
  return page(viewer, await webhooksView(web, viewer));
}
