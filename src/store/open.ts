import { ConfigError, sqlitePath } from "../config.ts";
import { SqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

/** Opens the store a DATABASE_URL names. */
export function openStore(databaseUrl: string): Store {
  if (/^postgres(?:ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL: the PostgreSQL store is not available in this version; use a SQLite path");
  }
  return SqliteStore.open(sqlitePath(databaseUrl));
}
