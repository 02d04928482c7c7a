import { EVENT_TYPES } from "../../webhooks/events.ts";
import type { NewWebhook, RotatedSecret, WebhookView } from "../../webhooks/service.ts";
import { dateTimeUtc } from "../chart-scale.ts";
import { html, type Html } from "../html.ts";

// Settings › Webhooks: the account's subscriptions with their state and last deliveries, a form to
// make one (its secret shown once), and for each a form to change its url and events and buttons to
// send it a test event, to give it a new secret (shown once) and to delete it (README, "Webhooks").

const EVENT_MEANING: Record<(typeof EVENT_TYPES)[number], string> = {
  "batch.created": "a batch is created",
  "batch.updated": "a batch changes (its status, measured values, …)",
  "batch.deleted": "a batch is deleted",
  "reading.created": "a reading is added, from a device or the API",
  "recipe.created": "a recipe is created",
  "recipe.updated": "a recipe changes",
  "recipe.deleted": "a recipe is deleted",
  "inventory.created": "an inventory item is created",
  "inventory.updated": "an inventory item changes",
  "inventory.deleted": "an inventory item is deleted",
  "inventory.negative": "an item's stock goes below zero",
};

export interface WebhooksSectionView {
  csrf: string;
  hooks: WebhookView[];
  created?: NewWebhook & { url: string };
  /** A subscription's new secret after a rotation, shown once. */
  rotated?: RotatedSecret & { url: string };
  /** The subscription just sent a test event, and the event's `webhook-id`. */
  tested?: { id: string; eventId: string };
  /** The subscription whose change was just posted: saved, or refused with why and what was posted. */
  changed?: { id: string; error?: string; url?: string; checked?: readonly string[] };
  error?: string;
  /** What was posted after an error. */
  url?: string;
  checked?: readonly string[];
}

const when = (iso: string) => html`<time datetime="${iso}">${dateTimeUtc(Date.parse(iso))}</time>`;

function deliveries(hook: WebhookView): Html {
  if (!hook.lastDeliveries.length) return html`<p class="hint">No delivery yet.</p>`;
  return html`<p>Last deliveries, newest first:</p>
<ol class="deliveries">${hook.lastDeliveries.map(
    (d) => html`<li>${when(d.at)} <code>${d.type}</code>: ${d.status === null ? "no answer" : html`HTTP ${d.status}`} in ${d.durationMs} ms${d.detail ? html` <span class="hint">(${d.detail})</span>` : ""}</li>`,
  )}</ol>`;
}

/** A checkbox for each event type, ids starting with `prefix`; `long` labels say what each means. */
function eventBoxes(prefix: string, checked: ReadonlySet<string>, long: boolean): Html {
  return html`<ul class="scope-boxes">${EVENT_TYPES.map((e) => {
    const id = `${prefix}-${e.replace(".", "-")}`;
    return html`<li><input type="checkbox" id="${id}" name="event" value="${e}"${checked.has(e) ? html` checked` : ""}>
<label for="${id}"><code>${e}</code>${long ? html` ${EVENT_MEANING[e]}` : ""}</label></li>`;
  })}</ul>`;
}

/** The form changing a subscription's url and events, folded away unless a change was just refused. */
function changeForm(hook: WebhookView, csrf: string, changed?: WebhooksSectionView["changed"]): Html {
  const refused = changed?.error !== undefined;
  return html`<details class="change"${refused ? html` open` : ""}>
<summary>Change where it goes or what it sends</summary>
${refused ? html`<p class="error" role="alert">${changed!.error}</p>` : ""}
<form method="post" action="/settings/webhooks/${hook.id}/change">
<input type="hidden" name="csrf" value="${csrf}">
<p><label for="change-url-${hook.id}">Send to (https URL)</label>
<input type="url" id="change-url-${hook.id}" name="url" required value="${refused ? (changed!.url ?? "") : hook.url}"></p>
<fieldset><legend>Events</legend>
${eventBoxes(`change-${hook.id}`, new Set(refused ? (changed!.checked ?? []) : hook.events), false)}
</fieldset>
<p><button type="submit" aria-label="Save changes to the webhook to ${hook.url}">Save changes</button></p>
</form>
</details>`;
}

