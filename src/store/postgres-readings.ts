import type { SQL } from "bun";
import type { Doc } from "../lib/json.ts";
import { readingRow, readingRows, readingSource } from "./reading-rows.ts";
import { insertReadingRows } from "./postgres-schema.ts";
import type { TimeRange, TimedReading } from "./types.ts";

// Series of readings in the PostgreSQL store, as in SQLite (sqlite-readings.ts): a batch's and a
// device's. Writers run inside the caller's transaction, which holds the owner's lock.

export interface PgSeries {
  table: "readings" | "device_readings";
  owner: readonly string[];
}

export const BATCH_SERIES: PgSeries = { table: "readings", owner: ["batch_id"] };
export const DEVICE_SERIES: PgSeries = { table: "device_readings", owner: ["type", "name"] };

/** `user_id = $1 AND batch_id = $2 …`, the owner's values bound first. */
const where = (s: PgSeries) => ["user_id", ...s.owner].map((c, i) => `${c} = $${i + 1}`).join(" AND ");

/** The series as one JSON array text; undefined when `exists` (a query on the owner's values) finds no row. */
export async function listReadings(sql: SQL, s: PgSeries, owner: string[], range: TimeRange | undefined, exists: string): Promise<string | undefined> {
  const values: Array<string | number> = [...owner];
  let filter = "";
  if (range?.since !== undefined) filter += ` AND at >= $${values.push(range.since)}`;
  if (range?.until !== undefined) filter += ` AND at <= $${values.push(range.until)}`;
  if (filter) filter += " AND timed = 1";
  const array = `'[' || COALESCE((SELECT string_agg(body, ',' ORDER BY at, seq) FROM ${s.table} WHERE ${where(s)}${filter}), '') || ']'`;
  const rows = (await sql.unsafe(`SELECT ${array} FROM (${exists}) AS list`, values as never[]).values()) as Array<[string]>;
  return rows.length ? rows[0][0] : undefined;
}

export async function lastReading(sql: SQL, s: PgSeries, owner: string[]): Promise<string | undefined> {
  const rows = (await sql.unsafe(`SELECT body FROM ${s.table} WHERE ${where(s)} ORDER BY at DESC, seq DESC LIMIT 1`, owner as never[]).values()) as Array<[string]>;
  return rows.length ? rows[0][0] : undefined;
}

/** Appends one reading after those of its key, replacing the readings of its sender at its time (readingSource). */
export async function appendReading(tx: SQL, s: PgSeries, owner: string[], reading: TimedReading): Promise<void> {
  if (typeof reading.time !== "number" || !Number.isFinite(reading.time)) throw new TypeError("a reading to append needs a numeric time");
  const row = readingRow(reading, 0);
  const n = owner.length;
  await tx.unsafe(
    `DELETE FROM ${s.table} WHERE ${where(s)} AND at = $${n + 1}::float8 AND timed = 1 AND coalesce(body::jsonb -> 'id', 'null'::jsonb) = $${n + 2}::text::jsonb`,
    [...owner, reading.time, readingSource(reading)] as never[],
  );
  const cols = ["user_id", ...s.owner];
  await tx.unsafe(
    `INSERT INTO ${s.table} (${cols.join(", ")}, at, seq, timed, body)
      SELECT ${cols.map((_, i) => `$${i + 1}`).join(", ")}, $${n + 1}::float8, COALESCE(MAX(seq) + 1, 0), $${n + 2}::int2, $${n + 3}
      FROM ${s.table} WHERE ${where(s)} AND at = $${n + 1}::float8`,
    [...owner, row.at, row.timed, row.body] as never[],
  );
}

/** Deletes the readings whose time is exactly `time`; the count deleted. */
export async function removeReadings(tx: SQL, s: PgSeries, owner: string[], time: number): Promise<number> {
  const gone = await tx.unsafe(`DELETE FROM ${s.table} WHERE ${where(s)} AND at = $${owner.length + 1}::float8 AND timed = 1 RETURNING 1`, [...owner, time] as never[]);
  return gone.length;
}

/** Replaces a series' rows with a whole list, in the order it came. */
export async function replaceReadings(tx: SQL, s: PgSeries, owner: string[], readings: Doc[]): Promise<void> {
  await tx.unsafe(`DELETE FROM ${s.table} WHERE ${where(s)}`, owner as never[]);
  const ownerCols = Object.fromEntries(["user_id", ...s.owner].map((c, i) => [c, owner[i]]));
  await insertReadingRows(tx, s.table, readingRows(readings).map((r) => ({ ...ownerCols, ...r })));
}
