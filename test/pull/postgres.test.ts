import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, tempDir } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";
import { accountTexts, callsOf, FULL_PULL_CALLS, runPull, startRemote, type Remote } from "./helpers.ts";

// `pull` uses the store interface alone: into a PostgreSQL database it ends as into SQLite.

let remote: Remote;
let db: Database;
const dir = tempDir("brewrecords-pull-pg-");

beforeAll(async () => {
  if (!HAVE_POSTGRES) return;
  remote = await startRemote();
  db = await freshPostgres();
});

afterAll(async () => {
  await remote?.stop();
  await db?.drop();
  dir.remove();
}, DROP_TIMEOUT_MS);

describe.skipIf(!HAVE_POSTGRES)("pull into PostgreSQL", () => {
  test("makes the local account equal to the remote one, and a second run finds nothing changed", async () => {
    const key = remote.account("pg");
    const env = { DATABASE_URL: db.url, DEMO: "0", PULL_API_KEY: key };
    expect(cli(["user", "add", "pg-here"], env).code).toBe(0);
    const state = join(dir.path, "pg-state.json");
    const args = ["pg-here", "--user-id", "pg", "--from", remote.url, "--state", state];
    const res = await runPull(args, env);
    expect(res.code).toBe(0);
    expect(callsOf(res.stdout)).toBe(FULL_PULL_CALLS);
    expect(await accountTexts(db.url, "pg-here")).toEqual(await accountTexts(remote.databaseUrl, "pg"));
    const again = await runPull(args, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("recipes         55  0 new, 0 updated, 55 unchanged");
  });
});
