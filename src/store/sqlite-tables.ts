import type { Database } from "bun:sqlite";
import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { numbersIn, selectAll } from "./move.ts";
import type { TableAccess, TableRow } from "./types.ts";

/**
 * Whole tables of the SQLite store, for migrate-store. Records are written through `writeRecord`, so
 * the columns SQLite derives from a document (summaries, position keys) are computed by its own code;
 * every other table is written as it comes.
 */
export function sqliteTables(db: Database, writeRecord: (userId: string, kind: Kind, doc: Doc) => void): TableAccess {
  return {
    async read(tables) {
      const out = new Map<string, TableRow[]>();
      db.transaction(() => {
        for (const t of tables) out.set(t.name, numbersIn(t, db.query(selectAll(t)).values() as TableRow[]));
      }).deferred();
      return out;
    },
    async count(tables) {
      return new Map(tables.map((t) => [t.name, (db.query(`SELECT count(*) AS n FROM ${t.name}`).get() as { n: number }).n]));
    },
    async replace(tables, data) {
      db.transaction(() => {
        // Children first: api_keys refers to users.
        for (const t of [...tables].reverse()) db.exec(`DELETE FROM ${t.name}`);
        for (const t of tables) {
          const rows = data.get(t.name) ?? [];
          if (t.name === "records") {
            const body = t.columns.indexOf("body");
            for (const row of rows) writeRecord(String(row[0]), row[1] as Kind, JSON.parse(String(row[body])) as Doc);
            continue;
          }
          const insert = db.prepare(`INSERT INTO ${t.name} (${t.columns.join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})`);
          try {
            for (const row of rows) insert.run(...(row as Array<string | number | null>));
          } finally {
            insert.finalize();
          }
        }
      }).immediate();
    },
  };
}
