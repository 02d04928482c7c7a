import { afterAll, beforeAll, expect, test } from "bun:test";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";
import { firstOfEach, Receiver, until } from "./receiver.ts";

// Two server processes on one PostgreSQL database, both delivering: each event reaches its
// subscription once (row locks that skip what the other holds), and when one dies mid-delivery the
// other delivers what it held.

const receiver = new Receiver().start();
let db: Database;
let env: Record<string, string>;
let headers: Record<string, string>;

beforeAll(async () => {
  if (!HAVE_POSTGRES) return;
  db = await freshPostgres();
  env = { DATABASE_URL: db.url, RATE_LIMIT_V2_PER_HOUR: "1000000", WEBHOOK_ALLOW_HOSTS: "127.0.0.1", WEBHOOK_RETRY_BASE_MS: "20", WEBHOOK_TIMEOUT_MS: "3000" };
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const key = cli(["key", "generate", "alice", "--scopes", "all"], env).stdout.trim();
  headers = { authorization: basic("alice", key), "content-type": "application/json" };
}, 30_000);

afterAll(async () => {
  await receiver.stop();
  await db?.drop();
}, DROP_TIMEOUT_MS);

const send = (server: ServerProcess, path: string, method: string, body?: unknown) =>
  fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).catch(() => undefined);

async function writeRecipes(servers: ServerProcess[], count: number, prefix: string): Promise<number> {
  let acked = 0;
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await send(servers[i % servers.length]!, "/v2/recipes", "POST", { name: `${prefix} ${i}` });
      if (res?.status === 201) acked++;
    }),
  );
  return acked;
}

test.skipIf(!HAVE_POSTGRES)("two instances deliver each event once", async () => {
  const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  try {
    expect((await send(a, "/v2/webhooks", "POST", { url: receiver.url("/twice"), events: ["recipe.created"] }))?.status).toBe(201);
    receiver.answer = () => Bun.sleep(10).then(() => new Response(null, { status: 204 }));
    expect(await writeRecipes([a, b], 60, "Once")).toBe(60);
    await until("60 events", () => receiver.at("/twice").length >= 60, 30_000);
    await Bun.sleep(500);
    const got = receiver.at("/twice");
    expect(got).toHaveLength(60);
    expect(new Set(got.map((r) => r.id)).size).toBe(60);
    expect(new Set(got.map((r) => r.json.data.document.name)).size).toBe(60);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}, 60_000);

test.skipIf(!HAVE_POSTGRES)("an instance killed mid-delivery loses nothing: the other delivers what it held", async () => {
  const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  try {
    expect((await send(a, "/v2/webhooks", "POST", { url: receiver.url("/dies"), events: ["recipe.created"] }))?.status).toBe(201);
    // Slow answers: both instances hold claimed rows when one is killed.
    receiver.answer = (_req, r) => (r.path === "/dies" ? Bun.sleep(300).then(() => new Response(null, { status: 204 })) : new Response(null, { status: 204 }));
    expect(await writeRecipes([a, b], 40, "Dies")).toBe(40);
    await until("deliveries under way", () => receiver.at("/dies").length >= 5);
    a.proc.kill("SIGKILL");
    await a.proc.exited;
    receiver.answer = () => new Response(null, { status: 204 });
    await until("40 events", () => firstOfEach(receiver.at("/dies")).length >= 40, 30_000);
    const names = new Set(firstOfEach(receiver.at("/dies")).map((r) => r.json.data.document.name));
    expect(names).toEqual(new Set(Array.from({ length: 40 }, (_, i) => `Dies ${i}`)));
    await until("the outbox empty", async () => (await (await send(b, "/v2/webhooks", "GET"))!.json()).every((w: { pending: number }) => w.pending === 0), 10_000);
  } finally {
    await b.stop();
  }
}, 60_000);