function subscription(hook: WebhookView, csrf: string, testedEvent?: string, changed?: WebhooksSectionView["changed"]): Html {
  const failing = hook.state === "failing";
  return html`<li class="card webhook" id="webhook-${hook.id}">
${changed && changed.error === undefined ? html`<p class="saved" role="status">Changes saved.</p>` : ""}
<p><code class="webhook-url">${hook.url}</code></p>
<p class="webhook-state">${failing ? html`<strong class="notice">Failing</strong> since ${when(hook.failingSince!)}: an event was given up after a day of retries.` : "Active."} ${hook.pending} waiting to be delivered.</p>
<p>Events: ${hook.events.map((e, i) => html`${i ? ", " : ""}<code>${e}</code>`)}</p>
${deliveries(hook)}
${testedEvent ? html`<p class="test-sent" role="status">A test event (<code>${testedEvent}</code>) is on its way; reload to see how it went.</p>` : ""}
${changeForm(hook, csrf, changed)}
<form method="post" action="/settings/webhooks/${hook.id}/test" class="inline">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" aria-label="Send a test event to ${hook.url}">Send a test event</button>
</form>
<form method="post" action="/settings/webhooks/${hook.id}/secret" class="inline">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" aria-label="New secret for the webhook to ${hook.url}">New secret</button>
</form>
<form method="post" action="/settings/webhooks/${hook.id}/delete" class="inline">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" aria-label="Delete the webhook to ${hook.url}">Delete</button>
</form>
</li>`;
}

function createdSecret(created: NewWebhook & { url: string }, previousUntil?: string): Html {
  return html`<section class="new-key" aria-labelledby="new-webhook-heading">
<h3 id="new-webhook-heading">${previousUntil ? "The webhook's new secret" : "Your new webhook's secret"}</h3>
<p role="status">Copy it now: it is shown only this once. Receivers verify each delivery with it (Standard Webhooks).${
    previousUntil ? html` Until ${when(previousUntil)} deliveries are signed with the previous secret too, so receivers can move to this one without missing any.` : ""
  }</p>
<p><label for="new-webhook-secret">Secret for ${created.url}</label>
<input id="new-webhook-secret" class="api-key" type="text" readonly value="${created.secret}" spellcheck="false">
<button type="button" class="copy" data-copy="new-webhook-secret" hidden>Copy secret</button> <span class="copy-status" aria-live="polite"></span></p>
</section>`;
}

/** The webhooks a new one is added beside, as the page showed them: their ids. */
export const hooksTag = (hooks: readonly { id: string }[]): string => hooks.map((h) => h.id).join(" ");

export function webhooksSection(view: WebhooksSectionView): Html {
  const checked = new Set(view.checked ?? []);
  return html`<section aria-labelledby="webhooks-heading">
<h2 id="webhooks-heading">Webhooks</h2>
<p>brewrecords can tell your programs when something changes, instead of them asking every few minutes.</p>
${view.created ? createdSecret(view.created) : ""}
${view.rotated ? createdSecret(view.rotated, view.rotated.previousSecretUntil) : ""}
${view.hooks.length ? html`<ul class="webhooks">${view.hooks.map((h) => subscription(h, view.csrf, view.tested?.id === h.id ? view.tested.eventId : undefined, view.changed?.id === h.id ? view.changed : undefined))}</ul>` : html`<p id="no-webhooks">No webhooks yet.</p>`}
<h3>Add a webhook</h3>
${view.error ? html`<p class="error" role="alert" id="webhook-error">${view.error}</p>` : ""}
<form method="post" action="/settings/webhooks" class="card">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="beside" value="${hooksTag(view.hooks)}">
<p><label for="webhook-url">Receiver URL (https)</label>
<input type="url" id="webhook-url" name="url" required value="${view.url ?? ""}" placeholder="https://example.com/hooks/brewing"></p>
<fieldset><legend>Events to send</legend>
${eventBoxes("event", checked, true)}
</fieldset>
<p><button type="submit" id="add-webhook">Add webhook</button></p>
</form>
</section>`;
}
