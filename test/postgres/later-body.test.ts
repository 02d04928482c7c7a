// An answer completed after an await whose body does not fit Bun's cork buffer goes as a stream of one
// write (src/http/later-body.ts): through a real server process on PostgreSQL, it arrives whole, with its
// status, content type and rate fields, for GET and HEAD alike.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CORKED_BODY_BYTES, laterBody } from "../../src/http/later-body.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

describe("laterBody", () => {
  test("a body that fits the cork buffer is kept as is", () => {
    const text = "x".repeat(CORKED_BODY_BYTES);
    expect(laterBody(text)).toBe(text);
  });

  test("a larger body, text or bytes, becomes a stream of the same bytes", async () => {
    const text = `"${"é".repeat(CORKED_BODY_BYTES)}"`;
    const bytes = new TextEncoder().encode(text);
    for (const body of [text, bytes]) {
      const sent = laterBody(body);
      expect(sent).toBeInstanceOf(ReadableStream);
      expect(await new Response(sent).text()).toBe(text);
    }
  });
});

describe.skipIf(!HAVE_POSTGRES)("a large document through a server process on PostgreSQL", () => {
  let db: Database;
  let server: ServerProcess;
  let auth: string;
  const notes = "n".repeat(3 * CORKED_BODY_BYTES);

  beforeAll(async () => {
    db = await freshPostgres();
    expect(cli(["user", "add", "ann"], { DATABASE_URL: db.url }).code).toBe(0);
    auth = basic("ann", cli(["key", "generate", "ann", "--scopes", "all"], { DATABASE_URL: db.url }).stdout.trim());
    server = await startServerProcess({ DATABASE_URL: db.url });
  }, 60_000);

  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await db.drop();
  }, DROP_TIMEOUT_MS);

  test("GET answers the whole document with its rate fields; HEAD answers the same head without a body", async () => {
    const created = await fetch(`${server.url}/v2/recipes`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "Long notes", notes }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const got = await fetch(`${server.url}/v2/recipes/${id}`, { headers: { authorization: auth } });
    expect([got.status, got.headers.get("content-type"), got.headers.get("x-ratelimit-remaining")]).toEqual([200, "application/json; charset=utf-8", "498"]);
    expect(JSON.parse(await got.text())).toMatchObject({ _id: id, name: "Long notes", notes });
    const head = await fetch(`${server.url}/v2/recipes/${id}`, { method: "HEAD", headers: { authorization: auth } });
    expect([head.status, head.headers.get("x-ratelimit-remaining"), await head.text()]).toEqual([200, "497", ""]);
  });
});
