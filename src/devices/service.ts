import type { Doc } from "../lib/json.ts";
import { newDevice } from "../store/devices.ts";
import type { Store } from "../store/types.ts";
import { attachEdits, detachEdit } from "./attach.ts";
import { storedSettings, type ItemSettings } from "./items.ts";
import { deviceKey, type DevicePost, type DeviceType } from "./parse.ts";
import { decidePost, type PostResult } from "./rules.ts";

/**
 * Records one device post in one write transaction: the store reads the device and its batch, the
 * rules decide, and the store writes the device, the reading and the batch's item, or nothing. The
 * store appends the reading as it appends every reading (Store.appendReading's way).
 */
export function recordPost(store: Store, userId: string, post: DevicePost, minIntervalSeconds: number, now: () => number = Date.now): Promise<PostResult> {
  // The time is read under the device's lock, so posts are timed in the order they are decided: the
  // one stored first has the earlier time, also when another process took its request earlier.
  return store.devicePost(userId, { type: post.type, name: post.name }, (state) => decidePost(post, state, now(), minIntervalSeconds));
}

/** The body of a stored post: exactly what real senders check for. */
export const STORED_BODY = JSON.stringify({ result: "OK" });

/**
 * The body of a post inside the interval: still `"result":"OK"` (senders that check it would otherwise
 * report a fault for a post the hosted service also just ignores), saying it was not stored and when
 * the next one will be.
 */
export function ignoredBody(retryAfterSeconds: number): string {
  return JSON.stringify({ result: "OK", stored: false, retryAfter: retryAfterSeconds });
}

/**
 * The account's device that a name given by hand (an API path) means: the one of that type and exact
 * name, else the one whose key (the name in capitals, as the hosted service keys a batch's items) is
 * the name's, so `ispindel007` finds the `iSpindel007` that posts; the name as given when none is known.
 */
export async function deviceNamed(store: Store, userId: string, id: { type: DeviceType; name: string }): Promise<{ type: DeviceType; name: string }> {
  if (await store.device(userId, id)) return id;
  const key = deviceKey(id.name);
  const known = (await store.devices(userId)).find((d) => d.type === id.type && deviceKey(d.name) === key);
  return known ? { type: id.type, name: known.name } : id;
}

/**
 * Attaches a device to a batch (moving it from the batch it fed) with the given offsets over those it
 * keeps; the batch's item as written, or undefined when there is no such batch. The API's PUT and the
 * batch page both attach through this.
 */
export async function attachToBatch(store: Store, userId: string, id: { type: DeviceType; name: string }, batchId: string, given: Partial<ItemSettings>): Promise<Doc | undefined> {
  const device = (await store.device(userId, id)) ?? newDevice(id, Date.now());
  const edits = attachEdits({ ...device, type: id.type }, given);
  if (!(await store.attachDevice(userId, id, batchId, edits.editBatch))) return undefined;
  const item = edits.item()!;
  // The device keeps the offsets too, for its posts once it is detached.
  if (Object.keys(given).length) await store.setDeviceSettings(userId, id, storedSettings(item.settings as ItemSettings));
  return item;
}

/** Detaches a device from the batch it feeds; false when it feeds no batch of that id. */
export async function detachFromBatch(store: Store, userId: string, id: { type: DeviceType; name: string }, batchId: string): Promise<boolean> {
  const device = await store.device(userId, id);
  if (!device || device.batchId !== batchId) return false;
  await store.attachDevice(userId, id, null, detachEdit(id.type, id.name));
  return true;
}
