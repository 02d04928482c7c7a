import type { Database } from "bun:sqlite";
import type { Doc } from "../lib/json.ts";
import { deviceRecord, deviceRow, namedDevices, newDevice, type DeviceRow } from "./devices.ts";
import { BATCH_SERIES, DEVICE_SERIES, type SqliteReadings } from "./sqlite-readings.ts";
import { transactionOf, type GroupCommit } from "./sqlite-group.ts";
import type { StatementCache } from "./sqlite-statements.ts";
import type { DeviceId, DevicePostOutcome, DevicePostState, DeviceRecord, DeviceSettings, ImportDevice, StoreChange, TimeRange } from "./types.ts";

// Devices in the SQLite store. Writes run in immediate transactions, so the check of a
// device post (the minimum interval) and its write happen under SQLite's one write lock.


const DEVICE_COLUMNS = "type, name, batch_id, last_log, last_data, settings, first_seen";

/** What the device code needs of the store around it: batch documents, read and written in its transaction. */
export interface BatchDocs {
  read(userId: string, batchId: string): Doc | undefined;
  write(userId: string, doc: Doc): void;
  /** The outbox (sqlite-webhooks.ts): a change's events, in the caller's transaction. */
  emit(userId: string, change: StoreChange): void;
}

export class SqliteDevices {
  // One transaction function for the writes outside the group commit (attaching), built once:
  // bun:sqlite prepares BEGIN and COMMIT anew for each one built (docs/performance.md, "Storage").
  private readonly inTransaction: ReturnType<typeof transactionOf>;

  constructor(
    db: Database,
    private readonly statements: StatementCache,
    private readonly readings: SqliteReadings,
    private readonly group: GroupCommit,
    private readonly batches: BatchDocs,
  ) {
    this.inTransaction = transactionOf(db);
  }

  list(userId: string): DeviceRecord[] {
    const rows = this.statements.get(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE user_id = ? ORDER BY type, name`).all(userId) as DeviceRow[];
    return rows.map(deviceRecord);
  }

  get(userId: string, id: DeviceId): DeviceRecord | undefined {
    const row = this.row(userId, id);
    return row ? deviceRecord(row) : undefined;
  }

  private row(userId: string, id: DeviceId): DeviceRow | null {
    return this.statements.get(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE user_id = ? AND type = ? AND name = ?`).get(userId, id.type, id.name) as DeviceRow | null;
  }

  deviceReadings(userId: string, id: DeviceId, range?: TimeRange): string | undefined {
    const exists = "SELECT 1 FROM devices WHERE user_id = ? AND type = ? AND name = ?";
    return this.readings.list(DEVICE_SERIES, [userId, id.type, id.name], false, range, exists) as string | undefined;
  }

  private put(userId: string, d: DeviceRecord): void {
    const r = deviceRow(d);
    this.statements
      .get(`INSERT INTO devices (user_id, ${DEVICE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id, type, name) DO UPDATE SET batch_id = excluded.batch_id, last_log = excluded.last_log,
          last_data = excluded.last_data, settings = excluded.settings, first_seen = excluded.first_seen`)
      .run(userId, r.type, r.name, r.batch_id, r.last_log, r.last_data, r.settings, r.first_seen);
  }

  /**
   * Writes a device's row over its stored one, naming in SET only the columns that changed: a post
   * changes its last log and data alone, and naming `batch_id` rewrote its index entry every post.
   */
  private rewrite(userId: string, before: DeviceRow, after: DeviceRow): void {
    const changed = (["batch_id", "last_log", "last_data", "settings", "first_seen"] as const).filter((c) => before[c] !== after[c]);
    if (!changed.length) return;
    this.statements
      .get(`UPDATE devices SET ${changed.map((c) => `${c} = ?`).join(", ")} WHERE user_id = ? AND type = ? AND name = ?`)
      .run(...changed.map((c) => after[c]), userId, after.type, after.name);
  }

