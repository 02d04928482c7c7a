import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { buildDemoData } from "../../src/demo/index.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir } from "../helpers/process.ts";

const dir = tempDir();
afterAll(() => dir.remove());

test("export, import into an empty database, export again: the same document byte for byte", () => {
  const first = { DATABASE_URL: join(dir.path, "first.sqlite") };
  const second = { DATABASE_URL: join(dir.path, "second.sqlite") };
  const source = join(dir.path, "demo.json");
  writeFileSync(source, JSON.stringify(buildDemoData(Date.UTC(2026, 10, 1))));
  expect(cli(["user", "add", "alice"], first).code).toBe(0);
  expect(cli(["import", "alice", source], first).code).toBe(0);
  const a = join(dir.path, "a.json");
  const b = join(dir.path, "b.json");
  const exported = cli(["export", "alice", a], first);
  expect(exported.code).toBe(0);
  expect(exported.stderr).toContain("exported");
  expect(cli(["user", "add", "bob"], second).code).toBe(0);
  expect(cli(["import", "bob", a], second).code).toBe(0);
  expect(cli(["export", "bob", b], second).code).toBe(0);
  const text = readFileSync(a, "utf8");
  expect(readFileSync(b, "utf8")).toBe(text);
  const doc = JSON.parse(text);
  const demo = buildDemoData(Date.UTC(2026, 10, 1));
  expect(doc.batches.length).toBe(demo.batches.length);
  expect(doc.recipes.length).toBe(demo.recipes.length);
  expect(doc.batches.some((x: { readings?: unknown[] }) => (x.readings?.length ?? 0) >= 50)).toBe(true);
});

test("export of an unknown user fails with exit code 1", () => {
  const res = cli(["export", "nobody", join(dir.path, "x.json")], { DATABASE_URL: join(dir.path, "first.sqlite") });
  expect(res.code).toBe(1);
  expect(res.stderr).toContain("no user nobody");
});

test("backup while the server takes writes is a consistent copy; an existing target is refused", async () => {
  const env = { DATABASE_URL: join(dir.path, "live.sqlite") };
  expect(cli(["user", "add", "carol"], env).code).toBe(0);
  const key = cli(["key", "generate", "carol", "--scopes", "all"], env).stdout.trim();
  const data = join(dir.path, "live.json");
  writeFileSync(data, JSON.stringify({ batches: Array.from({ length: 50 }, (_, i) => ({ _id: `b${String(i).padStart(3, "0")}`, name: `Batch ${i}`, status: "Planning" })) }));
  expect(cli(["import", "carol", data], env).code).toBe(0);
  const server = await startServerProcess({ ...env, RATE_LIMIT_V2_PER_HOUR: "100000" });
  let writing = true;
  const writes = (async () => {
    let n = 0;
    while (writing) {
      const res = await fetch(`${server.url}/v2/batches/b${String(n % 50).padStart(3, "0")}`, {
        method: "PATCH",
        headers: { authorization: basic("carol", key), "content-type": "application/json" },
        body: JSON.stringify({ measuredOg: 1 + (n % 100) / 1000 }),
      });
      expect(res.status).toBe(200);
      n++;
    }
    return n;
  })();
  try {
    await Bun.sleep(100);
    const target = join(dir.path, "backup.sqlite");
    const res = cli(["backup", target], env);
    expect(res.code).toBe(0);
    const copy = new Database(target, { readonly: true });
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(copy.query("SELECT count(*) AS n FROM records WHERE kind = 'batch'").get()).toEqual({ n: 50 });
    copy.close();
    const again = cli(["backup", target], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("exists");
  } finally {
    writing = false;
    expect(await writes).toBeGreaterThan(0);
    await server.stop();
  }
});

test("a logging id exported from one database is left out of an import into another, whose own keeps working", () => {
  const a = { DATABASE_URL: join(dir.path, "ids-a.sqlite") };
  const b = { DATABASE_URL: join(dir.path, "ids-b.sqlite") };
  const digestOf = (env: { DATABASE_URL: string }) => {
    const db = new Database(env.DATABASE_URL, { readonly: true });
    try {
      return (db.query("SELECT digest FROM logging_ids WHERE user_id = 'alice'").get() as { digest: string } | null)?.digest;
    } finally {
      db.close();
    }
  };
  for (const env of [a, b]) {
    expect(cli(["user", "add", "alice"], env).code).toBe(0);
    expect(cli(["logging-id", "alice"], env).code).toBe(0);
  }
  const file = join(dir.path, "ids.json");
  expect(cli(["export", "alice", file], a).code).toBe(0);
  const exported = JSON.parse(readFileSync(file, "utf8")).loggingId;
  expect([exported.digest, exported.secretTag]).toEqual([digestOf(a), expect.stringMatching(/^[0-9a-f]{16}$/)]);

  // Elsewhere: the digest could match no id there; the account keeps the id its devices use.
  const own = digestOf(b);
  const elsewhere = cli(["import", "alice", file], b);
  expect(elsewhere.code).toBe(0);
  expect(elsewhere.stderr).toContain("the logging id was not imported: it was made in another database, where devices still use it; make one here with: logging-id alice (--regenerate if alice has one)");
  expect(digestOf(b)).toBe(own);

  // Back into the database it came from (a restore): it is the account's again.
  expect(cli(["logging-id", "alice", "--regenerate"], a).code).toBe(0);
  const restored = cli(["import", "alice", file], a);
  expect([restored.code, restored.stderr.includes("not imported")]).toEqual([0, false]);
  expect(digestOf(a)).toBe(exported.digest);
});

test("export and backup to a path they cannot write, or over the database, say so in one line and write nothing", () => {
  const env = { DATABASE_URL: join(dir.path, "paths.sqlite") };
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const cases: Array<[string[], string]> = [
    [["export", "alice", join(dir.path, "missing-dir", "x.json")], `brewrecords: cannot write ${join(dir.path, "missing-dir", "x.json")}: `],
    [["export", "alice", dir.path], `brewrecords: cannot write ${dir.path}: `],
    [["export", "alice", env.DATABASE_URL], `brewrecords: ${env.DATABASE_URL} is the database itself; export to another file`],
    [["backup", join(dir.path, "missing-dir", "b.sqlite")], `brewrecords: cannot write the backup to ${join(dir.path, "missing-dir", "b.sqlite")}: `],
  ];
  for (const [args, start] of cases) {
    const res = cli(args, env);
    expect([args.join(" "), res.code, res.stderr.startsWith(start), res.stderr.includes("    at ")]).toEqual([args.join(" "), 1, true, false]);
  }
  // The database is whole, and no temporary file is left beside the targets.
  expect(cli(["export", "alice", join(dir.path, "after.json")], env).code).toBe(0);
  expect(readdirSync(dir.path).filter((f) => f.endsWith(".tmp"))).toEqual([]);
});
