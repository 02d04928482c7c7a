import type { SQL } from "bun";
import type { Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { encodeRecord } from "./records.ts";

// Rows of the PostgreSQL store as written in bulk: one multi-row statement per chunk, in the caller's
// transaction, so an import of thousands of documents is a few round trips.

export interface RecordRow {
  user_id: string;
  kind: Kind;
  id: string;
  body: string;
  summary: string;
  status: string | null;
  inventory: number | null;
}

export function encodedRow(userId: string, kind: Kind, doc: Doc): RecordRow {
  const rec = encodeRecord(kind, doc);
  return { user_id: userId, kind, id: rec.id, body: rec.body, summary: rec.summary, status: rec.status, inventory: rec.inventory };
}

const CHUNK = 500;

/** Inserts or replaces records; of two with one key the later wins, as one-by-one writes would. */
export async function copyRecords(tx: SQL, rows: RecordRow[]): Promise<void> {
  const byKey = new Map<string, RecordRow>();
  for (const r of rows) byKey.set(`${r.kind}/${r.id}`, r);
  const unique = [...byKey.values()];
  for (let i = 0; i < unique.length; i += CHUNK) {
    await tx`INSERT INTO records ${tx(unique.slice(i, i + CHUNK))}
      ON CONFLICT (user_id, kind, id) DO UPDATE SET body = excluded.body, summary = excluded.summary,
        status = excluded.status, inventory = excluded.inventory`;
  }
}
