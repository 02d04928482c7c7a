// SQLITE_SYNCHRONOUS (README, Configuration; docs/decisions.md, Storage): the setting reaches the
// database the server opens, and a value other than NORMAL or FULL stops the start.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/open.ts";
import type { SqliteStore } from "../../src/store/sqlite.ts";
import { cli, tempDir } from "../helpers/process.ts";

const dir = tempDir("brewrecords-sync-");
afterAll(() => dir.remove());

async function synchronousOf(env: Record<string, string>): Promise<number> {
  const path = join(dir.path, `${crypto.randomUUID()}.sqlite`);
  const store = (await openStore(path, loadConfig(env))) as SqliteStore;
  try {
    return (store.db.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  } finally {
    await store.close();
  }
}

test("without SQLITE_SYNCHRONOUS the database runs with synchronous=NORMAL (1)", async () => {
  expect(await synchronousOf({})).toBe(1);
});

test("SQLITE_SYNCHRONOUS=FULL reaches the database: PRAGMA synchronous reads 2", async () => {
  expect(await synchronousOf({ SQLITE_SYNCHRONOUS: "FULL" })).toBe(2);
});

test("SQLITE_SYNCHRONOUS is read without regard to case: full is FULL", async () => {
  expect(await synchronousOf({ SQLITE_SYNCHRONOUS: "full" })).toBe(2);
});

for (const value of ["OFF", "EXTRA", "2", "fast"]) {
  test(`SQLITE_SYNCHRONOUS=${value} is a ConfigError naming the setting and its values`, () => {
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: value })).toThrow(`SQLITE_SYNCHRONOUS must be NORMAL or FULL, got "${value}"`);
  });
}

test("serve with SQLITE_SYNCHRONOUS=OFF exits 2 with the message and creates no database", () => {
  const path = join(dir.path, "refused.sqlite");
  const res = cli(["serve"], { DATABASE_URL: path, SQLITE_SYNCHRONOUS: "OFF", PORT: "0", DEMO: "0" });
  expect(res.code).toBe(2);
  expect(res.stderr.trim()).toBe('brewrecords: SQLITE_SYNCHRONOUS must be NORMAL or FULL, got "OFF"');
  expect(Bun.file(path).size).toBe(0);
});
