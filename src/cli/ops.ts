import { existsSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { Config } from "../config.ts";
import { toImportDocument } from "../import.ts";
import { sqlitePath } from "../config.ts";
import { isPostgresUrl, openStore } from "../store/open.ts";
import type { Store } from "../store/types.ts";
import { keySecretTag } from "../store/keys.ts";
import { onlyArguments, UsageError } from "./usage-error.ts";

/** Operations commands (export, backup); undefined when `args` is not one of them. */
export async function runOpsCommand(args: string[], store: Store, config: Config): Promise<number | undefined> {
  const [cmd, first, second] = args;
  if (cmd === "export") {
    if (!first || !second) throw new UsageError("usage: export <userId> <file.json>");
    onlyArguments("export", args.slice(1), { positional: 2 }, "usage: export <userId> <file.json>");
    if (!(await store.userExists(first))) throw new UsageError(`no user ${first}`);
    const set = await store.exportAll(first);
    // Which database's secret the logging id's digest was made under: an import elsewhere leaves it out.
    if (set.loggingId) set.loggingId.secretTag = await keySecretTag(store);
    const doc = toImportDocument(set);
    const database = isPostgresUrl(config.databaseUrl) ? undefined : sqlitePath(config.databaseUrl);
    if (database && database !== ":memory:" && existsSync(database) && existsSync(second) && realpathSync(second) === realpathSync(database)) {
      throw new UsageError(`${second} is the database itself; export to another file`);
    }
    // Whole or not at all: a new file renamed over the target, so an interrupted export never leaves
    // half a document where a good one was.
    const temp = `${second}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(doc, null, 1) + "\n");
      renameSync(temp, second);
    } catch (e) {
      rmSync(temp, { force: true });
      throw new UsageError(`cannot write ${second}: ${(e as Error).message}`);
    }
    console.error(`exported ${doc.batches.length} batches and ${countOthers(doc)} other documents of ${first} to ${second}`);
    return 0;
  }
  if (cmd === "backup") {
    if (!first) throw new UsageError("usage: backup <file.sqlite>");
    onlyArguments("backup", args.slice(1), { positional: 1 }, "usage: backup <file.sqlite>");
    if (existsSync(first)) throw new UsageError(`${first} exists; a backup is written to a new file only`);
    try {
      await store.backup(first);
    } catch (e) {
      throw new UsageError(`cannot write the backup to ${first}: ${(e as Error).message}`);
    }
    console.error(`backup written to ${first}`);
    return 0;
  }
  return undefined;
}

/** Operations commands that need no open store: healthcheck, migrate-store. */
export async function runStorelessCommand(args: string[], config: Config): Promise<number> {
  if (args[0] === "healthcheck") return healthcheck(config);
  return migrateStore(args.slice(1));
}

const MIGRATE_USAGE = "usage: migrate-store --from <url> --to <url> [--force]";

/** Copies a whole database to another store (SQLite or PostgreSQL, either way) and verifies the copy. */
async function migrateStore(args: string[]): Promise<number> {
  const value = (name: string) => {
    const i = args.indexOf(name);
    const v = i === -1 ? undefined : args[i + 1];
    if (!v || v.startsWith("--")) throw new UsageError(`${name} needs a value\n${MIGRATE_USAGE}`);
    return v;
  };
  onlyArguments("migrate-store", args, { positional: 0, values: ["--from", "--to"], flags: ["--force"] }, MIGRATE_USAGE);
  const from = value("--from");
  const to = value("--to");
  if (from === to) throw new UsageError("--from and --to name the same store");
  // Opening a SQLite path creates it: a mistyped source must not become an empty store copied over.
  if (!isPostgresUrl(from) && !existsSync(sqlitePath(from))) throw new UsageError(`--from: no SQLite database at ${sqlitePath(from)}`);
  const { moveStore, MoveError } = await import("../store/move.ts");
  const source = await openStore(from);
  const target = await openStore(to);
  try {
    const reports = await moveStore(source, target, { force: args.includes("--force") });
    for (const r of reports) console.error(`${r.table.padEnd(12)} ${String(r.target.rows).padStart(9)} rows  sha256 ${r.target.sha256}  ok`);
    console.error(`copied and verified ${reports.length} tables`);
    return 0;
  } catch (e) {
    // A store's own failure (a row the target refuses, a lost connection): its one transaction was
    // rolled back, so the target is as it was.
    if (!(e instanceof MoveError)) throw new UsageError(`migrate-store: the copy failed and the target is unchanged: ${(e as Error).message}`);
    for (const r of (e as { reports?: Array<{ table: string; ok: boolean; source: { rows: number; sha256: string }; target: { rows: number; sha256: string } }> }).reports ?? []) {
      console.error(`${r.table.padEnd(12)} source ${r.source.rows} rows ${r.source.sha256}  target ${r.target.rows} rows ${r.target.sha256}  ${r.ok ? "ok" : "DIFFERENT"}`);
    }
    throw new UsageError(`migrate-store: ${e.message}`);
  } finally {
    await source.close();
    await target.close();
  }
}

/**
 * Asks the local server for /healthz (the container's HEALTHCHECK). Over HTTPS the certificate is
 * not checked: the call never leaves this machine, and the name in it is the public one.
 */
async function healthcheck(config: Config): Promise<number> {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = `${config.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${config.port}/healthz`;
  try {
    const res = await fetch(url, { tls: { rejectUnauthorized: false }, signal: AbortSignal.timeout(4000) });
    console.log(`${res.status} ${await res.text()}`);
    return res.status === 200 ? 0 : 1;
  } catch (e) {
    console.error(`healthcheck: ${url}: ${(e as Error).message}`);
    return 1;
  }
}

function countOthers(doc: ReturnType<typeof toImportDocument>): number {
  return doc.recipes.length + doc.fermentables.length + doc.hops.length + doc.miscs.length + doc.yeasts.length;
}
