import type { SQL } from "bun";
import { numbersIn, selectAll } from "./move.ts";
import { insertReadingRows } from "./postgres-schema.ts";
import type { TableAccess, TableRow, TableSpec } from "./types.ts";

/** Whole tables of the PostgreSQL store, for migrate-store; `db` gives the pool once migrated. */
export function postgresTables(db: () => Promise<SQL>): TableAccess {
  return {
    async read(tables) {
      const out = new Map<string, TableRow[]>();
      const sql = await db();
      await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
        for (const t of tables) out.set(t.name, numbersIn(t, (await tx.unsafe(selectAll(t)).values()) as TableRow[]));
      });
      return out;
    },
    async count(tables) {
      const sql = await db();
      const counts = new Map<string, number>();
      for (const t of tables) counts.set(t.name, Number((await sql.unsafe(`SELECT count(*) AS n FROM ${t.name}`))[0].n));
      return counts;
    },
    async replace(tables, data) {
      const sql = await db();
      // Every table in one transaction, a few hundred rows per statement.
      await sql.begin(async (tx: SQL) => {
        // Children first: api_keys refers to users.
        for (const t of [...tables].reverse()) await tx.unsafe(`DELETE FROM ${t.name}`);
        for (const t of tables) {
          const rows = asObjects(t, data.get(t.name) ?? []);
          // Readings are most of the rows: thousands per statement, bound as arrays.
          if (t.name === "readings" || t.name === "device_readings") await insertReadingRows(tx, t.name, rows as Array<Record<string, string | number>>);
          else for (let i = 0; i < rows.length; i += 500) await tx`INSERT INTO ${tx(t.name)} ${tx(rows.slice(i, i + 500))}`;
        }
      });
    },
  };
}

const asObjects = (t: TableSpec, rows: TableRow[]) => rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i]])));
