// Versioned migrations of the PostgreSQL store: schema_version holds the number applied. They run inside
// one transaction holding an advisory lock, so of several instances starting at once one migrates and
// the others wait, then find nothing left to do.
import type { SQL } from "bun";
import { readingRows } from "./reading-rows.ts";

/** SQL text, or a step that needs JavaScript (values SQL cannot compute); run in the migration's transaction. */
export type PgMigration = string | ((tx: SQL) => Promise<void>);

/** Key of the advisory lock taken while migrating ("brewrecords" in ASCII, folded into a bigint). */
export const MIGRATION_LOCK = 7_164_210_812_993_715;

/**
 * Sort keys of a JSON value, so ORDER BY gives SQLite's order exactly: missing or null first (SQLite
 * sorts them as -Infinity), then numbers and booleans (as 1 and 0) by value, then strings and JSON
 * texts of objects and arrays by their bytes. Three immutable functions, so they can be indexed.
 */
const SORT_FUNCTIONS = `
  CREATE FUNCTION br_rank(body text, path text[]) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE json_typeof(body::json #> path)
      WHEN 'number' THEN 1 WHEN 'boolean' THEN 1
      WHEN 'string' THEN 2 WHEN 'object' THEN 2 WHEN 'array' THEN 2 ELSE 0 END $$;
  CREATE FUNCTION br_num(body text, path text[]) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE json_typeof(body::json #> path)
      WHEN 'number' THEN (body::json #>> path)::numeric
      WHEN 'boolean' THEN CASE WHEN body::json #>> path = 'true' THEN 1 ELSE 0 END
      ELSE 0 END $$;
  -- PostgreSQL text cannot hold NUL: a string escaping one sorts by its escaped JSON text instead.
  CREATE FUNCTION br_txt(body text, path text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
      WHEN COALESCE(json_typeof(body::json #> path), 'null') NOT IN ('string', 'object', 'array') THEN ''
      WHEN strpos((body::json #> path)::text, '\\u0000') > 0 THEN (body::json #> path)::text
      ELSE body::json #>> path END $$;
`;

/** Characters of a text sort key held in an index: a B-tree entry must stay under about 2.7 kB. */
export const TEXT_PREFIX = 256;

/** The sort key columns of a JSON path, as SQL expressions; `path` is a text[] literal or parameter. */
export function jsonSortKeys(path: string): string[] {
  return [
    `br_rank(body, ${path})`,
    `br_num(body, ${path})`,
    // A B-tree entry must stay under about 2.7 kB, so texts sort by their first 256 characters;
    // texts alike that far are tied and ordered by `_id` (docs/decisions.md).
    `(left(br_txt(body, ${path}), ${TEXT_PREFIX}) COLLATE "C")`,
  ];
}

/** Fields with an expression index of their own; the SQL repeats the indexed expression exactly. */
export const INDEXED_PATHS: ReadonlySet<string> = new Set(["brewDate", "name", "batchNo"]);

export const indexedPath = (field: string) => `'{${field}}'::text[]`;

function jsonIndex(name: string, field: string): string {
  const keys = jsonSortKeys(indexedPath(field));
  return `CREATE INDEX ${name} ON records (user_id, kind, ${keys.join(", ")}, id);`;
}

export const STOCK_KEY = `COALESCE(inventory, '-Infinity'::float8)`;

/** Webhook subscriptions, their outbox (one row per event and subscription while undelivered) and their last attempts. */
const POSTGRES_WEBHOOK_TABLES = `
  CREATE TABLE webhooks (
    id TEXT COLLATE "C" PRIMARY KEY,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    failing_since BIGINT
  );
  CREATE INDEX webhooks_user ON webhooks (user_id, created_at);
  CREATE TABLE webhook_deliveries (
    seq BIGSERIAL PRIMARY KEY,
    webhook_id TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    resource TEXT COLLATE "C" NOT NULL,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    next_at BIGINT NOT NULL
  );
  CREATE INDEX webhook_deliveries_resource ON webhook_deliveries (webhook_id, resource, seq);
  CREATE TABLE webhook_attempts (
    id BIGSERIAL PRIMARY KEY,
    webhook_id TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    at BIGINT NOT NULL,
    status INTEGER,
    duration_ms INTEGER NOT NULL,
    detail TEXT
  );
  CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);
`;

export const MIGRATIONS: readonly PgMigration[] = [
  `
  CREATE TABLE meta (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE users (
    id TEXT COLLATE "C" PRIMARY KEY,
    password_hash TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE api_keys (
    user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    scopes TEXT NOT NULL,
    api_version INTEGER NOT NULL,
    created_at BIGINT NOT NULL
  );
  -- Text columns compare by bytes ("C"), as SQLite's BINARY does, so both stores page alike.
  CREATE TABLE records (
    user_id TEXT COLLATE "C" NOT NULL,
    kind TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    body TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT COLLATE "C",
    inventory DOUBLE PRECISION,
    PRIMARY KEY (user_id, kind, id)
  );
  CREATE INDEX records_status ON records (user_id, kind, status, id);
  CREATE INDEX records_inventory ON records (user_id, kind, ${STOCK_KEY}, id);
  ${SORT_FUNCTIONS}
  ${jsonIndex("records_brew_date", "brewDate")}
  ${jsonIndex("records_name", "name")}
  ${jsonIndex("records_batch_no", "batchNo")}
  CREATE TABLE readings (
    user_id TEXT COLLATE "C" NOT NULL,
    batch_id TEXT COLLATE "C" NOT NULL,
    body TEXT NOT NULL,
    last TEXT,
    PRIMARY KEY (user_id, batch_id)
  );
  CREATE TABLE trackers (
    user_id TEXT COLLATE "C" NOT NULL,
    batch_id TEXT COLLATE "C" NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (user_id, batch_id)
  );
  CREATE TABLE rate_counts (
    user_id TEXT COLLATE "C" NOT NULL,
    api_version INTEGER NOT NULL,
    window_start BIGINT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (user_id, api_version, window_start)
  );
  `,
  toReadingRows,
  // Webhook subscriptions, their outbox and their last attempts.
  POSTGRES_WEBHOOK_TABLES,
  // A rotated subscription's previous signing secret (sealed) and until when it still signs (sqlite-schema.ts).
  `ALTER TABLE webhooks ADD COLUMN previous_secret TEXT, ADD COLUMN previous_until BIGINT;`,
];

