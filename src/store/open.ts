import { sqlitePath } from "../config.ts";
import { SqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

export const isPostgresUrl = (url: string) => /^postgres(?:ql)?:\/\//i.test(url);

/**
 * Opens the store a DATABASE_URL names: `postgres://…` for PostgreSQL, else a SQLite path. The
 * PostgreSQL store's code is loaded only when it is asked for.
 */
export async function openStore(databaseUrl: string): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) return (await import("./postgres.ts")).PostgresStore.open(databaseUrl);
  return SqliteStore.open(sqlitePath(databaseUrl));
}
