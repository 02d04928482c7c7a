import { READ_SCOPES, SCOPES, type Scope } from "../../lib/scopes.ts";
import type { ApiKeyRecord } from "../../store/types.ts";
import { dateTimeUtc } from "../chart-scale.ts";
import { html, type Html } from "../html.ts";

// Settings › API (API document, Authentication): one key per account, scopes chosen when generating
// (a key's scopes are fixed: a new key is how it gains one), and version 1 keys cannot be generated
// any more (Versioning).

const SCOPE_MEANING: Record<Scope, string> = {
  "recipes.read": "read recipes",
  "recipes.write": "create and edit recipes",
  "recipes.delete": "delete recipes",
  "batches.read": "read batches with their readings and brew tracker",
  "batches.write": "edit batches",
  "batches.delete": "delete batches",
  "inventory.read": "read inventory",
  "inventory.write": "create and edit inventory",
  "inventory.delete": "delete inventory",
};

export interface NewKey {
  key: string;
  curl: string;
}

export interface SettingsView {
  userId: string;
  csrf: string;
  current?: ApiKeyRecord;
  /** The key just generated: shown on this one response only. */
  created?: NewKey;
  /** Boxes to tick: what was posted after an error, else defaultScopes. */
  checked?: readonly string[];
  error?: string;
}

/** What the key form replaces, as its page showed it: the current key's time of making, or `none`. */
export const keyTag = (key: ApiKeyRecord | undefined): string => (key ? String(key.createdAt) : "none");

/** Boxes ticked for a new key: the current version 2 key's scopes, else reading only, the safe start. */
export function defaultScopes(key: ApiKeyRecord | undefined): readonly string[] {
  return key?.apiVersion === 2 ? key.scopes : READ_SCOPES;
}

const sentence = (scopes: readonly Scope[]) => scopes.map((s) => SCOPE_MEANING[s]).join("; ");

// What the key can do, said plainly. Scopes left out were chosen so: nothing here calls that a fault.
function currentKey(key: ApiKeyRecord | undefined): Html {
  if (!key) return html`<p id="key-state">This account has no API key yet. Choose what it may do below and press Generate key.</p>`;
  const can = SCOPES.filter((s) => key.scopes.includes(s));
  const cannot = SCOPES.filter((s) => !key.scopes.includes(s));
  return html`<div id="key-state">
<p>Current key: version ${key.apiVersion}, created <time datetime="${new Date(key.createdAt).toISOString()}">${dateTimeUtc(key.createdAt)}</time>. The key itself is never shown again after it was generated.</p>
${key.apiVersion === 1 ? html`<p class="notice">This is a version 1 key for the deprecated <code>/v1</code> API. Version 1 keys cannot be generated here: Generate key replaces it with a version 2 key.</p>` : ""}
<p id="key-can">It can ${can.length === SCOPES.length ? "do everything: " : ""}${sentence(can)}.</p>
${cannot.length ? html`<p id="key-cannot">It cannot ${sentence(cannot)}. A key's scopes are fixed: to change them, generate a new key.</p>` : ""}
<ul class="scopes" id="current-scopes">${key.scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul>
</div>`;
}

function createdKey(created: NewKey): Html {
  return html`<section class="new-key" aria-labelledby="new-key-heading">
<h3 id="new-key-heading">Your new API key</h3>
<p role="status">Copy it now: it is shown only this once. The previous key no longer works.</p>
<p><label for="new-key">API key</label>
<input id="new-key" class="api-key" type="text" readonly value="${created.key}" spellcheck="false">
<button type="button" class="copy" data-copy="new-key" hidden>Copy key</button></p>
<p>Try it:</p>
<pre><code id="curl-example">${created.curl}</code></pre>
<p><button type="button" class="copy" data-copy="curl-example" hidden>Copy command</button> <span class="copy-status" aria-live="polite"></span></p>
</section>`;
}

function scopeBox(scope: Scope, checked: boolean): Html {
  const id = `scope-${scope.replace(".", "-")}`;
  return html`<li><input type="checkbox" id="${id}" name="scope" value="${scope}"${checked ? html` checked` : ""}>
<label for="${id}"><code>${scope}</code> ${SCOPE_MEANING[scope]}</label></li>`;
}

export function settingsMain(view: SettingsView): Html {
  const checked = new Set(view.checked ?? defaultScopes(view.current));
  return html`<h1>Settings</h1>
<section aria-labelledby="api-heading">
<h2 id="api-heading">API</h2>
<dl class="facts"><dt>User id</dt><dd><code id="settings-user-id">${view.userId}</code></dd></dl>
${view.created ? createdKey(view.created) : ""}
${currentKey(view.current)}
<h3>Generate a key</h3>
${view.error ? html`<p class="error" role="alert" id="generate-error">${view.error}</p>` : ""}
<form method="post" action="/settings/api-key" class="card">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="replaces" value="${keyTag(view.current)}">
<fieldset><legend>What the new key may do</legend>
<ul class="scope-boxes">${SCOPES.map((s) => scopeBox(s, checked.has(s)))}</ul>
</fieldset>
<p class="warning">One key per account: generating replaces the current key at once, and programs using it stop working. Version 1 keys cannot be generated here.</p>
<p><button type="submit" id="generate">Generate key</button></p>
</form>
</section>
<section aria-labelledby="devices-heading">
<h2 id="devices-heading">Devices</h2>
<p>Hydrometers and controllers that post their readings here: the logging id, the URLs to paste into a device, and every device seen, under <a href="/settings/devices" id="devices-link">Settings › Devices</a>.</p>
</section>`;
}
