import type { SQL } from "bun";
import type { Doc } from "../lib/json.ts";
import { deviceRecord, deviceRow, namedDevices, newDevice, type DeviceRow } from "./devices.ts";
import { appendReading, BATCH_SERIES, DEVICE_SERIES, listReadings, replaceReadings } from "./postgres-readings.ts";
import { copyRecords, encodedRow } from "./postgres-rows.ts";
import type { DeviceId, DevicePostOutcome, DevicePostState, DeviceRecord, ImportDevice, StoreChange } from "./types.ts";

// Devices in the PostgreSQL store. A device post takes a transaction-scoped advisory lock on the
// device's key (it may not exist yet), then its row and its batch's row FOR UPDATE: posts of one
// device are serialised across every process on the database, so the interval check is exact.

const DEVICE_COLUMNS = "type, name, batch_id, last_log, last_data, settings, first_seen";

export async function getDevice(sql: SQL, userId: string, id: DeviceId, forUpdate = false): Promise<DeviceRecord | undefined> {
  const rows = await sql.unsafe(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE user_id = $1 AND type = $2 AND name = $3${forUpdate ? " FOR UPDATE" : ""}`,
    [userId, id.type, id.name] as never[],
  );
  return rows.length ? deviceRecord(rows[0] as DeviceRow) : undefined;
}

export async function listDevices(sql: SQL, userId: string): Promise<DeviceRecord[]> {
  const rows = await sql.unsafe(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE user_id = $1 ORDER BY type, name`, [userId] as never[]);
  return (rows as DeviceRow[]).map(deviceRecord);
}

export async function putDevice(tx: SQL, userId: string, d: DeviceRecord): Promise<void> {
  const r = deviceRow(d);
  await tx`INSERT INTO devices (user_id, type, name, batch_id, last_log, last_data, settings, first_seen)
    VALUES (${userId}, ${r.type}, ${r.name}, ${r.batch_id}, ${r.last_log}, ${r.last_data}, ${r.settings}, ${r.first_seen})
    ON CONFLICT (user_id, type, name) DO UPDATE SET batch_id = excluded.batch_id, last_log = excluded.last_log,
      last_data = excluded.last_data, settings = excluded.settings, first_seen = excluded.first_seen`;
}

export const lockDevice = (tx: SQL, userId: string, id: DeviceId) =>
  tx`SELECT pg_advisory_xact_lock(hashtextextended(${`device/${userId}/${id.type}/${id.name}`}, 0))`;

export async function batchForUpdate(tx: SQL, userId: string, batchId: string): Promise<Doc | undefined> {
  const [row] = await tx`SELECT body FROM records WHERE user_id = ${userId} AND kind = 'batch' AND id = ${batchId} FOR UPDATE`;
  return row ? (JSON.parse(row.body) as Doc) : undefined;
}

export const writeBatch = (tx: SQL, userId: string, batchId: string, doc: Doc) => copyRecords(tx, [encodedRow(userId, "batch", { ...doc, _id: batchId })]);

/** One device post in the caller's transaction; `emit` writes the outbox's events of its reading. */
export async function devicePost<T>(
  tx: SQL, userId: string, id: DeviceId, decide: (state: DevicePostState) => DevicePostOutcome<T>, emit: (change: StoreChange) => Promise<void>,
): Promise<T> {
  await lockDevice(tx, userId, id);
  const device = await getDevice(tx, userId, id, true);
  const batchId = device?.batchId ?? null;
  const batch = batchId === null ? undefined : await batchForUpdate(tx, userId, batchId);
  const outcome = decide({ device, batch });
  if (!outcome.device) return outcome.result;
  await putDevice(tx, userId, { ...(device ?? newDevice(id, Date.now())), ...outcome.device });
  if (outcome.reading) {
    await emit({ kind: "reading", batchId: batch ? batchId : null, device: id, reading: outcome.reading });
    if (batch) {
      await appendReading(tx, BATCH_SERIES, [userId, batchId!], outcome.reading);
      await tx`INSERT INTO reading_lists (user_id, batch_id) VALUES (${userId}, ${batchId}) ON CONFLICT DO NOTHING`;
    } else await appendReading(tx, DEVICE_SERIES, [userId, id.type, id.name], outcome.reading);
  }
  if (outcome.batch && batch) await writeBatch(tx, userId, batchId!, outcome.batch);
  return outcome.result;
}

export async function attachDevice(tx: SQL, userId: string, id: DeviceId, batchId: string | null, editBatch?: (batch: Doc, attached: boolean) => Doc): Promise<boolean> {
  await lockDevice(tx, userId, id);
  const device = (await getDevice(tx, userId, id, true)) ?? newDevice(id, Date.now());
  // The batches it leaves and joins, locked in id order: two moves in opposite directions never deadlock.
  const docs = new Map<string, Doc | undefined>();
  for (const b of [...new Set([device.batchId, batchId])].filter((b): b is string => b !== null).sort()) docs.set(b, await batchForUpdate(tx, userId, b));
  const target = batchId === null ? undefined : docs.get(batchId);
  if (batchId !== null && target === undefined) return false;
  const before = device.batchId === null || device.batchId === batchId ? undefined : docs.get(device.batchId);
  if (editBatch && before) await writeBatch(tx, userId, device.batchId!, editBatch(before, false));
  if (editBatch && target) await writeBatch(tx, userId, batchId!, editBatch(target, true));
  await putDevice(tx, userId, { ...device, batchId });
  return true;
}

/** In the caller's transaction: a batch's devices follow its document as written (docs/decisions.md, "Devices"). */
export async function followBatch(tx: SQL, userId: string, batchId: string, doc: Doc | undefined, now: number): Promise<void> {
  await tx`UPDATE devices SET batch_id = NULL WHERE user_id = ${userId} AND batch_id = ${batchId}`;
  if (!doc) return;
  for (const id of namedDevices(doc)) await putDevice(tx, userId, { ...((await getDevice(tx, userId, id)) ?? newDevice(id, now)), batchId });
}

export async function importDevices(tx: SQL, userId: string, devices: ImportDevice[]): Promise<void> {
  for (const { readings, ...d } of devices) {
    const [batch] = d.batchId === null ? [] : await tx`SELECT 1 FROM records WHERE user_id = ${userId} AND kind = 'batch' AND id = ${d.batchId}`;
    await putDevice(tx, userId, { ...d, batchId: batch ? d.batchId : null });
    await replaceReadings(tx, DEVICE_SERIES, [userId, d.type, d.name], readings ?? []);
  }
}

export async function exportDevices(tx: SQL, userId: string): Promise<ImportDevice[]> {
  const out: ImportDevice[] = [];
  for (const d of await listDevices(tx, userId)) {
    const text = await listReadings(tx, DEVICE_SERIES, [userId, d.type, d.name], undefined, "SELECT 1");
    const readings = JSON.parse(text!) as Doc[];
    out.push(readings.length ? { ...d, readings } : d);
  }
  return out;
}
