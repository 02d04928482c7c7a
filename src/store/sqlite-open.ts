import { Database } from "bun:sqlite";
import type { SqliteSynchronous } from "../config.ts";
import { MIGRATIONS } from "./sqlite-schema.ts";

// Opening a SQLite database: the file, its pragmas, and the versioned migrations (sqlite-schema.ts).

export interface SqliteOptions {
  /** NORMAL (the default) or FULL; SQLITE_SYNCHRONOUS in config.ts. */
  synchronous?: SqliteSynchronous;
}

/** The page cache of the connection, in KiB (SQLite takes a negative cache_size as KiB). */
export const PAGE_CACHE_KIB = 16_384;

export function openDatabase(path: string, options: SqliteOptions = {}): Database {
  const db = openFile(path);
  // WAL with synchronous=NORMAL survives a process crash without losing a committed write; FULL also
  // an OS crash or power loss, at an fsync per commit (docs/decisions.md). A second writer waits
  // instead of failing at once. The value is one of two literals, never text from outside.
  const synchronous = options.synchronous === "FULL" ? "FULL" : "NORMAL";
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA synchronous = ${synchronous}`);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = ON");
  // SQLite's default page cache is 2 MiB: a few hundred pages, fewer than a run of writes to a hundred
  // large batches touches, with their events beside them (docs/decisions.md, "Storage").
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  migrate(db);
  return db;
}

/**
 * The database file, created when missing, with its folder. The folder is made only when the open
 * fails for want of it: node:fs then loads, which a start on an existing database never needs.
 */
function openFile(path: string): Database {
  try {
    return new Database(path, { create: true, strict: true });
  } catch (e) {
    if (path === ":memory:" || (e as { code?: string }).code !== "SQLITE_CANTOPEN") throw e;
    const { mkdirSync } = require("node:fs") as typeof import("node:fs");
    const { dirname } = require("node:path") as typeof import("node:path");
    mkdirSync(dirname(path), { recursive: true });
    return new Database(path, { create: true, strict: true });
  }
}

const schemaVersion = (db: Database) => (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;

/** Brings the schema up to date. A database already there is only read: no write at every start. */
function migrate(db: Database): void {
  const check = (applied: number) => {
    if (applied > MIGRATIONS.length) throw new Error(`database schema version ${applied} is newer than this server (${MIGRATIONS.length})`);
    return applied < MIGRATIONS.length;
  };
  if (!check(schemaVersion(db))) return;
  // Under the write lock, read again: another process may have migrated in between.
  db.transaction(() => {
    const applied = schemaVersion(db);
    if (!check(applied)) return;
    for (let v = applied; v < MIGRATIONS.length; v++) {
      const step = MIGRATIONS[v];
      if (typeof step === "string") db.exec(step);
      else step(db);
    }
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
