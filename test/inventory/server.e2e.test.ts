// Inventory against the real server process over HTTP, on a real SQLite file: create, concurrent
// adjustments (also split between two processes on one database), PATCH by query parameters,
// stock-ordered lists, the default catalog and the delete scope.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { catalogItems } from "../../src/catalog/index.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { canonical } from "./fixtures.ts";

const dir = tempDir();
const env = { DATABASE_URL: join(dir.path, "records.sqlite"), DEMO: "0", RATE_LIMIT_V2_PER_HOUR: "100000" };
let server: ServerProcess;
let second: ServerProcess;
const auth: Record<string, string> = {};

function keyFor(userId: string, scopes: string): string {
  expect(cli(["user", "add", userId], env).code).toBe(0);
  const gen = cli(["key", "generate", userId, "--scopes", scopes], env);
  expect(gen.code).toBe(0);
  return basic(userId, gen.stdout.trim());
}

async function http(method: string, path: string, as: string, body?: unknown, base = server.url) {
  const headers: Record<string, string> = { authorization: auth[as]! };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const stockOf = async (c: string, id: string) => JSON.parse((await http("GET", `/v2/inventory/${c}/${id}`, "alice")).text).inventory;

beforeAll(async () => {
  auth.alice = keyFor("alice", "all");
  auth.bob = keyFor("bob", "inventory.read,inventory.write");
  server = await startServerProcess(env);
  second = await startServerProcess(env);
}, 30_000); // four command runs and two process starts: allow for a busy machine

afterAll(async () => {
  await server?.stop();
  await second?.stop();
  dir.remove();
});

describe("inventory over HTTP", () => {
  test("POST answers 201 {\"id\"}; the item reads back with its fields and service metadata", async () => {
    const res = await http("POST", "/v2/inventory/hops", "alice", { name: "Nelson Sauvin", alpha: 12, inventory: 100, _id: "mine" });
    expect(res.status).toBe(201);
    const { id } = JSON.parse(res.text);
    expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    const doc = JSON.parse((await http("GET", `/v2/inventory/hops/${id}`, "alice")).text);
    expect([doc._id, doc.name, doc.alpha, doc.inventory, typeof doc._rev, doc.updatedAt === doc.createdAt]).toEqual([id, "Nelson Sauvin", 12, 100, "string", true]);
  });

  test("40 concurrent inventory_adjust requests of 0.1 and 10 refused ones: the stock rises by exactly 4", async () => {
    const { id } = JSON.parse((await http("POST", "/v2/inventory/fermentables", "alice", { name: "Pilsner", inventory: 0 })).text);
    const url = `/v2/inventory/fermentables/${id}`;
    const good = Array.from({ length: 40 }, (_, i) => http("PATCH", url, "alice", { inventory_adjust: i % 2 ? 0.1 : "0.1" }));
    const bad = Array.from({ length: 10 }, (_, i) => http("PATCH", url, "alice", i % 2 ? { inventory_adjust: "0.1kg" } : { name: "", inventory_adjust: 1 }));
    const answers = await Promise.all([...good, ...bad]);
    expect(answers.slice(0, 40).every((a) => a.status === 200 && a.text === "Updated")).toBe(true);
    expect(answers.slice(40).map((a) => a.status)).toEqual(Array(10).fill(400));
    expect(await stockOf("fermentables", id)).toBe(4);
  });

  test("two server processes on one database: 60 concurrent adjustments split between them sum exactly", async () => {
    const { id } = JSON.parse((await http("POST", "/v2/inventory/yeasts", "alice", { name: "Kveik", inventory: 1 })).text);
    const url = `/v2/inventory/yeasts/${id}`;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => http("PATCH", url, "alice", { inventory_adjust: i % 3 === 0 ? -0.25 : 0.5 }, i % 2 ? second.url : server.url)),
    );
    expect(answers.every((a) => a.text === "Updated")).toBe(true);
    // 20 × −0.25 + 40 × 0.5 = 15, on a start of 1.
    expect(await stockOf("yeasts", id)).toBe(16);
  });

  test("PATCH /v2/inventory/hops/{id}?inventory_adjust=1 with no body adds 1", async () => {
    const { id } = JSON.parse((await http("POST", "/v2/inventory/hops", "alice", { name: "Saaz", inventory: 2 })).text);
    expect(await http("PATCH", `/v2/inventory/hops/${id}?inventory_adjust=1`, "alice")).toEqual({ status: 200, text: "Updated" });
    expect(await stockOf("hops", id)).toBe(3);
    expect(await http("PATCH", `/v2/inventory/hops/${id}?inventory_adjust=0x10`, "alice")).toEqual({ status: 400, text: "Invalid inventory_adjust" });
    expect(await http("PATCH", `/v2/inventory/hops/${id}`, "alice", { inventory: "12abc" })).toEqual({ status: 400, text: "Invalid inventory" });
    expect(await stockOf("hops", id)).toBe(3);
  });

  test("inventory_exists=True and inventory_negative=True list by stock, with default fields only", async () => {
    const ids: Record<number, string> = {};
    for (const stock of [-3, 8, -9, 0.5]) ids[stock] = JSON.parse((await http("POST", "/v2/inventory/miscs", "alice", { name: `Salt ${stock}`, type: "Water Agent", inventory: stock, amount: 1 })).text).id;
    const negative = JSON.parse((await http("GET", "/v2/inventory/miscs?inventory_negative=True", "alice")).text);
    expect(negative).toEqual([-9, -3].map((s) => ({ _id: ids[s], inventory: s, name: `Salt ${s}`, type: "Water Agent" })));
    const exists = JSON.parse((await http("GET", "/v2/inventory/miscs?inventory_exists=True&limit=1", "alice")).text);
    expect(exists).toEqual([{ _id: ids[0.5], inventory: 0.5, name: "Salt 0.5", type: "Water Agent" }]);
    const next = JSON.parse((await http("GET", `/v2/inventory/miscs?inventory_exists=True&start_after=${ids[0.5]}`, "alice")).text);
    expect(next.map((d: { inventory: number }) => d.inventory)).toEqual([8]);
  });

  test("a default is read by every account, copied on the first stock change, and back after deleting the copy", async () => {
    const d = catalogItems("hops")[3] as Record<string, unknown>;
    const url = `/v2/inventory/hops/${String(d._id)}`;
    const whole = JSON.stringify(canonical(d));
    expect(await http("GET", url, "bob")).toEqual({ status: 200, text: whole });
    expect(await http("PATCH", url, "alice", { inventory_adjust: 50 })).toEqual({ status: 200, text: "Updated" });
    const listed = JSON.parse((await http("GET", "/v2/inventory/hops?limit=50", "alice")).text) as Array<{ _id: string }>;
    expect(listed.map((x) => x._id)).toContain(String(d._id));
    expect(await stockOf("hops", String(d._id))).toBe(50);
    expect(await http("GET", url, "bob")).toEqual({ status: 200, text: whole });
    expect(await http("GET", "/v2/inventory/hops", "bob")).toEqual({ status: 200, text: "[]" });
    expect(await http("DELETE", url, "alice")).toEqual({ status: 200, text: "Deleted" });
    expect(await http("GET", url, "alice")).toEqual({ status: 200, text: whole });
  });

  test("DELETE needs inventory.delete: a write key gets 403 Forbidden", async () => {
    const { id } = JSON.parse((await http("POST", "/v2/inventory/yeasts", "bob", { name: "Bob's yeast" })).text);
    expect(await http("DELETE", `/v2/inventory/yeasts/${id}`, "bob")).toEqual({ status: 403, text: "Forbidden" });
    expect((await http("GET", `/v2/inventory/yeasts/${id}`, "bob")).status).toBe(200);
    expect(await http("DELETE", `/v2/inventory/yeasts/${id}`, "alice")).toEqual({ status: 404, text: "Not Found" });
  });
});
