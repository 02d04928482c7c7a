import type { Doc } from "../lib/json.ts";
import type { DeviceRecord } from "../store/types.ts";
import { findItem, itemSettings, placeItem, removeItem, settingsOf, type ItemSettings } from "./items.ts";
import { deviceKey, type DeviceType } from "./parse.ts";

// Attaching and detaching a device (README, Beyond the hosted API): the store moves the device and
// hands each batch document it touches to `editBatch`, built here, inside the same transaction.

/**
 * Edits for attaching `device` to a batch: the batch it leaves loses its item (the store edits it
 * first); the batch it joins gets one (or keeps its own), with the offsets of the item there, else of
 * the item it left, else the device's, and `given` over them.
 */
export function attachEdits(device: DeviceRecord & { type: DeviceType }, given: Partial<ItemSettings>) {
  const key = deviceKey(device.name);
  let joined: Doc | undefined;
  let left: ItemSettings | undefined;
  const editBatch = (batch: Doc, attached: boolean): Doc => {
    if (!attached) {
      const item = findItem(batch, device.type, key);
      if (item) left = settingsOf(item);
      return removeItem(batch, device.type, key) ?? batch;
    }
    const existing = findItem(batch, device.type, key);
    const settings = { ...(existing ? settingsOf(existing) : (left ?? itemSettings(device.settings))), ...given };
    const source = { type: device.type, key, name: device.name, lastLog: device.lastLog, lastData: device.lastData, settings };
    const next = placeItem(batch, source, { batchId: String(batch._id), settings });
    joined = findItem(next, device.type, key);
    return next;
  };
  /** The joined batch's item, as written. */
  return { editBatch, item: () => joined };
}

/** Edits for detaching: the batch left loses the device's item. */
export function detachEdit(type: DeviceType, name: string) {
  return (batch: Doc): Doc => removeItem(batch, type, deviceKey(name)) ?? batch;
}
