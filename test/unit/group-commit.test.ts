// Writes that arrive in one turn of the event loop share one transaction (src/store/sqlite-group.ts):
// each in a savepoint of its own, answered only after the COMMIT, a failing one rolled back alone.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { GroupCommit, type GroupStage } from "../../src/store/sqlite-group.ts";
import { tempDir } from "../helpers/process.ts";

const dir = tempDir();
afterAll(() => dir.remove());

function world(name: string) {
  const path = join(dir.path, `${name}.sqlite`);
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
  const insert = db.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
  // Another connection sees only what was committed.
  const other = new Database(path, { strict: true });
  const committed = () => (other.query("SELECT k FROM t ORDER BY k").values() as string[][]).map((r) => r[0]);
  return { db, group: new GroupCommit(db), insert, other, committed };
}

test("writes of one turn commit together, after the turn, and each caller gets its own result", async () => {
  const w = world("together");
  const results = [1, 2, 3].map((v) => w.group.run(() => (w.insert.run(`k${v}`, v), v * 10)));
  // Nothing is written before the turn is over.
  expect(w.committed()).toEqual([]);
  expect(await Promise.all(results)).toEqual([10, 20, 30]);
  expect(w.committed()).toEqual(["k1", "k2", "k3"]);
  // One transaction: the other connection's data_version moved once for the three writes.
  const before = (w.other.query("PRAGMA data_version").values() as number[][])[0][0];
  await Promise.all([4, 5].map((v) => w.group.run(() => w.insert.run(`k${v}`, v))));
  const commits = (w.other.query("PRAGMA data_version").values() as number[][])[0][0] - before;
  expect(commits).toBe(1);
});

test("a write that throws is rolled back alone; the others of its group commit", async () => {
  const w = world("alone");
  const settled = await Promise.allSettled([
    w.group.run(() => w.insert.run("a", 1)),
    w.group.run(() => {
      w.insert.run("b", 2);
      throw new Error("refused");
    }),
    w.group.run(() => w.insert.run("a", 3)),
    w.group.run(() => w.insert.run("c", 4)),
  ]);
  expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
  expect(String((settled[1] as PromiseRejectedResult).reason)).toContain("refused");
  expect(String((settled[2] as PromiseRejectedResult).reason)).toContain("UNIQUE");
  expect(w.committed()).toEqual(["a", "c"]);
  expect(w.other.query("SELECT v FROM t WHERE k = 'a'").values()).toEqual([[1]]);
});

test("when the group cannot take the write lock, every write of it is refused and none happened", async () => {
  const w = world("locked");
  w.db.exec("PRAGMA busy_timeout = 50");
  w.other.exec("BEGIN IMMEDIATE");
  const writes = [1, 2].map((v) => w.group.run(() => w.insert.run(`k${v}`, v)));
  const settled = await Promise.allSettled(writes);
  expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
  for (const s of settled) expect(String((s as PromiseRejectedResult).reason)).toMatch(/database is locked/);
  w.other.exec("ROLLBACK");
  expect(w.committed()).toEqual([]);
  // The next group works again.
  await w.group.run(() => w.insert.run("after", 1));
  expect(w.committed()).toEqual(["after"]);
});

test("drain waits for every queued write", async () => {
  const w = world("drain");
  void w.group.run(() => w.insert.run("x", 1));
  void w.group.run(() => w.insert.run("y", 2));
  await w.group.drain();
  expect(w.committed()).toEqual(["x", "y"]);
});

/** A stage that keeps texts in memory and writes them, one row each, to table s at the group's end. */
function staged(db: Database) {
  db.exec("CREATE TABLE s (v TEXT NOT NULL)");
  const rows: string[] = [];
  const insert = db.prepare("INSERT INTO s (v) VALUES (?)");
  const stage: GroupStage & { add(v: string): void; writes: number } = {
    grouping: false,
    writes: 0,
    add(v) {
      rows.push(v);
      if (!this.grouping) this.write();
    },
    mark: () => rows.length,
    dropAfter: (mark) => void (rows.length = mark),
    write() {
      this.writes++;
      for (const v of rows.splice(0)) insert.run(v);
    },
  };
  return stage;
}

test("what a group's writes stage is written once, in the group's transaction, without what a failed write staged", async () => {
  const w = world("stage");
  const stage = staged(w.db);
  const group = new GroupCommit(w.db, stage);
  const settled = await Promise.allSettled([
    group.run(() => (w.insert.run("a", 1), stage.add("a"))),
    group.run(() => {
      stage.add("b");
      w.insert.run("a", 2); // a duplicate key: this write fails after staging
    }),
    group.run(() => (w.insert.run("c", 3), stage.add("c"))),
  ]);
  expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(stage.writes).toBe(1);
  expect(stage.grouping).toBe(false);
  expect(w.other.query("SELECT v FROM s ORDER BY rowid").values()).toEqual([["a"], ["c"]]);
  // Outside a group, a stage writes at once.
  stage.add("alone");
  expect(w.other.query("SELECT v FROM s ORDER BY rowid").values()).toEqual([["a"], ["c"], ["alone"]]);
});

test("when a group's transaction fails, nothing it staged is written then or later", async () => {
  const w = world("stage-locked");
  const stage = staged(w.db);
  const group = new GroupCommit(w.db, stage);
  w.db.exec("PRAGMA busy_timeout = 50");
  w.other.exec("BEGIN IMMEDIATE");
  const settled = await Promise.allSettled([group.run(() => stage.add("lost"))]);
  expect(settled[0]!.status).toBe("rejected");
  w.other.exec("ROLLBACK");
  await group.run(() => stage.add("next"));
  expect(w.other.query("SELECT v FROM s ORDER BY rowid").values()).toEqual([["next"]]);
});
