import type { Database } from "bun:sqlite";
import { positionKey } from "./sort-key.ts";
import { readingRows } from "./reading-rows.ts";

// Versioned migrations: PRAGMA user_version holds the number of migrations applied.
// Null and missing sort values sort as -Infinity (JSON cannot hold it), so keyset comparisons never see NULL.
export const NULL_SORT = "-9e999";

/**
 * A record's sort key under a JSON path, as a page without an order key of its own sorts by it
 * (sqlite-list.ts): the order keys are made with this same expression, so both orders agree.
 */
export const orderValueOf = (body: string, path: string) => `COALESCE(json_extract(${body}, ${path}), ${NULL_SORT})`;

// The keys of a written record under every path made for its account and kind. An upsert's update
// fires the update trigger; no write replaces a row by deleting it. An upsert here too: an outer
// statement's conflict policy overrides a trigger's OR REPLACE.
const ORDER_KEYS_OF_NEW = `INSERT INTO order_keys (user_id, kind, path, id, sort_value)
      SELECT NEW.user_id, NEW.kind, path, NEW.id, ${orderValueOf("NEW.body", "path")}
      FROM order_paths WHERE user_id = NEW.user_id AND kind = NEW.kind
      ON CONFLICT (user_id, kind, path, id) DO UPDATE SET sort_value = excluded.sort_value;`;

// The records table's first columns and the indexes on them, the same whenever the table is made anew
// (versions 4 and 6). Applied migrations never run again: a change to these is a migration of its own.
const RECORDS_HEAD = `
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT,
    inventory REAL,`;
const RECORDS_HEAD_INDEXES = `
  CREATE UNIQUE INDEX records_key ON records (user_id, kind, id);
  CREATE INDEX records_summary ON records (user_id, kind, id, summary);
  CREATE INDEX records_status ON records (user_id, kind, status, id);
  CREATE INDEX records_inventory ON records (user_id, kind, COALESCE(inventory, ${NULL_SORT}), id);`;

/** SQL text, or a step that needs JavaScript (values SQL cannot compute); run in the migration's transaction. */
export type Migration = string | ((db: Database) => void);

/** Webhook subscriptions, their outbox (one row per event and subscription while undelivered) and their last attempts. */
const SQLITE_WEBHOOK_TABLES = `
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    failing_since INTEGER
  );
  CREATE INDEX webhooks_user ON webhooks (user_id, created_at);
  -- One row per event and subscription while it is undelivered; seq is the order events happened in.
  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    resource TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    next_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_deliveries_resource ON webhook_deliveries (webhook_id, resource, seq);
  CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    at INTEGER NOT NULL,
    status INTEGER,
    duration_ms INTEGER NOT NULL,
    detail TEXT
  );
  CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);
`;

