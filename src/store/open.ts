import { sqlitePath, type Config } from "../config.ts";
import { SqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

export const isPostgresUrl = (url: string) => /^postgres(?:ql)?:\/\//i.test(url);

/**
 * Opens the store a DATABASE_URL names: `postgres://…` for PostgreSQL, else a SQLite path. The
 * PostgreSQL store's code is loaded only when it is asked for. `settings` are the configuration's
 * store settings (SQLITE_SYNCHRONOUS); without them, the defaults.
 */
export async function openStore(databaseUrl: string, settings?: Pick<Config, "sqliteSynchronous">): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) return (await import("./postgres.ts")).PostgresStore.open(databaseUrl);
  return SqliteStore.open(sqlitePath(databaseUrl), { synchronous: settings?.sqliteSynchronous });
}
