import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../src/store/sqlite.ts";
import { batches } from "./lib/dataset.ts";
import { median } from "./lib/report.ts";

// Importing a large export, the first thing a brewer moving from the hosted service does: the real
// command line (`brewrecords import`, one transaction) against a bare bun:sqlite insert loop of the
// same rows (bench/reference/import-loop.ts), each a fresh process on a fresh database, taken in
// turn. Usage: bun bench/import.ts [rounds, default 3] [batches, default 1000] [readings per batch, default 200]
// The ratio is the loop's time ÷ the import's (target ≥ 0.5×, docs/performance.md).

const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;
const [rounds, count, perBatch] = [3, 1_000, 200].map((fallback, i) => Number(process.argv[2 + i] ?? fallback));
const dir = mkdtempSync(join(tmpdir(), "brewrecords-bench-import-"));
const file = join(dir, "export.json");

function timed(cmd: string[], env: Record<string, string> = {}): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(["taskset", "-c", "0", ...cmd], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString()}`);
  return ms;
}

/** A fresh database with the server's schema and the account, as `user add` leaves it. */
async function freshDatabase(name: string): Promise<string> {
  const path = join(dir, `${name}.sqlite`);
  for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
  const store = SqliteStore.open(path);
  await store.createUser("bench", null);
  await store.close();
  return path;
}

try {
  const docs = [...batches({ count, seed: 11, withReadings: count, readingsPerBatch: perBatch })];
  writeFileSync(file, JSON.stringify({ batches: docs }));
  console.error(`[import] ${count} batches with ${count * perBatch} readings: ${(Bun.file(file).size / 1e6).toFixed(0)} MB of export`);
  const server: number[] = [];
  const loop: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const sides = [
      async () => server.push(timed([BUN, "src/cli/main.ts", "import", "bench", file], { DATABASE_URL: await freshDatabase("server"), DEMO: "0" })),
      async () => loop.push(timed([BUN, "bench/reference/import-loop.ts", await freshDatabase("loop"), "bench", file])),
    ];
    if (r % 2) sides.reverse();
    for (const side of sides) await side();
    const ratio = loop[r] / server[r];
    console.error(`[import] round ${r + 1}: import ${server[r].toFixed(0)} ms, bare loop ${loop[r].toFixed(0)} ms, ratio ${ratio.toFixed(2)}`);
  }
  const ratios = server.map((s, i) => loop[i] / s);
  const rows = new Database(join(dir, "server.sqlite"), { readonly: true });
  const stored = rows.query("SELECT (SELECT count(*) FROM records) AS records, (SELECT count(*) FROM readings) AS readings").get();
  rows.close();
  console.log(JSON.stringify({ batches: count, readings: count * perBatch, importMs: median(server), loopMs: median(loop), ratio: median(ratios), ratios, stored }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
