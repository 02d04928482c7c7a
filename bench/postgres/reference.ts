import { SQL } from "bun";

// The PostgreSQL reference: the least a Bun.serve program on Bun's own SQL client does to answer the
// benchmark's four requests correctly, on the same database as the server, with the statements the
// PostgreSQL store runs (src/store/postgres*.ts) and a pool of the store's default size. Its figures
// are the practical limit of the runtime, the client and the database on the machine at hand.
//
// Environment: DATABASE_URL, PORT, POOL_SIZE, BENCH_KEYS (JSON object: Authorization value -> user id).

const sql = new SQL(process.env.DATABASE_URL!, { max: Number(process.env.POOL_SIZE ?? 10), idleTimeout: 30 });
const users = new Map<string, string>(Object.entries(JSON.parse(process.env.BENCH_KEYS ?? "{}")));

// The store's statements, word for word where the store writes them as text.
const FIRST_PAGE = "SELECT summary AS text FROM records WHERE user_id = $1 AND kind = $2 ORDER BY id ASC LIMIT $3";
const FOR_UPDATE = `SELECT body, (SELECT string_agg(id || ' ' || events, ';') FROM webhooks WHERE user_id = $1) AS subscriptions
  FROM records WHERE user_id = $1 AND kind = $2 AND id = $3 FOR UPDATE`;

interface Row {
  user_id: string;
  kind: string;
  id: string;
  body: string;
  summary: string;
  status: string | null;
  inventory: number | null;
}

/**
 * A read-modify-write as the store makes it: in one transaction, the key's advisory lock, the row
 * locked and read, the row written back whole. `change` gives the new row from the stored text.
 */
function readModifyWrite(userId: string, kind: string, id: string, change: (body: string) => Omit<Row, "user_id" | "kind" | "id">): Promise<boolean> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${userId}/${kind}/${id}`}, 0))`;
    const [row] = await tx.unsafe(FOR_UPDATE, [userId, kind, id]);
    if (!row) return false;
    const next: Row = { user_id: userId, kind, id, ...change(row.body as string) };
    await tx`INSERT INTO records ${tx([next])}
      ON CONFLICT (user_id, kind, id) DO UPDATE SET body = excluded.body, summary = excluded.summary,
        status = excluded.status, inventory = excluded.inventory`;
    return true;
  });
}

// Stored keys are in canonical (code unit) order and the changed member exists, so JSON.stringify
// keeps that order; list entries are built with their members in that order too.
const pick = (doc: Record<string, unknown>, keys: string[]) => {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in doc) out[k] = doc[k];
  return out;
};
const BATCH_SUMMARY = ["_id", "batchNo", "brewDate", "brewer", "name", "recipe", "status"];
const INVENTORY_SUMMARY = ["_id", "alpha", "attenuation", "inventory", "name", "supplier", "type", "use"];

function patchBatch(body: string, changes: Record<string, unknown>) {
  const doc = { ...JSON.parse(body), ...changes };
  const summary = pick(doc, BATCH_SUMMARY);
  if (summary.recipe && typeof summary.recipe === "object") summary.recipe = pick(summary.recipe as Record<string, unknown>, ["name"]);
  return { body: JSON.stringify(doc), summary: JSON.stringify(summary), status: typeof doc.status === "string" ? doc.status : null, inventory: null };
}

function adjustItem(body: string, adjust: number) {
  const doc = JSON.parse(body);
  doc.inventory = Math.round(((doc.inventory ?? 0) + adjust) * 1e6) / 1e6;
  return { body: JSON.stringify(doc), summary: JSON.stringify(pick(doc, INVENTORY_SUMMARY)), status: null, inventory: doc.inventory as number };
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
const TEXT_HEADERS = { "content-type": "text/plain; charset=utf-8" };
// Bun sends an answer completed after an await in one write only when it fits its 16 KiB buffer; a
// larger one goes faster as a stream of one chunk (src/http/later-body.ts says why). The server does
// so, and so does the limit it is measured against.
const encoder = new TextEncoder();
const bodyOf = (body: string) =>
  body.length <= 14 * 1024
    ? body
    : new ReadableStream({
        start(sink) {
          sink.enqueue(encoder.encode(body));
          sink.close();
        },
      });
const json = (body: string) => new Response(bodyOf(body), { headers: JSON_HEADERS });
const text = (body: string, status = 200) => new Response(body, { status, headers: TEXT_HEADERS });
const NOT_FOUND = () => text("Not Found", 404);

async function list(userId: string, query: URLSearchParams): Promise<Response> {
  const limit = Math.min(50, Math.max(1, Number(query.get("limit") ?? 10) || 10));
  const rows = (await sql.unsafe(FIRST_PAGE, [userId, "batch", limit]).values()) as Array<[string]>;
  let out = "[";
  for (let i = 0; i < rows.length; i++) out += (i ? "," : "") + rows[i][0];
  return json(out + "]");
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(req) {
    const userId = users.get(req.headers.get("authorization") ?? "");
    if (!userId) return text("Unauthorized", 401);
    const url = req.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", start);
    const parts = url.slice(start, q === -1 ? undefined : q).split("/");
    if (parts[1] !== "v2") return NOT_FOUND();
    if (parts[2] === "batches") {
      if (req.method === "GET" && parts.length === 3) return list(userId, new URLSearchParams(q === -1 ? "" : url.slice(q + 1)));
      const id = parts[3];
      if (req.method === "GET" && parts.length === 4) {
        const [row] = await sql`SELECT body FROM records WHERE user_id = ${userId} AND kind = ${"batch"} AND id = ${id}`;
        return row ? json(row.body) : NOT_FOUND();
      }
      if (req.method === "PATCH" && parts.length === 4) {
        const changes = (await req.json()) as Record<string, unknown>;
        return (await readModifyWrite(userId, "batch", id, (body) => patchBatch(body, changes))) ? text("Updated") : NOT_FOUND();
      }
    }
    if (parts[2] === "inventory" && req.method === "PATCH" && parts.length === 5) {
      const adjust = Number(((await req.json()) as { inventory_adjust: number }).inventory_adjust);
      return (await readModifyWrite(userId, parts[3], parts[4], (body) => adjustItem(body, adjust))) ? text("Updated") : NOT_FOUND();
    }
    return NOT_FOUND();
  },
});
console.log(`reference listening on ${server.url}`);
process.on("SIGTERM", () => {
  server.stop();
  void sql.close().finally(() => process.exit(0));
});