export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    password_hash TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    scopes TEXT NOT NULL,
    api_version INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE records (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT,
    inventory REAL
  );
  CREATE UNIQUE INDEX records_key ON records (user_id, kind, id);
  -- Covering index: a default list page is read from the index alone.
  CREATE INDEX records_summary ON records (user_id, kind, id, summary);
  CREATE INDEX records_status ON records (user_id, kind, status, id);
  CREATE INDEX records_inventory ON records (user_id, kind, inventory, id);
  CREATE INDEX records_brew_date ON records (user_id, kind, COALESCE(json_extract(body, '$.brewDate'), ${NULL_SORT}), id);
  CREATE INDEX records_name ON records (user_id, kind, COALESCE(json_extract(body, '$.name'), ${NULL_SORT}), id);
  -- Readings of a batch are kept as one canonical array (sorted by time) plus the newest one.
  CREATE TABLE readings (
    user_id TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    body TEXT NOT NULL,
    last TEXT,
    PRIMARY KEY (user_id, batch_id)
  );
  CREATE TABLE trackers (
    user_id TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (user_id, batch_id)
  );
  `,
  `
  -- Calls per account and API version in each fixed one-hour window (src/http/rate-limit.ts).
  CREATE TABLE rate_counts (
    user_id TEXT NOT NULL,
    api_version INTEGER NOT NULL,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (user_id, api_version, window_start)
  );
  `,
  `
  -- Stock filters and order use one expression, so both seek in this index (null stock sorts first).
  DROP INDEX records_inventory;
  CREATE INDEX records_inventory ON records (user_id, kind, COALESCE(inventory, ${NULL_SORT}), id);
  CREATE INDEX records_batch_no ON records (user_id, kind, COALESCE(json_extract(body, '$.batchNo'), ${NULL_SORT}), id);
  `,
  `
  -- Sort keys computed at write time in columns of their own (an expression index over the body parsed
  -- the whole document on every write), and the body last, so reading a summary or a sort key does not
  -- walk a large body's overflow pages.
  CREATE TABLE records_next (${RECORDS_HEAD}
    sort_brew_date NOT NULL, -- no declared type: no affinity, values keep their own type
    sort_name NOT NULL,
    sort_batch_no NOT NULL,
    body TEXT NOT NULL
  );
  INSERT INTO records_next (user_id, kind, id, summary, status, inventory, sort_brew_date, sort_name, sort_batch_no, body)
    SELECT user_id, kind, id, summary, status, inventory,
      COALESCE(json_extract(body, '$.brewDate'), ${NULL_SORT}),
      COALESCE(json_extract(body, '$.name'), ${NULL_SORT}),
      COALESCE(json_extract(body, '$.batchNo'), ${NULL_SORT}),
      body
    FROM records;
  DROP TABLE records;
  ALTER TABLE records_next RENAME TO records;${RECORDS_HEAD_INDEXES}
  CREATE INDEX records_brew_date ON records (user_id, kind, sort_brew_date, id);
  CREATE INDEX records_name ON records (user_id, kind, sort_name, id);
  CREATE INDEX records_batch_no ON records (user_id, kind, sort_batch_no, id);
  `,
  `
  -- Whether the body parses back with its keys in canonical order (EncodedRecord.ordered): a PATCH of
  -- such a body re-checks only what it changed. Added after the body, it is read only with the body.
  -- Rows written before it say 0, which costs their next write one full walk and nothing else.
  ALTER TABLE records ADD COLUMN ordered INTEGER NOT NULL DEFAULT 0;
  `,
  toPositionKeys,
  toReadingRows,
  // Webhook subscriptions, their outbox and their last attempts.
  SQLITE_WEBHOOK_TABLES,
  `
  -- Orders by fields without a column of their own, made on first use (sqlite-order-keys.ts): the
  -- field's sort key per record, kept by triggers on every later write of the account's records.
  CREATE TABLE order_paths (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    made_through TEXT NOT NULL DEFAULT '', -- keys made for the records with ids up to this one
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, kind, path)
  ) WITHOUT ROWID;
  CREATE TABLE order_keys (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    id TEXT NOT NULL,
    sort_value NOT NULL, -- no declared type: values keep their own type, as json_extract gives them
    PRIMARY KEY (user_id, kind, path, id)
  ) WITHOUT ROWID;
  CREATE INDEX order_keys_seek ON order_keys (user_id, kind, path, sort_value, id);
  CREATE TRIGGER records_order_keys_insert AFTER INSERT ON records BEGIN
    ${ORDER_KEYS_OF_NEW}
  END;
  CREATE TRIGGER records_order_keys_update AFTER UPDATE OF body ON records BEGIN
    ${ORDER_KEYS_OF_NEW}
  END;
  CREATE TRIGGER records_order_keys_delete AFTER DELETE ON records BEGIN
    DELETE FROM order_keys WHERE user_id = OLD.user_id AND kind = OLD.kind AND id = OLD.id
      AND path IN (SELECT path FROM order_paths WHERE user_id = OLD.user_id AND kind = OLD.kind);
  END;
  `,
  `
  -- Events as writes record them: one row per group of writes committed together (sqlite-group.ts),
  -- holding its events in order (count of them), each [webhook id, event id, type, resource, payload
  -- (as JSON, not as a string), created at]. The worker moves them to webhook_deliveries before it
  -- delivers (sqlite-webhooks.ts). A write pays for one row at the end of this table instead of a
  -- delivery row and its entry in the middle of the (subscription, resource) index; the worker finds
  -- each resource's earliest event by reading the outbox in order, as the query with that index did.
  CREATE TABLE webhook_events (
    seq INTEGER PRIMARY KEY,
    count INTEGER NOT NULL,
    events TEXT NOT NULL
  );
  DROP INDEX webhook_deliveries_resource;
  CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);
  `,
  `
  -- Each recorded row's events per subscription ({"<webhook id>": n}): a subscription's pending count
  -- reads these small objects instead of parsing every event's text, which took tens of milliseconds
  -- a listing once tens of thousands of events waited.
  ALTER TABLE webhook_events ADD COLUMN counts TEXT NOT NULL DEFAULT '{}';
  UPDATE webhook_events SET counts = (
    SELECT json_group_object(webhook_id, n) FROM (SELECT e.value ->> 0 AS webhook_id, count(*) AS n FROM json_each(webhook_events.events) e GROUP BY 1));
  `,
  `
  -- Rows are now written compressed (zstd, a BLOB), each event as its parts, its id and payload made
  -- when the worker moves it to its delivery rows: a group's JSON text took overflow pages, each written
  -- to the WAL and again by the checkpoint, with every group of writes (docs/performance.md,
  -- "Webhooks"). The events recorded before, each already its delivery ([webhook id, event id, type,
  -- resource, payload, created at]), become their delivery rows here, in their order, as the worker
  -- moved them; an event whose subscription is gone is dropped, as there. The time of a row's first
  -- event, which the worker's look at how long the outbox has waited read from the text, is a column
  -- of its own.
  INSERT INTO webhook_deliveries (webhook_id, event_id, type, resource, payload, created_at, attempts, next_at)
    SELECT e.value ->> 0, e.value ->> 1, e.value ->> 2, e.value ->> 3, e.value -> 4, e.value ->> 5, 0, e.value ->> 5
    FROM webhook_events r, json_each(r.events) e JOIN webhooks w ON w.id = e.value ->> 0 ORDER BY r.seq, e.key;
  DELETE FROM webhook_events;
  ALTER TABLE webhook_events ADD COLUMN at INTEGER;
  `,
  `
  -- A rotated subscription's previous signing secret (sealed) and until when deliveries still carry
  -- its signature beside the new one's, so receivers can change secrets without missing a delivery.
  ALTER TABLE webhooks ADD COLUMN previous_secret TEXT;
  ALTER TABLE webhooks ADD COLUMN previous_until INTEGER;
  `,
];

/**
 * Fields with a position-key column and index of their own (SORTED_FIELDS in records.ts): the
 * field's sort key and the record's id in one text (sort-key.ts), so the index alone orders a page.
 */
export const SORT_COLUMNS: Readonly<Record<string, string>> = { brewDate: "key_brew_date", name: "key_name", batchNo: "key_batch_no" };

/**
 * Sort keys become position keys: one text column per sorted field, in place of the (key, id) pair,
 * made in JavaScript from the stored keys (SQLite has no way to write a number's bits as text). The
 * table is made anew so the keys stay ahead of the body, as the sort keys were.
 */
function toPositionKeys(db: Database): void {
  db.exec(`
    CREATE TABLE records_next (${RECORDS_HEAD}
      key_brew_date TEXT NOT NULL,
      key_name TEXT NOT NULL,
      key_batch_no TEXT NOT NULL,
      body TEXT NOT NULL,
      ordered INTEGER NOT NULL DEFAULT 0
    )`);
  const insert = db.prepare(`INSERT INTO records_next (user_id, kind, id, summary, status, inventory, key_brew_date, key_name, key_batch_no, body, ordered)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const rows = db.prepare("SELECT user_id, kind, id, summary, status, inventory, sort_brew_date, sort_name, sort_batch_no, body, ordered FROM records");
  try {
    for (const row of rows.iterate() as Iterable<Record<string, string | number | null>>) {
      const id = row.id as string;
      const key = (column: string) => positionKey(row[column] as number | string, id);
      insert.run(row.user_id, row.kind, id, row.summary, row.status, row.inventory, key("sort_brew_date"), key("sort_name"), key("sort_batch_no"), row.body, row.ordered);
    }
  } finally {
    rows.finalize();
    insert.finalize();
  }
  db.exec(`
    DROP TABLE records;
    ALTER TABLE records_next RENAME TO records;${RECORDS_HEAD_INDEXES}
    CREATE INDEX records_brew_date ON records (user_id, kind, key_brew_date);
    CREATE INDEX records_name ON records (user_id, kind, key_name);
    CREATE INDEX records_batch_no ON records (user_id, kind, key_batch_no);
  `);
}

