import { Database } from "bun:sqlite";

// The reference: the least a Bun.serve + bun:sqlite program can do to answer the benchmark's requests
// correctly, reading the same database file as the server. Its figures are the practical limit of the
// runtime on the machine at hand; the server's are reported as ratios of them.
//
// Environment: DATABASE_PATH, PORT, BENCH_KEYS (JSON object: Authorization header value -> user id).

const db = new Database(process.env.DATABASE_PATH!, { strict: true });
// The server's pragmas (src/store/sqlite.ts), so write figures compare like with like.
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = NORMAL");
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA foreign_keys = ON");

const users = new Map<string, string>(Object.entries(JSON.parse(process.env.BENCH_KEYS ?? "{}")));
const loggingIds = new Map<string, string>(Object.entries(JSON.parse(process.env.BENCH_LOGGING_IDS ?? "{}")));

// One prepared statement per request shape; the default page reads the covering index alone, named
// in its SQL as the server names it: SQLite runs the same plan faster so (docs/performance.md).
const firstPage = { summary: db.prepare("SELECT summary FROM records INDEXED BY records_summary WHERE user_id = ? AND kind = 'batch' ORDER BY id LIMIT ?"),
  body: db.prepare("SELECT body FROM records WHERE user_id = ? AND kind = 'batch' ORDER BY id LIMIT ?") };
const nextPage = { summary: db.prepare("SELECT summary FROM records INDEXED BY records_summary WHERE user_id = ? AND kind = 'batch' AND id > ? ORDER BY id LIMIT ?"),
  body: db.prepare("SELECT body FROM records WHERE user_id = ? AND kind = 'batch' AND id > ? ORDER BY id LIMIT ?") };
const one = db.prepare("SELECT body FROM records WHERE user_id = ? AND kind = ? AND id = ?");
// A batch's readings are rows in time order (src/store/sqlite-readings.ts), joined into one array.
const readings = db.prepare(`SELECT '[' || COALESCE((SELECT group_concat(body, ',') FROM (SELECT body FROM readings WHERE user_id = ?1 AND batch_id = ?2 ORDER BY at, seq)), '') || ']'
  FROM reading_lists WHERE user_id = ?1 AND batch_id = ?2`);
const writeBatch = db.prepare("UPDATE records SET body = ? WHERE user_id = ? AND kind = 'batch' AND id = ?");
const writeItem = db.prepare("UPDATE records SET body = ?, summary = ?, inventory = ? WHERE user_id = ? AND kind = ? AND id = ?");
// A device post: its reading appended to the device's series (a reading at the same time replaced,
// as the server does) and the device's row upserted with its last post, in one immediate transaction.
const dropReading = db.prepare("DELETE FROM device_readings WHERE user_id = ? AND type = 'stream' AND name = ? AND at = ?");
const addReading = db.prepare("INSERT INTO device_readings (user_id, type, name, at, seq, timed, body) VALUES (?, 'stream', ?, ?, 0, 1, ?)");
const putDevice = db.prepare(`INSERT INTO devices (user_id, type, name, batch_id, last_log, last_data, settings, first_seen) VALUES (?, 'stream', ?, NULL, ?, ?, '{}', ?)
  ON CONFLICT (user_id, type, name) DO UPDATE SET last_log = excluded.last_log, last_data = excluded.last_data`);
const devicePost = db.transaction((userId: string, post: { name: string; temp?: number; gravity?: number }) => {
  const now = Date.now();
  const reading = JSON.stringify({ id: post.name, sg: post.gravity, temp: post.temp, time: now, type: "stream" });
  dropReading.run(userId, post.name, now);
  addReading.run(userId, post.name, now, reading);
  putDevice.run(userId, post.name, now, reading, now);
});
const STORED = JSON.stringify({ result: "OK" });
const INVENTORY_DEFAULTS = ["_id", "alpha", "attenuation", "inventory", "name", "supplier", "type", "use"];

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
const TEXT_HEADERS = { "content-type": "text/plain; charset=utf-8" };
const json = (body: string) => new Response(body, { headers: JSON_HEADERS });
const text = (body: string, status = 200) => new Response(body, { status, headers: TEXT_HEADERS });
const NOT_FOUND = () => text("Not Found", 404);

