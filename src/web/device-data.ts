import { findItem, settingsOf } from "../devices/items.ts";
import { deviceKey, type DeviceType } from "../devices/parse.ts";
import type { Doc } from "../lib/json.ts";
import type { Store } from "../store/types.ts";
import type { AttachedDevice, BatchDevicesView } from "./pages/batch-devices.ts";
import { batchTitle } from "./pages/batches.ts";

// The devices both device pages show, read from the store: the account's devices with the batch each
// feeds, and a batch's own.

/** The account's devices, each with the name of the batch it feeds. */
export async function devicesWithBatches(store: Store, userId: string) {
  const devices = await store.devices(userId);
  const names = new Map<string, string | undefined>();
  for (const id of new Set(devices.flatMap((d) => (d.batchId === null ? [] : [d.batchId])))) {
    const doc = await store.get(userId, "batch", id);
    names.set(id, doc === undefined ? undefined : batchTitle(JSON.parse(doc) as Doc));
  }
  return devices.map((d) => ({ ...d, batchName: d.batchId === null ? undefined : names.get(d.batchId) }));
}

/**
 * A batch's devices: those feeding it, with the offsets of the batch's item for each (the ones their
 * posts use), and the account's others, to attach.
 */
export async function batchDevices(store: Store, userId: string, batchId: string, doc: Doc): Promise<Omit<BatchDevicesView, "outcome" | "refused">> {
  const all = await devicesWithBatches(store, userId);
  const attached: AttachedDevice[] = all
    .filter((d) => d.batchId === batchId)
    .map(({ batchName: _, ...d }) => ({ ...d, offsets: settingsOf(findItem(doc, d.type as DeviceType, deviceKey(d.name))) }));
  return { attached, others: all.filter((d) => d.batchId !== batchId) };
}