// A series of readings: rows in (at, seq) order, the primary key, so a list, a range and the last
// reading are each one seek in it (reading-rows.ts). No rowid: the rows live in that order.
const SERIES_COLUMNS = `
    at REAL NOT NULL,
    seq INTEGER NOT NULL,
    timed INTEGER NOT NULL,
    body TEXT NOT NULL`;

/**
 * Readings become rows: appending one no longer rewrites the whole array (docs/decisions.md,
 * "Readings"). Each stored array is already in order; its elements keep that order as (at, seq), and
 * each element's canonical text is its part of the array's text, so a list reads back byte for byte.
 * `reading_lists` remembers which batches have a list at all (an imported `readings: []` is one).
 * Devices, their unattached readings and the accounts' logging ids arrive with them.
 */
function toReadingRows(db: Database): void {
  db.exec(`
    ALTER TABLE readings RENAME TO readings_arrays;
    CREATE TABLE reading_lists (
      user_id TEXT NOT NULL,
      batch_id TEXT NOT NULL,
      PRIMARY KEY (user_id, batch_id)
    ) WITHOUT ROWID;
    CREATE TABLE readings (
      user_id TEXT NOT NULL,
      batch_id TEXT NOT NULL,${SERIES_COLUMNS},
      PRIMARY KEY (user_id, batch_id, at, seq)
    ) WITHOUT ROWID;
    CREATE TABLE devices (
      user_id TEXT NOT NULL,
      type TEXT NOT NULL,
      name TEXT NOT NULL,
      batch_id TEXT,
      last_log INTEGER,
      last_data TEXT,
      settings TEXT NOT NULL,
      first_seen INTEGER NOT NULL,
      PRIMARY KEY (user_id, type, name)
    );
    CREATE INDEX devices_batch ON devices (user_id, batch_id);
    CREATE TABLE device_readings (
      user_id TEXT NOT NULL,
      type TEXT NOT NULL,
      name TEXT NOT NULL,${SERIES_COLUMNS},
      PRIMARY KEY (user_id, type, name, at, seq)
    ) WITHOUT ROWID;
    CREATE TABLE logging_ids (
      user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      digest TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX logging_ids_digest ON logging_ids (digest);
  `);
  const list = db.prepare("INSERT INTO reading_lists (user_id, batch_id) VALUES (?, ?)");
  const row = db.prepare("INSERT INTO readings (user_id, batch_id, at, seq, timed, body) VALUES (?, ?, ?, ?, ?, ?)");
  const arrays = db.prepare("SELECT user_id, batch_id, body FROM readings_arrays");
  try {
    for (const a of arrays.iterate() as Iterable<{ user_id: string; batch_id: string; body: string }>) {
      list.run(a.user_id, a.batch_id);
      for (const r of readingRows(JSON.parse(a.body))) row.run(a.user_id, a.batch_id, r.at, r.seq, r.timed, r.body);
    }
  } finally {
    arrays.finalize();
    list.finalize();
    row.finalize();
  }
  db.exec("DROP TABLE readings_arrays");
}
