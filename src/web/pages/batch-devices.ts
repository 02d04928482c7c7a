import type { ItemSettings } from "../../devices/items.ts";
import type { DeviceType } from "../../devices/parse.ts";
import type { DeviceRecord } from "../../store/types.ts";
import { html, type Html } from "../html.ts";
import { DEVICE_LABEL, deviceDomId, deviceRef, lastValues } from "./device-values.ts";

// A batch's devices on its page: each attached device with its last values (brought up to date while
// the page is open, static/live.js), its calibration offsets and Detach; then Attach for the account's
// other devices. The forms go through the same functions and rules as the API's device sub-resource.

export interface AttachedDevice extends DeviceRecord {
  /** The batch item's offsets (null for none). */
  offsets: ItemSettings;
}

export interface BatchDevicesView {
  attached: AttachedDevice[];
  /** The account's devices feeding another batch or none, with the name of the batch they feed. */
  others: ReadonlyArray<DeviceRecord & { batchName?: string }>;
  /** After a form: what it did. */
  outcome?: "attached" | "detached" | "saved";
  /** A refused form: the device it named (`type/name`; "attach" for Attach, "section" for none listed), the message, and the box it refuses. */
  refused?: { device: string; message: string; field?: "gravityOffset" | "tempOffset"; posted?: URLSearchParams };
}

const OUTCOME = { attached: "Device attached: its new posts go to this batch.", detached: "Device detached: its new posts are kept with the device.", saved: "Offsets saved: they apply to the device's next posts." };

const typeLabel = (d: { type: string }) => DEVICE_LABEL[d.type as DeviceType] ?? d.type;

/** One device's last post and values: the part of the page static/live.js replaces. */
export function deviceNow(d: DeviceRecord, now: number): Html {
  return html`<div class="device-now" id="${deviceDomId("now", d)}">${lastValues(d, now)}</div>`;
}

const OFFSET_FIELDS = [
  ["gravityOffset", "Gravity offset", "SG points (0.001), −100 to 100"],
  ["tempOffset", "Temperature offset", "°C, −20 to 20"],
] as const;

function offsetBox(d: AttachedDevice, field: (typeof OFFSET_FIELDS)[number], view: BatchDevicesView): Html {
  const [name, label, unit] = field;
  const id = deviceDomId(name, d);
  const refused = view.refused?.device === deviceRef(d) ? view.refused : undefined;
  const invalid = refused?.field === name;
  const value = refused?.posted?.get(name) ?? (d.offsets[name] === null ? "" : String(d.offsets[name]));
  return html`<div class="field"><label for="${id}">${label}</label>
<input id="${id}" name="${name}" type="text" inputmode="decimal" autocomplete="off" value="${value}" aria-describedby="${id}-hint${invalid ? ` ${deviceDomId("error", d)}` : ""}"${invalid ? html` aria-invalid="true"` : ""}>
<span class="hint" id="${id}-hint">${unit}; empty for none</span></div>`;
}

function attachedDevice(d: AttachedDevice, view: BatchDevicesView, batchId: string, csrf: string, now: number): Html {
  const ref = deviceRef(d);
  const refused = view.refused?.device === ref ? view.refused : undefined;
  const action = (what: string) => `/batches/${encodeURIComponent(batchId)}/devices/${what}`;
  return html`<li class="device">
<h3>${d.name} <span class="sub">${typeLabel(d)}</span></h3>
${deviceNow(d, now)}
${refused ? html`<p class="error" role="alert" id="${deviceDomId("error", d)}">${refused.message}</p>` : ""}
<form method="post" action="${action("offsets")}" class="offsets">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="device" value="${ref}">
<fieldset><legend>Calibration of ${d.name}</legend>
${OFFSET_FIELDS.map((f) => offsetBox(d, f, view))}
<p class="actions"><button type="submit">Save offsets</button></p>
</fieldset>
</form>
<form method="post" action="${action("detach")}" class="detach">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="device" value="${ref}">
<button type="submit" class="secondary">Detach ${d.name}</button>
</form>
</li>`;
}

function attachForm(view: BatchDevicesView, batchId: string, csrf: string): Html {
  if (view.others.length === 0) {
    return html`<p id="attach-none">No other device has posted to this account. A device shows up here after its first post: see <a href="/settings/devices">Settings › Devices</a> for the URLs.</p>`;
  }
  const refused = view.refused?.device === "attach" ? view.refused : undefined;
  const chosen = refused?.posted?.get("device");
  const option = (d: (typeof view.others)[number]) =>
    html`<option value="${deviceRef(d)}"${chosen === deviceRef(d) ? html` selected` : ""}>${d.name} (${typeLabel(d)}), ${d.batchId === null ? "attached to no batch" : `feeds ${d.batchName ?? d.batchId}`}</option>`;
  return html`${refused ? html`<p class="error" role="alert" id="attach-error">${refused.message}</p>` : ""}
<form method="post" action="/batches/${encodeURIComponent(batchId)}/devices/attach" class="attach">
<input type="hidden" name="csrf" value="${csrf}">
<label for="attach-device">Device</label>
<select id="attach-device" name="device">${view.others.map(option)}</select>
<button type="submit">Attach</button>
</form>
<p class="hint">A device feeds one batch: attaching moves it here. Its earlier readings stay where they are.</p>`;
}

export function devicesSection(view: BatchDevicesView, batchId: string, csrf: string, now: number): Html {
  // A refusal shows beside the form that was sent; one about no form on the page, above them all.
  const placed = view.refused?.device === "attach" || view.attached.some((d) => deviceRef(d) === view.refused?.device);
  return html`<section aria-labelledby="devices-heading">
<h2 id="devices-heading">Devices</h2>
${view.outcome ? html`<p class="notice" role="status" id="devices-outcome">${OUTCOME[view.outcome]}</p>` : ""}
${view.refused && !placed ? html`<p class="error" role="alert" id="devices-error">${view.refused.message}</p>` : ""}
${view.attached.length
    ? html`<ul class="devices" id="batch-devices">${view.attached.map((d) => attachedDevice(d, view, batchId, csrf, now))}</ul>`
    : html`<p id="batch-devices">No device feeds this batch.</p>`}
<h3 id="attach-heading">Attach a device</h3>
${attachForm(view, batchId, csrf)}
</section>`;
}
