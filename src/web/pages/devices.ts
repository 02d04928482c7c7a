import type { DeviceType } from "../../devices/parse.ts";
import type { DeviceRecord, LoggingIdRecord } from "../../store/types.ts";
import { dateTimeUtc } from "../chart-scale.ts";
import { duration } from "../format.ts";
import { html, type Html } from "../html.ts";
import { DEVICE_LABEL, lastValues } from "./device-values.ts";

// Settings › Devices (README, Devices): the account's logging id, shown only when made or regenerated
// (it is kept as a digest, as the `logging-id` command does it), the URLs to paste into a device, and
// every device seen with its last values and the batch it feeds.

export interface LoggingUrl {
  type: DeviceType;
  /** On the main listener, and on LOGGING_PORT's plain-HTTP listener where it is set. */
  urls: string[];
}

export interface DevicesView {
  csrf: string;
  current?: LoggingIdRecord;
  /** The id just made: shown on this one response only. */
  created?: { id: string; regenerated: boolean };
  urls: LoggingUrl[];
  loggingPort?: number;
  /** LOGGING_MIN_INTERVAL_SECONDS. */
  minIntervalSeconds: number;
  devices: ReadonlyArray<DeviceRecord & { batchName?: string }>;
  now: number;
  error?: string;
}

const SENDERS: Record<DeviceType, string> = {
  iSpindel: "iSpindel / GravityMon: service HTTP, with server, port and path taken from this URL; end the device's name in [SG] when it reports SG, otherwise gravity is read as °P.",
  tilt: "Tilt (TiltPi, TiltBridge): the Cloud URL; the Tilt's colour is the device.",
  stream: "Custom Stream (Fermentrack, CraftBeerPi, Node-RED, scripts): POST JSON with a name and values.",
};

function createdId(created: NonNullable<DevicesView["created"]>): Html {
  return html`<section class="new-key" aria-labelledby="new-id-heading">
<h3 id="new-id-heading">Your ${created.regenerated ? "new " : ""}logging id</h3>
<p role="status">Copy it now: it is shown only this once; the URLs below carry it.${created.regenerated ? " The previous logging id no longer works." : ""}</p>
<p><label for="new-logging-id">Logging id</label>
<input id="new-logging-id" class="api-key" type="text" readonly value="${created.id}" spellcheck="false">
<button type="button" class="copy" data-copy="new-logging-id" hidden>Copy logging id</button> <span class="copy-status" aria-live="polite"></span></p>
</section>`;
}

function loggingIdSection(view: DevicesView): Html {
  const { current } = view;
  const state = current
    ? html`<p id="logging-id-state">This account's logging id was made <time datetime="${new Date(current.createdAt).toISOString()}">${dateTimeUtc(current.createdAt)}</time>. It is kept only as a digest, so it cannot be shown again.</p>`
    : html`<p id="logging-id-state">This account has no logging id yet. Devices need it to post here: make one below.</p>`;
  const confirm = current
    ? html`<p><input type="checkbox" id="confirm-regenerate" name="confirm" value="yes" required aria-describedby="regenerate-warning">
<label for="confirm-regenerate">Devices using the current logging id stop being accepted at once</label></p>
<p class="warning" id="regenerate-warning">Every device must then be given the new id.</p>`
    : "";
  return html`<section aria-labelledby="logging-id-heading">
<h2 id="logging-id-heading">Logging id</h2>
${view.created ? createdId(view.created) : state}
${view.error ? html`<p class="error" role="alert" id="logging-id-error">${view.error}</p>` : ""}
${view.created ? "" : html`<form method="post" action="/settings/logging-id" class="card">
<input type="hidden" name="csrf" value="${view.csrf}">
${confirm}<p><button type="submit" id="make-logging-id">${current ? "Regenerate logging id" : "Make logging id"}</button></p>
</form>`}
</section>`;
}

function urlsSection(view: DevicesView): Html {
  return html`<section aria-labelledby="urls-heading">
<h2 id="urls-heading">URLs for your devices</h2>
<p>Paste the URL for the device's kind into its settings.${view.created ? "" : html` Each carries the account's logging id in place of <code>&lt;logging id&gt;</code>.`}</p>
<dl class="logging-urls">${view.urls.map(
    (u) => html`<dt>${DEVICE_LABEL[u.type]}</dt><dd><ul>${u.urls.map((url) => html`<li><code class="url">${url}</code></li>`)}</ul><p class="hint">${SENDERS[u.type]}</p></dd>`,
  )}</dl>
${view.loggingPort
    ? html`<p class="hint">The second URL of each is the plain-HTTP listener on port ${view.loggingPort} (<code>LOGGING_PORT</code>), for devices that cannot speak TLS.</p>`
    : ""}
<p class="hint" id="logging-interval">${view.minIntervalSeconds
    ? html`One post per device is stored every ${duration(view.minIntervalSeconds * 1000)} (<code>LOGGING_MIN_INTERVAL_SECONDS</code>); posts between are answered and not stored.`
    : html`Every post is stored (<code>LOGGING_MIN_INTERVAL_SECONDS</code> is 0).`}</p>
</section>`;
}

function deviceRow(d: DevicesView["devices"][number], now: number): Html {
  const feeds = d.batchId === null
    ? html`<p class="device-batch">Attached to no batch: its posts are kept with the device. Attach it on a batch's page.</p>`
    : html`<p class="device-batch">Feeds <a href="/batches/${encodeURIComponent(d.batchId)}">${d.batchName ?? d.batchId}</a>.</p>`;
  return html`<li class="device">
<h3>${d.name} <span class="sub">${DEVICE_LABEL[d.type as DeviceType] ?? d.type}</span></h3>
${lastValues(d, now)}
${feeds}
</li>`;
}

export function devicesMain(view: DevicesView): Html {
  return html`<p class="crumbs"><a href="/settings">Settings</a></p>
<h1>Devices</h1>
<p>Hydrometers and controllers post their readings here as they would to the hosted service: give the device the URL for its kind, then attach it to a batch on the batch's page.</p>
${loggingIdSection(view)}
${urlsSection(view)}
<section aria-labelledby="seen-heading">
<h2 id="seen-heading">Devices seen</h2>
${view.devices.length
    ? html`<ul class="devices" id="devices-seen">${view.devices.map((d) => deviceRow(d, view.now))}</ul>`
    : html`<p id="devices-seen">No device has posted to this account yet. One shows up here after its first post.</p>`}
</section>`;
}