const SERIES_COLUMNS = `
    at DOUBLE PRECISION NOT NULL,
    seq INTEGER NOT NULL,
    timed SMALLINT NOT NULL,
    body TEXT NOT NULL`;

/**
 * Readings become rows, as in the SQLite store (sqlite-schema.ts, toReadingRows): each stored array's
 * elements, in its order, by the same code (reading-rows.ts); devices and logging ids arrive with them.
 */
async function toReadingRows(tx: SQL): Promise<void> {
  await tx.unsafe(`
    ALTER TABLE readings RENAME TO readings_arrays;
    CREATE TABLE reading_lists (
      user_id TEXT COLLATE "C" NOT NULL,
      batch_id TEXT COLLATE "C" NOT NULL,
      PRIMARY KEY (user_id, batch_id)
    );
    CREATE TABLE readings (
      user_id TEXT COLLATE "C" NOT NULL,
      batch_id TEXT COLLATE "C" NOT NULL,${SERIES_COLUMNS},
      PRIMARY KEY (user_id, batch_id, at, seq)
    );
    CREATE TABLE devices (
      user_id TEXT COLLATE "C" NOT NULL,
      type TEXT COLLATE "C" NOT NULL,
      name TEXT COLLATE "C" NOT NULL,
      batch_id TEXT COLLATE "C",
      last_log BIGINT,
      last_data TEXT,
      settings TEXT NOT NULL,
      first_seen BIGINT NOT NULL,
      PRIMARY KEY (user_id, type, name)
    );
    CREATE INDEX devices_batch ON devices (user_id, batch_id);
    CREATE TABLE device_readings (
      user_id TEXT COLLATE "C" NOT NULL,
      type TEXT COLLATE "C" NOT NULL,
      name TEXT COLLATE "C" NOT NULL,${SERIES_COLUMNS},
      PRIMARY KEY (user_id, type, name, at, seq)
    );
    CREATE TABLE logging_ids (
      user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      digest TEXT COLLATE "C" NOT NULL UNIQUE,
      created_at BIGINT NOT NULL
    );
    INSERT INTO reading_lists (user_id, batch_id) SELECT user_id, batch_id FROM readings_arrays;
  `);
  // A few hundred arrays at a time, in key order, so a large database is never read whole.
  let after: [string, string] = ["", ""];
  for (;;) {
    const arrays = await tx`SELECT user_id, batch_id, body FROM readings_arrays WHERE (user_id, batch_id) > (${after[0]}, ${after[1]})
      ORDER BY user_id, batch_id LIMIT 200`;
    if (!arrays.length) break;
    const rows = arrays.flatMap((a: { user_id: string; batch_id: string; body: string }) =>
      readingRows(JSON.parse(a.body)).map((r) => ({ user_id: a.user_id, batch_id: a.batch_id, ...r })),
    );
    await insertReadingRows(tx, "readings", rows);
    const last = arrays[arrays.length - 1];
    after = [last.user_id, last.batch_id];
  }
  await tx.unsafe("DROP TABLE readings_arrays");
}

/** Inserts rows of a series' table, a few thousand per statement (five arrays bound, not five values a row). */
export async function insertReadingRows(tx: SQL, table: "readings" | "device_readings", rows: Array<Record<string, string | number>>): Promise<void> {
  const owner = table === "readings" ? ["batch_id"] : ["type", "name"];
  const columns = ["user_id", ...owner, "at", "seq", "timed", "body"];
  const types = ["text", ...owner.map(() => "text"), "float8", "int4", "int2", "text"];
  const sql = `INSERT INTO ${table} (${columns.join(", ")}) SELECT * FROM unnest(${columns.map((_, i) => `$${i + 1}::${types[i]}[]`).join(", ")})`;
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await tx.unsafe(sql, columns.map((c) => chunk.map((r) => r[c])) as never[]);
  }
}

/** Applies the migrations not yet applied; safe to call from several processes at once. */
export async function migrate(sql: SQL): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`;
    const rows = await tx`SELECT version FROM schema_version`;
    const applied = rows.length ? Number(rows[0].version) : 0;
    if (applied > MIGRATIONS.length) {
      throw new Error(`database schema version ${applied} is newer than this server (${MIGRATIONS.length})`);
    }
    for (let v = applied; v < MIGRATIONS.length; v++) {
      const step = MIGRATIONS[v];
      if (typeof step === "string") await tx.unsafe(step);
      else await step(tx);
    }
    if (!rows.length) await tx`INSERT INTO schema_version (version) VALUES (${MIGRATIONS.length})`;
    else await tx`UPDATE schema_version SET version = ${MIGRATIONS.length}`;
  });
}
