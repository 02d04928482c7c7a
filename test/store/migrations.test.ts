import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { MIGRATIONS } from "../../src/store/sqlite-schema.ts";
import { tempDir } from "../helpers/process.ts";

// A database written by an earlier version opens with its documents intact and lists in order.
const dir = tempDir();
afterAll(() => dir.remove());

test("a version 3 database migrates to the sort-key columns with every document kept", async () => {
  const path = join(dir.path, "old.sqlite");
  const old = new Database(path);
  for (const sql of MIGRATIONS.slice(0, 3)) old.exec(sql);
  old.exec("PRAGMA user_version = 3");
  const insert = old.query("INSERT INTO records (user_id, kind, id, body, summary, status, inventory) VALUES (?, ?, ?, ?, ?, ?, ?)");
  const docs = [
    { _id: "a", brewDate: 300, name: "Stout", status: "Planning" },
    { _id: "b", brewDate: 100, name: "Ale", status: "Planning" },
    { _id: "c", name: "No date", status: "Planning" },
  ];
  for (const d of docs) insert.run("u", "batch", d._id, JSON.stringify(d), JSON.stringify(d), d.status, null);
  old.close();

  const store = SqliteStore.open(path);
  try {
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    const page = await store.list("u", "batch", { limit: 10, orderBy: "brewDate", desc: false, fields: "summary" });
    expect(page).toEqual([JSON.stringify(docs[2]), JSON.stringify(docs[1]), JSON.stringify(docs[0])]);
    expect(await store.get("u", "batch", "a")).toBe(JSON.stringify(docs[0]));
    const byName = await store.list("u", "batch", { limit: 10, orderBy: "name", desc: true, fields: "summary" });
    expect((byName as string[]).map((t) => JSON.parse(t)._id)).toEqual(["a", "c", "b"]);
    // Rows from before the `ordered` column are walked in full on their next write, which then records it.
    const ordered = () => store.db.query("SELECT ordered FROM records WHERE id = 'a'").get();
    expect(ordered()).toEqual({ ordered: 0 });
    await store.update("u", "batch", "a", (cur) => ({ write: { ...cur, measuredOg: 1.05 }, changed: ["measuredOg"], result: null }));
    expect(await store.get("u", "batch", "a")).toBe('{"_id":"a","brewDate":300,"measuredOg":1.05,"name":"Stout","status":"Planning"}');
    expect(ordered()).toEqual({ ordered: 1 });
  } finally {
    await store.close();
  }
});

test("a current database opens without a write: a server starts while another process holds the write lock", async () => {
  const path = join(dir.path, "current.sqlite");
  await SqliteStore.open(path).close();
  const writer = new Database(path);
  writer.exec("PRAGMA busy_timeout = 0");
  writer.exec("BEGIN IMMEDIATE");
  try {
    const started = performance.now();
    const store = SqliteStore.open(path);
    // Opening waited on nothing (busy_timeout is 5 s): it only read the schema version.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    await store.close();
  } finally {
    writer.exec("ROLLBACK");
    writer.close();
  }
});

test("a database newer than this server is refused at open, naming both versions", () => {
  const path = join(dir.path, "newer.sqlite");
  const db = new Database(path);
  db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
  db.close();
  expect(() => SqliteStore.open(path)).toThrow(`database schema version ${MIGRATIONS.length + 1} is newer than this server (${MIGRATIONS.length})`);
});

test("a database in a folder that does not exist yet is created with its folders", async () => {
  const path = join(dir.path, "a", "b", "new.sqlite");
  const store = SqliteStore.open(path);
  expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
  await store.close();
  expect(await Bun.file(path).exists()).toBe(true);
});
