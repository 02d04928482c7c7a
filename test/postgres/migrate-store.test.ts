import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createDemoAccount } from "../../src/demo-account.ts";
import { PostgresStore } from "../../src/store/postgres.ts";
import { moveStore, TABLES } from "../../src/store/move.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { ImportBatch, Store } from "../../src/store/types.ts";
import { basic } from "../helpers/app.ts";
import { cli, tempDir } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// migrate-store copies every account, key (digest and the HMAC secret), document and count between
// SQLite and PostgreSQL, either way, verifies rows and a checksum per table, and refuses a target that
// holds data unless --force.
async function answer(store: Store, userId: string, key: string, path: string) {
  const app = createApp(loadConfig({ DEMO: "0", LOG_LEVEL: "silent" }), store);
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: basic(userId, key) } }));
  return { status: res.status, text: await res.text() };
}

describe.skipIf(!HAVE_POSTGRES)("migrate-store", () => {
  const dir = tempDir();
  let pg: Database;
  let demo: { userId: string; key: string };
  const sqliteFile = join(dir.path, "source.sqlite");

  beforeAll(async () => {
    pg = await freshPostgres();
    const source = SqliteStore.open(sqliteFile);
    demo = await createDemoAccount(source, Date.UTC(2025, 0, 1));
    await source.createUser("pat", "argon-hash");
    await source.saveRateCounts(Date.UTC(2025, 0, 1), [{ userId: demo.userId, apiVersion: 2, count: 12 }]);
    await source.close();
  });
  afterAll(async () => {
    await pg.drop();
    dir.remove();
  }, DROP_TIMEOUT_MS);

  test("the demo data moves SQLite → PostgreSQL with every table verified, and its key keeps working", async () => {
    const res = cli(["migrate-store", "--from", sqliteFile, "--to", pg.url], { DATABASE_URL: join(dir.path, "unused.sqlite") });
    expect(res.stderr).toContain(`copied and verified ${TABLES.length} tables`);
    expect(res.code).toBe(0);
    for (const t of TABLES) expect(res.stderr).toMatch(new RegExp(`^${t.name} +\\d+ rows  sha256 [0-9a-f]{64}  ok$`, "m"));
    const source = SqliteStore.open(sqliteFile);
    const target = PostgresStore.open(pg.url);
    expect(await target.exportAll(demo.userId)).toEqual(await source.exportAll(demo.userId));
    expect(await target.getApiKey(demo.userId)).toEqual(await source.getApiKey(demo.userId));
    expect(await target.getUser("pat")).toEqual(await source.getUser("pat"));
    expect(await target.loadRateCounts(Date.UTC(2025, 0, 1))).toEqual([{ userId: demo.userId, apiVersion: 2, count: 12 }]);
    for (const path of ["/v2/batches?limit=50", "/v2/recipes?order_by=name", "/v2/inventory/hops?inventory_exists=True"]) {
      const before = await answer(source, demo.userId, demo.key, path);
      expect(before.status).toBe(200);
      expect(await answer(target, demo.userId, demo.key, path)).toEqual(before);
    }
    await source.close();
    await target.close();
  });

  test("a target with data is refused without --force and replaced with it", () => {
    const refused = cli(["migrate-store", "--from", sqliteFile, "--to", pg.url], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the target store is not empty; add --force to replace its contents");
    const forced = cli(["migrate-store", "--from", sqliteFile, "--to", pg.url, "--force"], {});
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(`copied and verified ${TABLES.length} tables`);
  });

  test("one SQLite file named two ways, with --force, is written back as it was", async () => {
    const same = join(dir.path, "same.sqlite");
    const copy = SqliteStore.open(same);
    const made = await createDemoAccount(copy, Date.UTC(2025, 0, 1));
    const before = await copy.exportAll(made.userId);
    await copy.close();
    const res = cli(["migrate-store", "--from", same, "--to", `sqlite://${same}`, "--force"], { DATABASE_URL: join(dir.path, "unused.sqlite") });
    expect([res.code, res.stderr]).toEqual([0, expect.stringContaining(`copied and verified ${TABLES.length} tables`)]);
    const after = SqliteStore.open(same);
    expect(await after.exportAll(made.userId)).toEqual(before);
    expect(before.batches.length).toBeGreaterThan(0);
    await after.close();
  });

  test("a copy the target refuses midway leaves the target as it was, and says so", async () => {
    const target = PostgresStore.open(pg.url);
    const before = await target.exportAll(demo.userId);
    await target.close();
    expect(before.batches.length).toBeGreaterThan(0);
    // PostgreSQL text holds no NUL character; SQLite takes it.
    const bad = join(dir.path, "nul.sqlite");
    const source = SqliteStore.open(bad);
    await source.createUser("nul", null);
    await source.insert("nul", "batch", { _id: "a\u0000b", name: "NUL" });
    await source.close();
    const res = cli(["migrate-store", "--from", bad, "--to", pg.url, "--force"], { DATABASE_URL: join(dir.path, "unused.sqlite") });
    expect(res.code).toBe(1);
    expect(res.stderr).toStartWith("brewrecords: migrate-store: the copy failed and the target is unchanged: ");
    expect(res.stderr).not.toContain("    at ");
    const after = PostgresStore.open(pg.url);
    expect(await after.exportAll(demo.userId)).toEqual(before);
    await after.close();
  });

  test("a webhook's previous secret and its end move with it, there and back", async () => {
    const from = join(dir.path, "hooks.sqlite");
    const source = SqliteStore.open(from);
    await source.createUser("hana", null);
    await source.addWebhook({ id: "wh_move", userId: "hana", url: "https://example.com/h", events: ["batch.updated"], sealedSecret: "sealed-1", createdAt: 1, failingSince: null });
    expect(await source.rotateWebhookSecret("hana", "wh_move", "sealed-2", 1_800_000_000_000)).toBe(true);
    await source.close();
    const back = join(dir.path, "hooks-back.sqlite");
    const between = await freshPostgres();
    try {
      for (const [a, b] of [[from, between.url], [between.url, back]] as const) {
        const res = cli(["migrate-store", "--from", a, "--to", b], { DATABASE_URL: join(dir.path, "unused.sqlite") });
        expect([res.code, res.stderr]).toEqual([0, expect.stringContaining("copied and verified")]);
      }
    } finally {
      await between.drop();
    }
    const { Database: Sqlite } = await import("bun:sqlite");
    const db = new Sqlite(back, { readonly: true });
    expect(db.query("SELECT secret, previous_secret, previous_until FROM webhooks WHERE id = 'wh_move'").get()).toEqual({ secret: "sealed-2", previous_secret: "sealed-1", previous_until: 1_800_000_000_000 });
    db.close();
  });

  test("PostgreSQL → SQLite gives back the same data", async () => {
    const back = join(dir.path, "back.sqlite");
    const res = cli(["migrate-store", "--from", pg.url, "--to", back], {});
    expect(res.code).toBe(0);
    const a = SqliteStore.open(sqliteFile);
    const b = SqliteStore.open(back);
    expect(await b.exportAll(demo.userId)).toEqual(await a.exportAll(demo.userId));
    expect(await answer(b, demo.userId, demo.key, "/v2/batches")).toEqual(await answer(a, demo.userId, demo.key, "/v2/batches"));
    await a.close();
    await b.close();
  });

  test("backup on PostgreSQL writes a consistent SQLite copy the server can open", async () => {
    const file = join(dir.path, "backup.sqlite");
    const res = cli(["backup", file], { DATABASE_URL: pg.url });
    expect([res.code, res.stderr.trim()]).toEqual([0, `backup written to ${file}`]);
    const copy = SqliteStore.open(file);
    const source = SqliteStore.open(sqliteFile);
    expect(await copy.exportAll(demo.userId)).toEqual(await source.exportAll(demo.userId));
    expect(await answer(copy, demo.userId, demo.key, "/v2/recipes")).toEqual(await answer(source, demo.userId, demo.key, "/v2/recipes"));
    await copy.close();
    await source.close();
  });

  test("a missing source file, a missing option and one store named twice are refused", () => {
    const missing = cli(["migrate-store", "--from", join(dir.path, "nope.sqlite"), "--to", pg.url], {});
    expect([missing.code, missing.stderr.trim()]).toEqual([1, `brewrecords: --from: no SQLite database at ${join(dir.path, "nope.sqlite")}`]);
    const noTo = cli(["migrate-store", "--from", sqliteFile], {});
    expect(noTo.code).toBe(1);
    expect(noTo.stderr).toContain("--to needs a value");
    expect(cli(["migrate-store", "--from", pg.url, "--to", pg.url], {}).stderr).toContain("--from and --to name the same store");
  });

  test("an account of 10,000 batches with 100 readings each moves to PostgreSQL and verifies", async () => {
    const big = SqliteStore.open(join(dir.path, "big.sqlite"));
    await big.createUser("brewer", null);
    const batches: ImportBatch[] = Array.from({ length: 10_000 }, (_, b) => ({
      doc: { _id: `batch${String(b).padStart(5, "0")}`, name: `Batch ${b}`, batchNo: b, status: "Completed", brewDate: 1_700_000_000_000 + b * 86_400_000 },
      readings: Array.from({ length: 100 }, (_, r) => ({ time: 1_700_000_000_000 + r * 3_600_000, sg: 1.05 - r / 5000, temp: 19.5, type: "manual" })),
    }));
    await big.importAll("brewer", { batches, docs: [] });
    const target = await freshPostgres();
    const pgStore = PostgresStore.open(target.url);
    try {
      const reports = await moveStore(big, pgStore, { force: false });
      const byTable = Object.fromEntries(reports.map((r) => [r.table, r]));
      expect(reports.every((r) => r.ok)).toBe(true);
      expect(byTable.records.target.rows).toBe(10_000);
      expect(byTable.reading_lists.target.rows).toBe(10_000);
      expect(byTable.readings.target.rows).toBe(1_000_000);
      expect(JSON.parse((await pgStore.readings("brewer", "batch09999"))!).length).toBe(100);
      const page = await pgStore.list("brewer", "batch", { limit: 2, orderBy: "brewDate", desc: true, fields: "summary" });
      expect(page).toEqual(await big.list("brewer", "batch", { limit: 2, orderBy: "brewDate", desc: true, fields: "summary" }));
    } finally {
      await pgStore.close();
      await big.close();
      await target.drop();
    }
  }, 120_000);
});
