import type { DeviceType } from "../../devices/parse.ts";
import { isPlainObject } from "../../lib/json.ts";
import { dateTimeUtc } from "../chart-scale.ts";
import { ago, formatSg, formatTemp, num, text } from "../format.ts";
import { html, type Html } from "../html.ts";

// A device's last values, as both device pages show them: the settings' list of every device and the
// batch page's devices. Values come from a `lastData` (README, Devices): SG, °C and PSI.

export const DEVICE_LABEL: Record<DeviceType, string> = { iSpindel: "iSpindel", tilt: "Tilt", stream: "Custom Stream" };

/** A device as both pages name it in a form: `<type>/<name>` (a name holds no `/`, docs/decisions.md, Devices). */
export const deviceRef = (d: { type: string; name: string }) => `${d.type}/${d.name}`;

/** An id for the page's elements of one device: names may hold spaces, ids may not. */
export const deviceDomId = (prefix: string, d: { type: string; name: string }) => `${prefix}-${d.type}-${Buffer.from(d.name.toUpperCase()).toString("hex")}`;

const VALUES: Array<[key: string, label: string, format: (v: number) => string]> = [
  ["sg", "Gravity", formatSg],
  ["temp", "Temperature", formatTemp],
  ["auxTemp", "Fridge", formatTemp],
  ["extTemp", "Room", formatTemp],
  ["pressure", "Pressure", (v) => `${v.toFixed(1)} PSI`],
  ["ph", "pH", (v) => v.toFixed(2)],
  ["bpm", "Bubbles", (v) => `${v} per min`],
  ["battery", "Battery", (v) => `${v.toFixed(2)} V`],
  ["angle", "Angle", (v) => `${v.toFixed(1)}°`],
  ["rssi", "Signal", (v) => `${v} dBm`],
];

/** When the device last stored a post, and what it sent. */
export function lastValues(device: { lastLog: number | null; lastData: unknown }, now: number): Html {
  if (device.lastLog === null) return html`<p class="device-when">No post stored yet.</p>`;
  const data = isPlainObject(device.lastData) ? device.lastData : {};
  const shown = VALUES.flatMap(([key, label, format]) => {
    const v = num(data[key]);
    return v === undefined ? [] : [html`<div><dt>${label}</dt><dd>${format(v)}</dd></div>`];
  });
  const comment = text(data.comment);
  return html`<p class="device-when">Last post <time datetime="${new Date(device.lastLog).toISOString()}">${dateTimeUtc(device.lastLog)}</time> (${ago(device.lastLog, now)})</p>
${shown.length ? html`<dl class="device-values">${shown}</dl>` : ""}${comment ? html`<p class="device-comment">${comment}</p>` : ""}`;
}
