// bench/hooked-store.ts --frames reads SQLite's WAL frame by frame (bench/lib/wal.ts): here against
// real database files, with SQLite's own count of the frames as the check.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walPages } from "../../bench/lib/wal.ts";

const dir = mkdtempSync(join(tmpdir(), "brewrecords-wal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("every frame's page, in order, as SQLite wrote them, at the page size the log names", () => {
  const path = join(dir, "pages.sqlite");
  const db = new Database(path, { create: true });
  try {
    // Not the default size, so the reader must take it from the log's header.
    db.exec("PRAGMA page_size = 1024");
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA wal_autocheckpoint = 0");
    db.exec("CREATE TABLE t (x TEXT)");
    const root = (db.query("SELECT rootpage FROM sqlite_schema WHERE name = 't'").get() as { rootpage: number }).rootpage;
    const wal = `${path}-wal`;
    expect(walPages(wal)).toEqual([1, root]);

    // A small row: the table's one page, nothing else.
    db.exec("INSERT INTO t VALUES ('a')");
    expect(walPages(wal)).toEqual([1, root, root]);

    // A row larger than a page: its overflow pages, new at the end of the file, and page 1 (the file's size).
    db.exec(`INSERT INTO t VALUES ('${"b".repeat(3000)}')`);
    const third = walPages(wal).slice(3);
    expect(third).toContain(1);
    expect(third).toContain(root);
    const size = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    expect(new Set(third.filter((p) => p !== 1 && p !== root))).toEqual(new Set(Array.from({ length: size - root }, (_, i) => root + 1 + i)));

    // SQLite's own count of the frames in its log.
    const [, frames] = db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] as number[];
    expect(walPages(wal).length).toBe(frames!);
  } finally {
    db.close(false);
  }
});

test("a frame cut short at the end is not counted; an empty or missing log has none", () => {
  const path = join(dir, "cut.sqlite");
  const db = new Database(path, { create: true });
  db.exec("PRAGMA page_size = 4096");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA wal_autocheckpoint = 0");
  db.exec("CREATE TABLE t (x)");
  db.exec("INSERT INTO t VALUES (1)");
  const whole = walPages(`${path}-wal`);
  expect(whole.length).toBe(3);
  const copy = join(dir, "cut-copy-wal");
  copyFileSync(`${path}-wal`, copy);
  db.close(false);
  truncateSync(copy, 32 + 2 * (24 + 4096) + 100);
  expect(walPages(copy)).toEqual(whole.slice(0, 2));
  writeFileSync(join(dir, "empty-wal"), "");
  expect(walPages(join(dir, "empty-wal"))).toEqual([]);
  expect(walPages(join(dir, "missing-wal"))).toEqual([]);
});
