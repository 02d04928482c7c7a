import type { SQL } from "bun";
import { canonicalJson, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { namedDevices } from "./devices.ts";
import { exportDevices, followBatch, importDevices } from "./postgres-devices.ts";
import { copyRecords, encodedRow } from "./postgres-rows.ts";
import { insertReadingRows } from "./postgres-schema.ts";
import { readingRows } from "./reading-rows.ts";
import type { ImportSet } from "./types.ts";

// A whole account in and out of the PostgreSQL store, in the caller's transaction: a few statements
// per thousand documents, not one per document.

/** A batch's readings, its list, its tracker; its devices are detached. */
export async function removeBatchChildren(tx: SQL, userId: string, batchIds: string[]): Promise<void> {
  if (!batchIds.length) return;
  for (const table of ["readings", "reading_lists", "trackers"]) {
    await tx`DELETE FROM ${tx(table)} WHERE user_id = ${userId} AND batch_id IN ${tx(batchIds)}`;
  }
  await tx`UPDATE devices SET batch_id = NULL WHERE user_id = ${userId} AND batch_id IN ${tx(batchIds)}`;
}

export async function importSet(tx: SQL, userId: string, set: ImportSet): Promise<void> {
  const now = Date.now();
  // Re-importing a batch replaces it whole, its readings and tracker included; of one batch
  // listed twice the later entry wins whole, as one-by-one writes would leave it.
  const batches = [...new Map(set.batches.map((b) => [String(b.doc._id), b])).values()];
  const batchIds = batches.map((b) => String(b.doc._id));
  for (let i = 0; i < batchIds.length; i += 1000) await removeBatchChildren(tx, userId, batchIds.slice(i, i + 1000));
  await copyRecords(tx, [...batches.map((b) => encodedRow(userId, "batch", b.doc)), ...set.docs.map(({ kind, doc }) => encodedRow(userId, kind, doc))]);
  const withReadings = batches.filter((b) => b.readings);
  const lists = withReadings.map((b) => ({ user_id: userId, batch_id: String(b.doc._id) }));
  for (let i = 0; i < lists.length; i += 1000) await tx`INSERT INTO reading_lists ${tx(lists.slice(i, i + 1000))}`;
  const rows = withReadings.flatMap((b) => readingRows(b.readings!).map((r) => ({ user_id: userId, batch_id: String(b.doc._id), ...r })));
  await insertReadingRows(tx, "readings", rows);
  const trackers = batches
    .filter((b) => b.brewTracker)
    .map((b) => ({ user_id: userId, batch_id: String(b.doc._id), body: canonicalJson(b.brewTracker!) }));
  for (let i = 0; i < trackers.length; i += 500) await tx`INSERT INTO trackers ${tx(trackers.slice(i, i + 500))}`;
  // Their devices were detached above; those the documents name are attached again.
  for (const b of batches) if (namedDevices(b.doc).length) await followBatch(tx, userId, String(b.doc._id), b.doc, now);
  if (set.devices) await importDevices(tx, userId, set.devices);
  // The digest comes along unless another account holds it (docs/decisions.md, "Devices").
  if (set.loggingId) {
    const { digest, createdAt } = set.loggingId;
    await tx`INSERT INTO logging_ids (user_id, digest, created_at)
      SELECT id, ${digest}, ${createdAt} FROM users WHERE id = ${userId}
        AND NOT EXISTS (SELECT 1 FROM logging_ids WHERE digest = ${digest} AND user_id <> ${userId})
      ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at`;
  }
}

export async function exportSet(tx: SQL, userId: string): Promise<ImportSet> {
  const rows = await tx`SELECT kind, body FROM records WHERE user_id = ${userId} ORDER BY kind, id`;
  const readings = new Map<string, string>();
  const lists = await tx`SELECT l.batch_id, '[' || COALESCE((SELECT string_agg(r.body, ',' ORDER BY r.at, r.seq) FROM readings r
      WHERE r.user_id = l.user_id AND r.batch_id = l.batch_id), '') || ']' AS body
    FROM reading_lists l WHERE l.user_id = ${userId}`;
  for (const r of lists) readings.set(r.batch_id, r.body);
  const trackers = new Map<string, string>();
  for (const r of await tx`SELECT batch_id, body FROM trackers WHERE user_id = ${userId}`) trackers.set(r.batch_id, r.body);
  const set: ImportSet = { batches: [], docs: [] };
  for (const { kind, body } of rows as Array<{ kind: Kind; body: string }>) {
    const doc = JSON.parse(body) as Doc;
    if (kind !== "batch") {
      set.docs.push({ kind, doc });
      continue;
    }
    const id = String(doc._id);
    const r = readings.get(id);
    const t = trackers.get(id);
    set.batches.push({
      doc,
      ...(r !== undefined ? { readings: JSON.parse(r) as Doc[] } : {}),
      ...(t !== undefined ? { brewTracker: JSON.parse(t) as Doc } : {}),
    });
  }
  const devices = await exportDevices(tx, userId);
  if (devices.length) set.devices = devices;
  const [id] = await tx`SELECT digest, created_at FROM logging_ids WHERE user_id = ${userId}`;
  if (id) set.loggingId = { digest: id.digest, createdAt: Number(id.created_at) };
  return set;
}
