// The recipe endpoints on the real server process over HTTP, on a real SQLite file (API document:
// Endpoints › Recipes; Errors; Authentication rule 5), including a restart in the middle.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { paleAle } from "./fixtures.ts";

const dir = tempDir();
const env = { DATABASE_URL: join(dir.path, "records.sqlite"), DEMO: "0" };
let server: ServerProcess;
let owner: string;
let writer: string;
// Real processes start slower on a busy machine than the default 5 s allows.
const SLOW = 30_000;

function keyFor(user: string, scopes: string): string {
  expect(cli(["user", "add", user], env).code).toBe(0);
  const gen = cli(["key", "generate", user, "--scopes", scopes], env);
  expect(gen.code).toBe(0);
  return basic(user, gen.stdout.trim());
}

async function call(method: string, path: string, auth: string, body?: unknown, raw?: string) {
  const headers: Record<string, string> = { authorization: auth };
  if (body !== undefined || raw !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(server.url + path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

beforeAll(async () => {
  owner = keyFor("alice", "all");
  writer = keyFor("wendy", "recipes.read,recipes.write");
  server = await startServerProcess(env);
}, SLOW);

afterAll(async () => {
  await server?.stop();
  dir.remove();
});

test("create, read, list, patch, refuse, restart, delete: a recipe's life over HTTP", async () => {
  const created = await call("POST", "/v2/recipes", owner, paleAle());
  expect([created.status, created.type]).toEqual([201, "application/json; charset=utf-8"]);
  expect(created.text).toMatch(/^\{"id":"[A-Za-z0-9]{20}"\}$/);
  const id = JSON.parse(created.text).id as string;

  const one = await call("GET", `/v2/recipes/${id}`, owner);
  const doc = JSON.parse(one.text);
  expect([one.status, doc._id, doc._uid, doc._type, doc.name, doc.ogPlato, typeof doc.og]).toEqual([200, id, "alice", "recipe", "Harbour Pale Ale", 12.4, "number"]);

  const list = await call("GET", "/v2/recipes", owner);
  expect([list.status, JSON.parse(list.text)]).toEqual([200, [{ _id: id, author: "Ann Brewer", equipment: { name: "Kettle 30 L" }, name: "Harbour Pale Ale", style: { name: "American Pale Ale" }, type: "All Grain" }]]);

  expect(await call("PATCH", `/v2/recipes/${id}`, owner, { name: "Harbour IPA", hops: [] })).toEqual({ status: 200, type: "text/plain; charset=utf-8", text: "Updated" });
  const refused = await call("PATCH", `/v2/recipes/${id}`, owner, { efficiency: 20 });
  expect([refused.status, refused.type, JSON.parse(refused.text)]).toEqual([400, "application/json; charset=utf-8", [{ path: "efficiency", rule: "minimum", message: "efficiency must be >= 35" }]]);
  expect(await call("PATCH", `/v2/recipes/${id}`, owner)).toEqual({ status: 400, type: "text/plain; charset=utf-8", text: "Missing body" });
  expect(await call("POST", "/v2/recipes", owner)).toEqual({ status: 400, type: "text/plain; charset=utf-8", text: "Missing body" });

  // A committed write survives the process.
  expect(await server.stop()).toBe(0);
  server = await startServerProcess(env);
  const after = JSON.parse((await call("GET", `/v2/recipes/${id}?include=hops,efficiency`, owner)).text);
  expect(after).toEqual({ _id: id, author: "Ann Brewer", efficiency: 75, equipment: { name: "Kettle 30 L" }, hops: [], name: "Harbour IPA", style: { name: "American Pale Ale" }, type: "All Grain" });

  expect(await call("GET", `/v2/recipes/${id}`, writer)).toMatchObject({ status: 404, text: "Not Found" });
  expect(await call("DELETE", `/v2/recipes/${id}`, writer)).toMatchObject({ status: 403, text: "Forbidden" });
  expect(await call("DELETE", `/v2/recipes/${id}`, owner)).toEqual({ status: 200, type: "text/plain; charset=utf-8", text: "Deleted" });
  expect(await call("GET", `/v2/recipes/${id}`, owner)).toMatchObject({ status: 404, text: "Not Found" });
  expect(await call("DELETE", `/v2/recipes/${id}`, owner)).toMatchObject({ status: 404, text: "Not Found" });
}, SLOW);

test("the writer key creates and edits its own recipes but cannot delete them", async () => {
  const created = await call("POST", "/v2/recipes", writer, { name: "Wendy's Wit", type: "Extract" });
  expect(created.status).toBe(201);
  const id = JSON.parse(created.text).id as string;
  expect(await call("PATCH", `/v2/recipes/${id}`, writer, { notes: "coriander" })).toMatchObject({ status: 200, text: "Updated" });
  expect(await call("DELETE", `/v2/recipes/${id}`, writer)).toMatchObject({ status: 403, text: "Forbidden" });
  expect(JSON.parse((await call("GET", `/v2/recipes/${id}?include=notes`, writer)).text)).toEqual({ _id: id, name: "Wendy's Wit", notes: "coriander", type: "Extract" });
});

test("no credentials are 401 with a Basic challenge", async () => {
  const res = await fetch(`${server.url}/v2/recipes`, { method: "POST", body: "{}" });
  expect([res.status, await res.text(), res.headers.get("www-authenticate")]).toEqual([401, "Unauthorized", 'Basic realm="brewrecords", charset="UTF-8"']);
});