function list(userId: string, query: URLSearchParams): Response {
  const limit = Math.min(50, Math.max(1, Number(query.get("limit") ?? 10) || 10));
  const column = query.get("complete")?.toLowerCase() === "true" ? "body" : "summary";
  const after = query.get("start_after");
  const rows = (after ? nextPage[column].values(userId, after, limit) : firstPage[column].values(userId, limit)) as string[][];
  let out = "[";
  for (let i = 0; i < rows.length; i++) out += (i ? "," : "") + rows[i][0];
  return json(out + "]");
}

// A PATCH is a read-modify-write of the stored text in one immediate transaction. Stored keys are
// already in canonical order and the changed field exists, so JSON.stringify keeps that order.
const patchBatch = db.transaction((userId: string, id: string, changes: Record<string, unknown>) => {
  const row = one.values(userId, "batch", id) as string[][];
  if (!row.length) return false;
  writeBatch.run(JSON.stringify({ ...JSON.parse(row[0][0]), ...changes }), userId, id);
  return true;
});

const adjustItem = db.transaction((userId: string, kind: string, id: string, adjust: number) => {
  const row = one.values(userId, kind, id) as string[][];
  if (!row.length) return false;
  const doc = JSON.parse(row[0][0]);
  doc.inventory = Math.round(((doc.inventory ?? 0) + adjust) * 1e6) / 1e6;
  const summary: Record<string, unknown> = {};
  for (const k of INVENTORY_DEFAULTS) if (k in doc) summary[k] = doc[k];
  writeItem.run(JSON.stringify(doc), JSON.stringify(summary), doc.inventory, userId, kind, id);
  return true;
});

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(req) {
    if (req.method === "POST" && req.url.includes("/stream?id=")) {
      const owner = loggingIds.get(new URL(req.url).searchParams.get("id") ?? "");
      if (!owner) return text("Invalid logging id", 400);
      devicePost.immediate(owner, await req.json());
      return json(STORED);
    }
    const userId = users.get(req.headers.get("authorization") ?? "");
    if (!userId) return text("Unauthorized", 401);
    const url = req.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", start);
    const path = url.slice(start, q === -1 ? undefined : q);
    const parts = path.split("/");
    if (parts[1] !== "v2") return NOT_FOUND();
    if (parts[2] === "batches") {
      if (req.method === "GET" && parts.length === 3) return list(userId, new URLSearchParams(q === -1 ? "" : url.slice(q + 1)));
      const id = parts[3];
      if (req.method === "GET" && parts.length === 4) {
        const row = one.values(userId, "batch", id) as string[][];
        return row.length ? json(row[0][0]) : NOT_FOUND();
      }
      if (req.method === "GET" && parts[4] === "readings" && parts.length === 5) {
        const row = readings.values(userId, id) as string[][];
        return row.length ? json(row[0][0]) : NOT_FOUND();
      }
      if (req.method === "PATCH" && parts.length === 4) {
        return patchBatch.immediate(userId, id, await req.json()) ? text("Updated") : NOT_FOUND();
      }
    }
    if (parts[2] === "inventory" && req.method === "PATCH" && parts.length === 5) {
      const body = (await req.json()) as { inventory_adjust: number };
      return adjustItem.immediate(userId, parts[3], parts[4], Number(body.inventory_adjust)) ? text("Updated") : NOT_FOUND();
    }
    return NOT_FOUND();
  },
});
console.log(`reference listening on ${server.url}`);
process.on("SIGTERM", () => {
  server.stop();
  db.close();
  process.exit(0);
});
