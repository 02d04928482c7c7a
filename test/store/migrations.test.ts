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
  for (const sql of MIGRATIONS.slice(0, 3)) old.exec(sql as string);
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

test("a version 5 database migrates to position keys: orders, cursors and writes as before", async () => {
  const path = join(dir.path, "v5.sqlite");
  const old = new Database(path);
  for (const sql of MIGRATIONS.slice(0, 5)) old.exec(sql as string);
  old.exec("PRAGMA user_version = 5");
  const insert = old.query(`INSERT INTO records (user_id, kind, id, summary, status, inventory, sort_brew_date, sort_name, sort_batch_no, body, ordered)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`);
  // Sort keys as version 5 stored them: numbers, texts, and -Infinity for a missing value.
  const docs: Array<[Record<string, unknown>, number | string, number | string, number | string]> = [
    [{ _id: "a", brewDate: 300, name: "Stout", batchNo: 2 }, 300, "Stout", 2],
    [{ _id: "b", brewDate: 100, name: "Ale\u0000x", batchNo: 2 }, 100, "Ale\u0000x", 2],
    [{ _id: "c", name: "Ale" }, -Infinity, "Ale", -Infinity],
    [{ _id: "d", brewDate: "2024", batchNo: -1.5 }, "2024", -Infinity, -1.5],
  ];
  for (const [d, brewDate, name, batchNo] of docs) {
    const text = JSON.stringify(d);
    insert.run("u", "batch", d._id as string, text, null, null, brewDate, name, batchNo, text);
  }
  old.close();

  const store = SqliteStore.open(path);
  try {
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    const ids = async (orderBy: string, desc: boolean, startAfter?: string) => {
      const page = await store.list("u", "batch", { limit: 10, orderBy, desc, fields: "summary", startAfter });
      return page === "unknown-cursor" ? page : page.map((t) => JSON.parse(t)._id);
    };
    expect(await ids("brewDate", false)).toEqual(["c", "b", "a", "d"]);
    expect(await ids("brewDate", false, "b")).toEqual(["a", "d"]);
    expect(await ids("name", false)).toEqual(["d", "c", "b", "a"]);
    expect(await ids("name", true, "a")).toEqual(["b", "c", "d"]);
    expect(await ids("batchNo", false)).toEqual(["c", "d", "a", "b"]);
    expect(await ids("batchNo", false, "a")).toEqual(["b"]);
    expect(await ids("batchNo", false, "gone")).toBe("unknown-cursor");
    // A write that leaves the sorted fields alone leaves their keys as the migration made them.
    const keys = () => store.db.query("SELECT key_brew_date, key_name, key_batch_no FROM records WHERE id = 'b'").values();
    const before = keys();
    expect(await store.setFields("u", "batch", "b", { measuredOg: 1.05 })).toBe(true);
    expect(keys()).toEqual(before);
    expect(await store.setFields("u", "batch", "b", { brewDate: 400 })).toBe(true);
    expect(await ids("brewDate", false)).toEqual(["c", "a", "b", "d"]);
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

/** Migrations after those of the outbox's rows: the rotated-out secret's columns. */
const LATER = 1;

/**
 * A database whose account "u" has two subscriptions and three batches' events recorded, one row each,
 * as earlier versions recorded them: each event as its delivery, [webhook id, event id, type,
 * resource, payload, created at], in JSON text; and the tables as they were before the last `back`
 * migrations of the outbox's rows (and the LATER ones), without the columns those add.
 */
async function recordedBefore(name: string, back: 1 | 2): Promise<string> {
  const path = join(dir.path, name);
  const hook = (id: string, events: string[]) => ({ id, userId: "u", url: "https://example.com/hook", events, sealedSecret: "sealed", createdAt: id === "wh_a" ? 1 : 2, failingSince: null });
  const first = SqliteStore.open(path);
  await first.createUser("u", null);
  await first.addWebhook(hook("wh_a", ["batch.created"]));
  await first.addWebhook(hook("wh_b", ["batch.created", "batch.updated"]));
  await first.close();
  const old = new Database(path);
  old.exec("ALTER TABLE webhooks DROP COLUMN previous_secret");
  old.exec("ALTER TABLE webhooks DROP COLUMN previous_until");
  old.exec("ALTER TABLE webhook_events DROP COLUMN at");
  if (back === 2) old.exec("ALTER TABLE webhook_events DROP COLUMN counts");
  ["x", "y", "z"].forEach((id, i) => {
    const n = i + 1;
    const text = JSON.stringify(["wh_a", "wh_b"].map((w) => [w, `msg_${n}`, "batch.created", `batch/${id}`, { n }, 1000 + n]));
    if (back === 1) old.query("INSERT INTO webhook_events (count, counts, events) VALUES (2, ?, ?)").run('{"wh_a":1,"wh_b":1}', text);
    else old.query("INSERT INTO webhook_events (count, events) VALUES (2, ?)").run(text);
  });
  old.exec(`PRAGMA user_version = ${MIGRATIONS.length - LATER - back}`);
  old.close();
  return path;
}

/** Every due delivery of the store, delivered: subscription, event id, resource, payload and time of each. */
async function deliverAll(store: SqliteStore): Promise<string[]> {
  const delivered: string[] = [];
  await store.deliverDue(10_000, 100, async (due) => {
    delivered.push(...due.map((d) => `${d.webhookId} ${d.eventId} ${d.resource} ${d.payload} ${d.createdAt}`));
    return due.map((d) => ({ seq: d.seq, result: "delivered" as const, attempt: { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at: 10_000, status: 204, durationMs: 1, detail: null } }));
  });
  return delivered;
}

const RECORDED = [
  'wh_a msg_1 batch/x {"n":1} 1001', 'wh_b msg_1 batch/x {"n":1} 1001',
  'wh_a msg_2 batch/y {"n":2} 1002', 'wh_b msg_2 batch/y {"n":2} 1002',
  'wh_a msg_3 batch/z {"n":3} 1003', 'wh_b msg_3 batch/z {"n":3} 1003',
];

test("recorded webhook events from before the per-subscription counts keep their pending counts", async () => {
  const store = SqliteStore.open(await recordedBefore("counts.sqlite", 2));
  try {
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    expect((await store.webhooks("u")).map((w) => [w.id, w.pending])).toEqual([["wh_a", 3], ["wh_b", 3]]);
    expect(await deliverAll(store)).toEqual(RECORDED);
  } finally {
    await store.close();
  }
});

test("webhook events recorded before events were kept as parts become their delivery rows, waited on and delivered as recorded", async () => {
  const store = SqliteStore.open(await recordedBefore("at.sqlite", 1));
  try {
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    // Moved by the migration, in their order: the outbox holds only rows of events as parts.
    expect(store.db.query("SELECT count(*) AS n FROM webhook_events").get()).toEqual({ n: 0 });
    expect((await store.webhooks("u")).map((w) => [w.id, w.pending])).toEqual([["wh_a", 3], ["wh_b", 3]]);
    expect(await store.deliveriesWaitingSince()).toBe(1001);
    expect(await deliverAll(store)).toEqual(RECORDED);
    expect((await store.webhooks("u")).map((w) => [w.id, w.pending])).toEqual([["wh_a", 0], ["wh_b", 0]]);
    expect(await store.deliveriesWaitingSince()).toBeUndefined();
  } finally {
    await store.close();
  }
});
