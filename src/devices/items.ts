import { isPlainObject, type Doc } from "../lib/json.ts";
import { deviceKey, type DeviceType } from "./parse.ts";

// A batch's devices as the hosted service keeps them (batch `devices`): one entry per device type,
// `{enabled, items: [...]}`, an item `{name, key, type, batchId, enabled, hidden, series, lastLog,
// lastData, settings: {gravityOffset, tempOffset}}`. An item names its device by `key` or `name`.

/** Offsets as a batch item holds them (null for none; the store keeps 0 for none). */
export interface ItemSettings {
  /** Added to every gravity, in SG points (0.001). */
  gravityOffset: number | null;
  /** Added to every temperature, in °C. */
  tempOffset: number | null;
}

export const NO_OFFSETS: ItemSettings = { gravityOffset: null, tempOffset: null };

/** The store's offsets (0 for none) as an item's. */
export function itemSettings(s: { gravityOffset: number; tempOffset: number } | undefined): ItemSettings {
  return { gravityOffset: s?.gravityOffset || null, tempOffset: s?.tempOffset || null };
}

/** An item's offsets as the store keeps them. */
export function storedSettings(s: ItemSettings): { gravityOffset: number; tempOffset: number } {
  return { gravityOffset: s.gravityOffset ?? 0, tempOffset: s.tempOffset ?? 0 };
}

/** A device as an item of a batch shows it. */
export interface ItemSource {
  type: DeviceType;
  key: string;
  name: string;
  lastLog: number | null;
  lastData: Doc | null;
  settings: ItemSettings;
}

function itemsOf(batch: Doc, type: DeviceType): Doc[] | undefined {
  const devices = batch.devices;
  if (!isPlainObject(devices)) return undefined;
  const entry = devices[type];
  if (!isPlainObject(entry) || !Array.isArray(entry.items)) return undefined;
  return entry.items.filter(isPlainObject);
}

const names = (item: Doc, key: string) =>
  item.key === key || (typeof item.key === "string" && deviceKey(item.key) === key) || (typeof item.name === "string" && deviceKey(item.name) === key);

/** The batch's item for a device, when the batch holds one. */
export function findItem(batch: Doc, type: DeviceType, key: string): Doc | undefined {
  return itemsOf(batch, type)?.find((item) => names(item, key));
}

/** An item's offsets (numbers or null; anything else counts as none). */
export function settingsOf(item: Doc | undefined): ItemSettings {
  const s = item && isPlainObject(item.settings) ? item.settings : {};
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return { gravityOffset: num(s.gravityOffset), tempOffset: num(s.tempOffset) };
}

export function newItem(device: ItemSource, batchId: string): Doc {
  return {
    name: device.name,
    key: device.key,
    type: device.type,
    batchId,
    enabled: true,
    hidden: false,
    series: device.type === "stream" ? ["gravity", "temp", "pressure"] : ["gravity", "temp"],
    lastLog: device.lastLog,
    lastData: device.lastData,
    settings: { ...device.settings },
  };
}

/** A copy of the batch with `change` applied to its items of one type (the entry made when missing). */
function withItems(batch: Doc, type: DeviceType, change: (items: Doc[]) => Doc[]): Doc {
  const devices = isPlainObject(batch.devices) ? batch.devices : {};
  const entry = isPlainObject(devices[type]) ? devices[type] : { enabled: true };
  const items = Array.isArray(entry.items) ? entry.items.filter(isPlainObject) : [];
  return { ...batch, devices: { ...devices, [type]: { ...entry, items: change(items) } } };
}

/** The batch with the device's item: merged into the one there (its own fields kept), or added. */
export function placeItem(batch: Doc, device: ItemSource, patch: Doc): Doc {
  const batchId = String(batch._id);
  return withItems(batch, device.type, (items) => {
    const i = items.findIndex((item) => names(item, device.key));
    if (i === -1) return [...items, { ...newItem(device, batchId), ...patch }];
    const next = items.slice();
    next[i] = { ...items[i], ...patch };
    return next;
  });
}

/** The batch without the device's item; undefined when it holds none. */
export function removeItem(batch: Doc, type: DeviceType, key: string): Doc | undefined {
  if (!findItem(batch, type, key)) return undefined;
  return withItems(batch, type, (items) => items.filter((item) => !names(item, key)));
}