  /** A post, committed with the others that arrive in the same turn (GroupCommit). */
  post<T>(userId: string, id: DeviceId, decide: (state: DevicePostState) => DevicePostOutcome<T>): Promise<T> {
    return this.group.run(() => {
      const row = this.row(userId, id);
      const device = row ? deviceRecord(row) : undefined;
      const batchId = device?.batchId ?? null;
      const batch = batchId === null ? undefined : this.batches.read(userId, batchId);
      const outcome = decide({ device, batch });
      if (!outcome.device) return outcome.result;
      const next = { ...(device ?? newDevice(id, Date.now())), ...outcome.device };
      // Compared with the row as read: its text columns are already canonical.
      if (row) this.rewrite(userId, row, deviceRow(next));
      else this.put(userId, next);
      if (outcome.reading) {
        this.batches.emit(userId, { kind: "reading", batchId: batch ? batchId : null, device: id, reading: outcome.reading });
        if (batch) {
          this.readings.append(BATCH_SERIES, [userId, batchId!], outcome.reading);
          this.statements.get("INSERT OR IGNORE INTO reading_lists (user_id, batch_id) VALUES (?, ?)").run(userId, batchId);
        } else this.readings.append(DEVICE_SERIES, [userId, id.type, id.name], outcome.reading);
      }
      if (outcome.batch && batch) this.batches.write(userId, { ...outcome.batch, _id: batchId });
      return outcome.result;
    });
  }

  attach(userId: string, id: DeviceId, batchId: string | null, editBatch?: (batch: Doc, attached: boolean) => Doc): boolean {
    return this.inTransaction.immediate(() => {
      const target = batchId === null ? undefined : this.batches.read(userId, batchId);
      if (batchId !== null && target === undefined) return false;
      const device = this.get(userId, id) ?? newDevice(id, Date.now());
      if (editBatch && device.batchId !== null && device.batchId !== batchId) {
        const before = this.batches.read(userId, device.batchId);
        if (before) this.batches.write(userId, { ...editBatch(before, false), _id: device.batchId });
      }
      if (editBatch && target) this.batches.write(userId, { ...editBatch(target, true), _id: batchId });
      this.put(userId, { ...device, batchId });
      return true;
    }) as boolean;
  }

  setSettings(userId: string, id: DeviceId, settings: DeviceSettings): boolean {
    const text = deviceRow({ ...newDevice(id, 0), settings }).settings;
    return this.statements.get("UPDATE devices SET settings = ? WHERE user_id = ? AND type = ? AND name = ?").run(text, userId, id.type, id.name).changes === 1;
  }

  /** In the caller's transaction: a batch's devices follow its document as written (docs/decisions.md, "Devices"). */
  followBatch(userId: string, batchId: string, doc: Doc | undefined, now: number): void {
    this.statements.get("UPDATE devices SET batch_id = NULL WHERE user_id = ? AND batch_id = ?").run(userId, batchId);
    if (!doc) return;
    for (const id of namedDevices(doc)) this.put(userId, { ...(this.get(userId, id) ?? newDevice(id, now)), batchId });
  }

  /** In the caller's transaction: devices as exported, with their unattached readings. */
  importDevices(userId: string, devices: ImportDevice[], batchExists: (id: string) => boolean): void {
    for (const { readings, ...d } of devices) {
      this.put(userId, { ...d, batchId: d.batchId !== null && batchExists(d.batchId) ? d.batchId : null });
      this.readings.replaceAll(DEVICE_SERIES, [userId, d.type, d.name], readings ?? []);
    }
  }

  /** In the caller's transaction: every device with its unattached readings. */
  exportDevices(userId: string): ImportDevice[] {
    return this.list(userId).map((d) => {
      const readings = JSON.parse(this.deviceReadings(userId, d)!) as Doc[];
      return readings.length ? { ...d, readings } : d;
    });
  }
}
