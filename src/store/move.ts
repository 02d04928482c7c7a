import { createHash } from "node:crypto";
import type { Store, TableRow, TableSpec } from "./types.ts";

// `migrate-store`: copies a whole database between SQLite and PostgreSQL (either way) and proves the
// copy: per table, the row count and a SHA-256 over every row in key order must match on both sides.
// The HMAC secret in `meta` moves too, so every API key keeps working on the new store. Each store
// reads and writes its own tables (Store.tables); this file knows neither store.

export const TABLES: readonly TableSpec[] = [
  { name: "meta", columns: ["name", "value"], key: ["name"], numeric: [] },
  { name: "users", columns: ["id", "password_hash", "created_at"], key: ["id"], numeric: ["created_at"] },
  { name: "api_keys", columns: ["user_id", "digest", "scopes", "api_version", "created_at"], key: ["user_id"], numeric: ["api_version", "created_at"] },
  { name: "records", columns: ["user_id", "kind", "id", "body", "summary", "status", "inventory"], key: ["user_id", "kind", "id"], numeric: ["inventory"] },
  { name: "reading_lists", columns: ["user_id", "batch_id"], key: ["user_id", "batch_id"], numeric: [] },
  { name: "readings", columns: ["user_id", "batch_id", "at", "seq", "timed", "body"], key: ["user_id", "batch_id", "at", "seq"], numeric: ["at", "seq", "timed"] },
  { name: "trackers", columns: ["user_id", "batch_id", "body"], key: ["user_id", "batch_id"], numeric: [] },
  {
    name: "devices",
    columns: ["user_id", "type", "name", "batch_id", "last_log", "last_data", "settings", "first_seen"],
    key: ["user_id", "type", "name"],
    numeric: ["last_log", "first_seen"],
  },
  { name: "device_readings", columns: ["user_id", "type", "name", "at", "seq", "timed", "body"], key: ["user_id", "type", "name", "at", "seq"], numeric: ["at", "seq", "timed"] },
  { name: "logging_ids", columns: ["user_id", "digest", "created_at"], key: ["user_id"], numeric: ["created_at"] },
  // Webhook subscriptions move (their secrets sealed under the key in meta, which moves too); events not yet
  // delivered and past attempts do not (docs/decisions.md, Webhooks).
  {
    name: "webhooks",
    columns: ["id", "user_id", "url", "events", "secret", "created_at", "failing_since", "previous_secret", "previous_until"],
    key: ["id"],
    numeric: ["created_at", "failing_since", "previous_until"],
  },
  { name: "rate_counts", columns: ["user_id", "api_version", "window_start", "count"], key: ["user_id", "api_version", "window_start"], numeric: ["api_version", "window_start", "count"] },
];

/** Tables whose rows make a store "not empty" for migrate-store (meta and counts do not). */
const CONTENT_TABLES = ["users", "api_keys", "records", "reading_lists", "readings", "trackers", "devices", "device_readings", "logging_ids", "webhooks"];

export interface TableReport {
  table: string;
  source: { rows: number; sha256: string };
  target: { rows: number; sha256: string };
  ok: boolean;
}

export class MoveError extends Error {}

function digest(rows: TableRow[]): string {
  const hash = createHash("sha256");
  for (const row of rows) hash.update(JSON.stringify(row) + "\n");
  return hash.digest("hex");
}

/**
 * Copies `from` into `to` and verifies both. Refuses a target holding accounts or documents unless
 * `force`, which replaces its contents. The source is read whole before the target is touched, and
 * the target is emptied and written in one transaction: a source that is the target under another
 * name (`./x.sqlite` and `/abs/x.sqlite`, `localhost` and `127.0.0.1`) is written back as it was, and
 * a copy that fails leaves the target as it was. Returns one report per table; throws MoveError when
 * one differs.
 */
export async function moveStore(from: Store, to: Store, options: { force: boolean }): Promise<TableReport[]> {
  const counts = await to.tables.count(TABLES);
  if (!CONTENT_TABLES.every((t) => counts.get(t) === 0) && !options.force) {
    throw new MoveError("the target store is not empty; add --force to replace its contents");
  }
  const data = await from.tables.read(TABLES);
  await to.tables.replace(TABLES, data);
  const copied = await to.tables.read(TABLES);
  const reports = TABLES.map((t) => {
    const a = data.get(t.name)!;
    const b = copied.get(t.name)!;
    const source = { rows: a.length, sha256: digest(a) };
    const target = { rows: b.length, sha256: digest(b) };
    return { table: t.name, source, target, ok: source.rows === target.rows && source.sha256 === target.sha256 };
  });
  const bad = reports.filter((r) => !r.ok);
  if (bad.length) throw Object.assign(new MoveError(`verification failed for ${bad.map((r) => r.table).join(", ")}`), { reports });
  return reports;
}

/** SELECT of a whole table in key order. */
export const selectAll = (t: TableSpec) => `SELECT ${t.columns.join(", ")} FROM ${t.name} ORDER BY ${t.key.join(", ")}`;

/** Numeric columns as numbers, whatever type the driver gave them. */
export function numbersIn(t: TableSpec, rows: TableRow[]): TableRow[] {
  const numeric = t.numeric.map((c) => t.columns.indexOf(c));
  for (const row of rows) for (const i of numeric) if (row[i] !== null) row[i] = Number(row[i]);
  return rows;
}
