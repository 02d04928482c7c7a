import type { StoredJson, TimeRange, TimedReading } from "./types.ts";
import { readingRow, readingSource } from "./reading-rows.ts";
import type { StatementCache } from "./sqlite-statements.ts";
import type { Doc } from "../lib/json.ts";

// Series of readings in the SQLite store: a batch's (`readings`, owned by user and batch) and a
// device's while attached to no batch (`device_readings`, owned by user, type and name). The callers
// run the writes inside their own transactions.

export interface Series {
  table: "readings" | "device_readings";
  /** The owner's columns after user_id, each compared with one bound value. */
  owner: readonly string[];
}

export const BATCH_SERIES: Series = { table: "readings", owner: ["batch_id"] };
export const DEVICE_SERIES: Series = { table: "device_readings", owner: ["type", "name"] };

const where = (s: Series) => `user_id = ?${s.owner.map((c) => ` AND ${c} = ?`).join("")}`;

/** The SQL of a series' one-reading writes, made once per series rather than on every write. */
const writes = new WeakMap<Series, { held: string; lastSeq: string; remove: string; replace: string; insert: string }>();
function sqlOf(s: Series) {
  let sql = writes.get(s);
  if (sql === undefined) {
    const key = `${where(s)} AND at = ?`;
    const cols = ["user_id", ...s.owner, "at", "seq", "timed", "body"];
    writes.set(s, (sql = {
      held: `SELECT 1 FROM ${s.table} WHERE ${key} LIMIT 1`,
      lastSeq: `SELECT MAX(seq) FROM ${s.table} WHERE ${key}`,
      remove: `DELETE FROM ${s.table} WHERE ${key} AND timed = 1`,
      // The stored text is the server's own (reading-rows.ts), so its `id` reads back as readingSource wrote it.
      replace: `DELETE FROM ${s.table} WHERE ${key} AND timed = 1 AND coalesce(body -> '$.id', 'null') = ?`,
      insert: `INSERT INTO ${s.table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
    }));
  }
  return sql;
}

function rangeSql(range: TimeRange | undefined): { sql: string; values: number[] } {
  const values: number[] = [];
  let sql = "";
  if (range?.since !== undefined) (sql += " AND at >= ?"), values.push(range.since);
  if (range?.until !== undefined) (sql += " AND at <= ?"), values.push(range.until);
  // A range selects readings whose time is a number (reading-rows.ts).
  if (values.length) sql += " AND timed = 1";
  return { sql, values };
}

export class SqliteReadings {
  constructor(private readonly statements: StatementCache) {}

  /**
   * The series' readings as one JSON array, built by SQLite from the rows in key order; as bytes
   * (a BLOB) when asked, never decoded. `exists` is a query answering a row when the list exists.
   */
  list(s: Series, owner: string[], bytes: boolean, range?: TimeRange, exists?: string): StoredJson | undefined {
    const r = rangeSql(range);
    // The rows come in key order from the ordered subquery, which SQLite never flattens into an
    // aggregate; `group_concat(… ORDER BY …)` sorted them again in a temporary b-tree, three times
    // the cost at 50,000 readings (docs/performance.md, "Storage").
    const rows = `SELECT body FROM ${s.table} WHERE ${where(s)}${r.sql} ORDER BY at, seq`;
    const array = `'[' || COALESCE((SELECT group_concat(body, ',') FROM (${rows})), '') || ']'`;
    const select = bytes ? `CAST(${array} AS BLOB)` : array;
    const sql = exists ? `SELECT ${select} FROM (${exists})` : `SELECT ${select}`;
    const found = this.statements.get(sql).values(...owner, ...r.values, ...(exists ? owner : [])) as Array<[StoredJson]>;
    return found.length ? found[0][0] : undefined;
  }

  last(s: Series, owner: string[]): string | undefined {
    const rows = this.statements.get(`SELECT body FROM ${s.table} WHERE ${where(s)} ORDER BY at DESC, seq DESC LIMIT 1`).values(...owner) as Array<[string]>;
    return rows.length ? rows[0][0] : undefined;
  }

  /** Appends one reading after those of its key, replacing the readings of its sender at its time (readingSource). */
  append(s: Series, owner: string[], reading: TimedReading): void {
    if (typeof reading.time !== "number" || !Number.isFinite(reading.time)) throw new TypeError("a reading to append needs a numeric time");
    const row = readingRow(reading, 0);
    const sql = sqlOf(s);
    // A new time (nearly every append) holds no reading yet: one look, and the row goes in first. At a
    // time already held, its sender's readings there are replaced, and the new one goes after the rest
    // (another sender's, and those whose time is not a number: they sort at the same key). An INSERT … SELECT from its own table, as this once was, copies
    // the SELECT into a temporary table first: 60 µs of a device post's CPU (docs/performance.md, "Storage").
    let seq = 0;
    if ((this.statements.get(sql.held).values(...owner, row.at) as unknown[]).length) {
      this.statements.get(sql.replace).run(...owner, row.at, readingSource(reading));
      const last = (this.statements.get(sql.lastSeq).values(...owner, row.at) as Array<[number | null]>)[0][0];
      seq = last === null ? 0 : last + 1;
    }
    this.statements.get(sql.insert).run(...owner, row.at, seq, row.timed, row.body);
  }

  /** Deletes the readings whose time is exactly `time`; the count deleted. */
  remove(s: Series, owner: string[], time: number): number {
    return this.statements.get(sqlOf(s).remove).run(...owner, time).changes;
  }

  /** Replaces a series' rows with a whole list, in the order it came. */
  replaceAll(s: Series, owner: string[], readings: Doc[]): void {
    this.clear(s, owner);
    const insert = this.statements.get(sqlOf(s).insert);
    for (let seq = 0; seq < readings.length; seq++) {
      const r = readingRow(readings[seq], seq);
      insert.run(...owner, r.at, r.seq, r.timed, r.body);
    }
  }

  clear(s: Series, owner: string[]): void {
    this.statements.get(`DELETE FROM ${s.table} WHERE ${where(s)}`).run(...owner);
  }
}
