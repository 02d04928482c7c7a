import { canonicalJson, isPlainObject, type Doc } from "../lib/json.ts";
import type { DeviceId, DeviceRecord, DeviceSettings } from "./types.ts";

// Devices as both stores keep them: what a batch document names, and a device row's text columns.

export const DEFAULT_SETTINGS: DeviceSettings = { gravityOffset: 0, tempOffset: 0 };

/**
 * The devices a batch document names: each item of `devices.<type>.items` that is an object with a
 * `name` (else a `key`) string, by that name; its type is the item's own `type`, else the member's.
 * A device is attached to the batch whose document names it (docs/decisions.md, "Devices").
 */
export function namedDevices(batch: Doc): DeviceId[] {
  const out: DeviceId[] = [];
  const devices = batch.devices;
  if (!isPlainObject(devices)) return out;
  for (const [member, group] of Object.entries(devices)) {
    if (!isPlainObject(group) || !Array.isArray(group.items)) continue;
    for (const item of group.items) {
      if (!isPlainObject(item)) continue;
      const name = typeof item.name === "string" && item.name !== "" ? item.name : typeof item.key === "string" && item.key !== "" ? item.key : undefined;
      if (name === undefined) continue;
      out.push({ type: typeof item.type === "string" && item.type !== "" ? item.type : member, name });
    }
  }
  return out;
}

/** A device row as both stores hold it: JSON columns as canonical text. */
export interface DeviceRow {
  type: string;
  name: string;
  batch_id: string | null;
  last_log: number | null;
  last_data: string | null;
  settings: string;
  first_seen: number;
}

export function deviceRecord(row: DeviceRow): DeviceRecord {
  return {
    type: row.type,
    name: row.name,
    batchId: row.batch_id,
    lastLog: row.last_log === null ? null : Number(row.last_log),
    lastData: row.last_data === null ? null : (JSON.parse(row.last_data) as Doc),
    settings: JSON.parse(row.settings) as DeviceSettings,
    firstSeen: Number(row.first_seen),
  };
}

export function deviceRow(d: DeviceRecord): DeviceRow {
  return {
    type: d.type,
    name: d.name,
    batch_id: d.batchId,
    last_log: d.lastLog,
    last_data: d.lastData === null ? null : canonicalJson(d.lastData),
    settings: canonicalJson({ gravityOffset: d.settings.gravityOffset, tempOffset: d.settings.tempOffset }),
    first_seen: d.firstSeen,
  };
}

export const newDevice = (id: DeviceId, now: number, batchId: string | null = null): DeviceRecord => ({
  type: id.type,
  name: id.name,
  batchId,
  lastLog: null,
  lastData: null,
  settings: { ...DEFAULT_SETTINGS },
  firstSeen: now,
});
