import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { join } from "node:path";
import { canonicalJson, type Doc } from "../../src/lib/json.ts";
import { MIGRATIONS as PG_MIGRATIONS } from "../../src/store/postgres-schema.ts";
import { PostgresStore } from "../../src/store/postgres.ts";
import { MIGRATIONS } from "../../src/store/sqlite-schema.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { tempDir } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES } from "../helpers/stores.ts";

// A database that kept each batch's readings as one array (SQLite schema 6, PostgreSQL schema 1)
// migrates in place to rows: every list reads back byte for byte, the last reading is the same, a
// batch with an empty list still has one, and appending works on the migrated rows.
const dir = tempDir();
afterAll(() => dir.remove());

// As the array store wrote them: sorted stably by Number(time) || 0, canonical text, the last element.
function arrayRow(readings: Doc[]) {
  const sorted = [...readings].sort((a, b) => (Number(a.time) || 0) - (Number(b.time) || 0));
  return { body: canonicalJson(sorted), last: sorted.length ? canonicalJson(sorted[sorted.length - 1]) : null };
}

const LISTS: Record<string, Doc[]> = {
  full: [
    { time: 1_572_383_500_131, sg: 1.039, temp: 5.1, comment: null, type: "iSpindel", pressure: null, ph: null, battery: 4.082, rssi: -75, angle: 32.8, id: "GREEN" },
    { time: 1_572_383_400_000, sg: 1.04, comment: "é\u2028\"q\"\\", type: "manual" },
    { sg: 1.09, comment: "no time" },
    { time: 1_572_383_500_131, sg: 1.038, note: { b: 2, a: 1, 10: "x", 9: "y" } },
    { time: 1_572_383_600_000.5, temp: 19.9 },
  ],
  empty: [],
};

async function expectMigrated(store: Store, old: Record<string, { body: string; last: string | null }>) {
  for (const [id, row] of Object.entries(old)) {
    expect(await store.readings("u", id)).toBe(row.body);
    const bytes = await store.readings("u", id, "bytes");
    expect(typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes)).toBe(row.body);
    expect((await store.lastReading("u", id)) ?? null).toBe(row.last);
  }
  expect(await store.readings("u", "none")).toBeUndefined();
  expect(await store.exportAll("u")).toEqual({
    batches: [{ doc: { _id: "empty" }, readings: [] }, { doc: { _id: "full" }, readings: JSON.parse(old.full.body) }, { doc: { _id: "none" } }],
    docs: [],
  });
  // An append at a migrated time replaces that time's reading of its sender (no id) and keeps GREEN's.
  expect(await store.appendReading("u", "full", { time: 1_572_383_500_131, sg: 1.037 })).toBe(true);
  const after = JSON.parse((await store.readings("u", "full"))!) as Doc[];
  expect(after.map((r) => r.sg)).toEqual([1.09, 1.04, 1.039, 1.037, undefined]);
}

test("SQLite: a version 6 database's reading arrays become rows, read back byte for byte", async () => {
  const path = join(dir.path, "v6.sqlite");
  const old = new Database(path, { strict: true });
  for (const step of MIGRATIONS.slice(0, 6)) typeof step === "string" ? old.exec(step) : step(old);
  old.exec("PRAGMA user_version = 6");
  const rows: Record<string, { body: string; last: string | null }> = {};
  for (const [id, readings] of Object.entries(LISTS)) {
    rows[id] = arrayRow(readings);
    old.query("INSERT INTO readings (user_id, batch_id, body, last) VALUES (?, ?, ?, ?)").run("u", id, rows[id].body, rows[id].last);
  }
  old.close();
  const store = SqliteStore.open(path);
  try {
    // Batches written through the store (records' derived columns are the store's business).
    for (const id of ["full", "empty", "none"]) await store.insert("u", "batch", { _id: id });
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    expect(store.db.query("SELECT name FROM sqlite_master WHERE name = 'readings_arrays'").get()).toBeNull();
    await expectMigrated(store, rows);
  } finally {
    await store.close();
  }
});

describe.skipIf(!HAVE_POSTGRES)("PostgreSQL", () => {
  test("a version 1 database's reading arrays become rows, read back byte for byte", async () => {
    const db = await freshPostgres();
    const sql = new SQL(db.url, { max: 1 });
    const rows: Record<string, { body: string; last: string | null }> = {};
    try {
      await sql.unsafe(PG_MIGRATIONS[0] as string);
      await sql`CREATE TABLE schema_version (version INTEGER NOT NULL)`;
      await sql`INSERT INTO schema_version (version) VALUES (1)`;
      for (const [id, readings] of Object.entries(LISTS)) {
        rows[id] = arrayRow(readings);
        await sql`INSERT INTO readings (user_id, batch_id, body, last) VALUES ('u', ${id}, ${rows[id].body}, ${rows[id].last})`;
      }
    } finally {
      await sql.close();
    }
    const store = PostgresStore.open(db.url);
    try {
      await store.ready;
      for (const id of ["full", "empty", "none"]) await store.insert("u", "batch", { _id: id });
      const [{ version }] = await store.sql`SELECT version FROM schema_version`;
      expect(Number(version)).toBe(PG_MIGRATIONS.length);
      await expectMigrated(store, rows);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
