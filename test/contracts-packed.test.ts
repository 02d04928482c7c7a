// The contract kit as an implementer of another server gets it: `npm pack` of contracts/, installed
// in a folder outside this repository (its one dependency packed from the installed copy, so no
// registry is needed), and run with Bun through its `bin` against a fresh server process.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listen, populate, prepare, secrets, SOURCES, stop, type KitServer } from "./helpers/contracts-server.ts";

const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;
const dir = mkdtempSync(join(tmpdir(), "contracts-packed-"));
const app = join(dir, "app");
const settings: Record<string, string> = {};
let server: KitServer;

function run(cmd: string[], cwd: string, env: Record<string, string> = {}) {
  const p = Bun.spawnSync(cmd, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, ...env } });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

beforeAll(async () => {
  const packed = run(["npm", "pack", join(ROOT, "contracts"), join(ROOT, "node_modules", "fast-check"), join(ROOT, "node_modules", "pure-rand"), "--pack-destination", dir], dir);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.out}`);
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ private: true }));
  const tarballs = ["brewing-records-contracts-", "fast-check-", "pure-rand-"].map((p) => packed.out.split("\n").find((l) => l.startsWith(p) && l.endsWith(".tgz"))!);
  const installed = run(["npm", "install", "--offline", "--no-audit", "--no-fund", ...tarballs.map((t) => join(dir, t))], app);
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.out}`);
  server = prepare(dir, "packed", 1_000_000, SOURCES);
  populate(server, settings);
  server = await listen(server);
}, 120_000);

afterAll(async () => {
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
});

test("the packed kit holds its own package.json, README and bin, and nothing from the server's sources", () => {
  const kit = realpathSync(join(app, "node_modules", "brewing-records-contracts"));
  expect(kit.startsWith(realpathSync(dir))).toBe(true);
  const pkg = JSON.parse(readFileSync(join(kit, "package.json"), "utf8"));
  expect(pkg.bin).toEqual({ "brewing-records-contracts": "./run.ts" });
  expect(existsSync(join(kit, "README.md"))).toBe(true);
  expect(existsSync(join(kit, "src"))).toBe(false);
  expect(existsSync(join(app, "node_modules", ".bin", "brewing-records-contracts"))).toBe(true);
});

test("the packed kit, run from outside the repository, passes every documented area against a fresh server", () => {
  const r = run([BUN, join("node_modules", ".bin", "brewing-records-contracts"), "--junit", "kit.xml"], app, {
    ...settings, CONTRACTS_BASE_URL: server.url, CONTRACTS_ALLOW_WRITES: "1", CONTRACTS_ALLOW_DELETES: "1",
    CONTRACTS_AREAS: "auth,errors,isolation,readings,lists,batches,recipes,inventory,v1", CONTRACTS_MAX_CALLS: "5000",
    CONTRACTS_DELETABLE_BATCH_ID: "main-batch-13", CONTRACTS_UNTRACKED_BATCH_ID: "main-batch-01",
  });
  expect(r.out).toMatch(/^total\s+\d+\s+0\s+0\s+0\s+\d+$/m);
  expect(r.code).toBe(0);
  expect(readFileSync(join(app, "kit.xml"), "utf8")).toContain('<testsuite name="lists"');
  for (const s of secrets) expect(r.out.includes(s)).toBe(false);
}, 120_000);

test("the packed kit exits 2 and names the key when a key is refused", () => {
  const r = run([BUN, join("node_modules", ".bin", "brewing-records-contracts")], app, {
    CONTRACTS_BASE_URL: server.url, CONTRACTS_USER_ID: settings.CONTRACTS_USER_ID!, CONTRACTS_API_KEY: "not-the-key",
  });
  expect(r.code).toBe(2);
  expect(r.out).toContain("key refused, no checks run: CONTRACTS_USER_ID/CONTRACTS_API_KEY (main key): the credentials were refused (401)");
}, 60_000);
