import { sqlitePath } from "../config.ts";
import { PostgresStore } from "./postgres.ts";
import { SqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

export const isPostgresUrl = (url: string) => /^postgres(?:ql)?:\/\//i.test(url);

/** Opens the store a DATABASE_URL names: `postgres://…` for PostgreSQL, else a SQLite path. */
export function openStore(databaseUrl: string): Store {
  if (isPostgresUrl(databaseUrl)) return PostgresStore.open(databaseUrl);
  return SqliteStore.open(sqlitePath(databaseUrl));
}
