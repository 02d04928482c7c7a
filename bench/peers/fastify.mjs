import { createHmac, timingSafeEqual } from "node:crypto";
import Database from "better-sqlite3";
import Fastify from "fastify";

// Fastify 5 + better-sqlite3 on Node doing the server's list work: Basic credentials checked by HMAC
// and an index read, one prepared keyset query over the stored default-field JSON, spliced as text.
// Environment: DATABASE_PATH, PORT.

const db = new Database(process.env.DATABASE_PATH, { fileMustExist: true });
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
const secret = db.prepare("SELECT value FROM meta WHERE name = 'api_key_hmac'").pluck().get();
const keyOf = db.prepare("SELECT digest FROM api_keys WHERE user_id = ? AND api_version = 2");
const firstPage = db.prepare("SELECT summary FROM records WHERE user_id = ? AND kind = 'batch' ORDER BY id LIMIT ?").pluck();
const nextPage = db.prepare("SELECT summary FROM records WHERE user_id = ? AND kind = 'batch' AND id > ? ORDER BY id LIMIT ?").pluck();

function userOf(header) {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) return undefined;
  const userId = decoded.slice(0, colon);
  const digest = keyOf.get(userId)?.digest;
  const presented = createHmac("sha256", secret).update(decoded.slice(colon + 1)).digest();
  return digest && timingSafeEqual(presented, Buffer.from(digest, "hex")) ? userId : undefined;
}

const app = Fastify({ logger: false });
app.get("/v2/batches", (request, reply) => {
  const userId = userOf(request.headers.authorization);
  if (!userId) return reply.code(401).type("text/plain; charset=utf-8").send("Unauthorized");
  const limit = Math.min(50, Math.max(1, Number(request.query.limit ?? 10) || 10));
  const after = request.query.start_after;
  const rows = after ? nextPage.all(userId, after, limit) : firstPage.all(userId, limit);
  return reply.type("application/json; charset=utf-8").send(`[${rows.join(",")}]`);
});

const address = await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
console.log(`fastify listening on ${address}`);
process.on("SIGTERM", async () => {
  await app.close();
  db.close();
  process.exit(0);
});
