// What crosses the socket, against the real server process: a body that ends early, a body that is not
// UTF-8, and a client that asks to close its connection. Raw TCP, so nothing in between fixes the bytes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { issueApiKey } from "../../src/store/keys.ts";
import { SCOPES } from "../../src/lib/scopes.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { basic } from "../helpers/app.ts";
import { startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

const dir = tempDir();
const db = join(dir.path, "records.sqlite");
let server: ServerProcess;
let auth: string;
let port: number;

beforeAll(async () => {
  const store = SqliteStore.open(db);
  await store.createUser("alice", null);
  auth = basic("alice", await issueApiKey(store, "alice", SCOPES));
  await store.importAll("alice", { batches: [{ doc: { _id: "b-1", name: "One", status: "Planning" } }], docs: [] });
  await store.close();
  server = await startServerProcess({ DATABASE_URL: db, LOG_LEVEL: "info" });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.stop();
  dir.remove();
});

/** Sends raw bytes; resolves with everything the server sent until it closed, or what came within `waitMs`. */
function exchange(bytes: Buffer, opts: { endAfterSend?: boolean; waitMs?: number } = {}): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket: Socket = connect(port, "127.0.0.1", () => {
      socket.write(bytes);
      if (opts.endAfterSend) socket.destroy();
    });
    let settled = false;
    const done = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString("latin1"), closedByServer });
    };
    const timer = setTimeout(() => done(false), opts.waitMs ?? 3000);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => done(true));
    socket.on("close", () => done(!opts.endAfterSend));
    socket.on("error", (e) => (opts.endAfterSend ? done(false) : reject(e)));
  });
}

const head = (method: string, path: string, extra: string[] = []) =>
  [`${method} ${path} HTTP/1.1`, "Host: brew.example", `Authorization: ${auth}`, "Content-Type: application/json", ...extra].join("\r\n") + "\r\n";

const requestLines = () => server.output().split("\n").filter((l) => l.includes('"msg":"request"'));

describe("over a real socket", () => {
  test("a body that ends before its Content-Length is a client's refusal, not an unhandled 500", async () => {
    const before = requestLines().length;
    await exchange(Buffer.from(head("PATCH", "/v2/batches/b-1", ["Content-Length: 100"]) + '\r\n{"status":'), { endAfterSend: true });
    for (let i = 0; i < 100 && requestLines().length === before; i++) await Bun.sleep(20);
    const line = JSON.parse(requestLines().at(-1)!);
    expect([line.route, line.status, line.level]).toEqual(["/v2/batches/:id", 400, "info"]);
    expect(server.output()).not.toContain("unhandled");
    expect(server.output()).not.toContain('"status":500');
    // Nothing was changed by the half-sent PATCH.
    const res = await fetch(`${server.url}/v2/batches/b-1`, { headers: { authorization: auth } });
    expect((await res.json()).status).toBe("Planning");
  });

  test("invalid UTF-8 in a JSON body is 400 with a clear message and nothing stored", async () => {
    const body = Buffer.concat([Buffer.from('{"name":"Pale '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await exchange(Buffer.concat([Buffer.from(head("POST", "/v2/recipes", [`Content-Length: ${body.length}`, "Connection: close"]) + "\r\n"), body]));
    expect(res.text).toStartWith("HTTP/1.1 400 ");
    expect(res.text.endsWith("\r\n\r\nInvalid JSON: the body is not valid UTF-8")).toBe(true);
    const list = await fetch(`${server.url}/v2/recipes`, { headers: { authorization: auth } });
    expect(await list.text()).toBe("[]");
  });

  test("the same for a PATCH: the stored batch keeps its name", async () => {
    const body = Buffer.concat([Buffer.from('{"status":"Brewing","name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await exchange(Buffer.concat([Buffer.from(head("PATCH", "/v2/batches/b-1", [`Content-Length: ${body.length}`, "Connection: close"]) + "\r\n"), body]));
    expect(res.text).toStartWith("HTTP/1.1 400 ");
    const batch = await (await fetch(`${server.url}/v2/batches/b-1`, { headers: { authorization: auth } })).json();
    expect([batch.status, batch.name]).toEqual(["Planning", "One"]);
  });

  test("valid multi-byte UTF-8, and a literal U+FFFD the client really sent, are kept exactly", async () => {
    const name = "Märzen \uFFFD 麦芽";
    const res = await fetch(`${server.url}/v2/recipes`, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body: JSON.stringify({ name }) });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const read = await (await fetch(`${server.url}/v2/recipes/${id}`, { headers: { authorization: auth } })).json();
    expect(read.name).toBe(name);
  });

  test("a client that sends Connection: close is answered with Connection: close, and the server closes", async () => {
    const res = await exchange(Buffer.from(head("GET", "/v2/batches", ["Connection: close"]) + "\r\n"));
    expect(res.text).toStartWith("HTTP/1.1 200 ");
    expect(res.text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    expect(res.closedByServer).toBe(true);
  });

  test("Connection: close is said on a refusal and on a page too; a keep-alive request is not told to close", async () => {
    const refused = await exchange(Buffer.from(head("GET", "/v2/batches?limit=0", ["Connection: close"]) + "\r\n"));
    expect(refused.text).toStartWith("HTTP/1.1 400 ");
    expect(refused.text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    const page = await exchange(Buffer.from("GET /signin HTTP/1.1\r\nHost: brew.example\r\nConnection: close\r\n\r\n"));
    expect(page.text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    const kept = await exchange(Buffer.from(head("GET", "/v2/batches") + "\r\n"), { waitMs: 500 });
    expect(kept.text).toStartWith("HTTP/1.1 200 ");
    expect(kept.text.toLowerCase()).not.toContain("connection: close");
    expect(kept.closedByServer).toBe(false);
  });
});
