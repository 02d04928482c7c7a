// Version 1 through the real command line and the real server process (API document, Versioning:
// "New version 1 keys can no longer be generated" from the settings page; `key generate … --api-version 1`
// exists for operators migrating old clients). A v1 key holds only the five v1 scopes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { importDocument, OTHERS } from "./data.ts";

const dir = tempDir();
const env = { DATABASE_URL: join(dir.path, "records.sqlite"), DEMO: "0" };
const V1_SCOPES = ["recipes.read", "batches.read", "batches.write", "inventory.read", "inventory.write"];
const V2_ONLY = ["recipes.write", "recipes.delete", "batches.delete", "inventory.delete"];
let server: ServerProcess;
let oldKey: string;
let newKey: string;

/** The stored key record, read from the database file the command line wrote. */
async function keyRecord(userId: string) {
  const store = SqliteStore.open(env.DATABASE_URL);
  try {
    return await store.getApiKey(userId);
  } finally {
    await store.close();
  }
}

function generate(userId: string, ...args: string[]) {
  return cli(["key", "generate", userId, ...args], env);
}

beforeAll(async () => {
  for (const user of ["old", "new", "spare"]) expect(cli(["user", "add", user], env).code).toBe(0);
  const file = join(dir.path, "import.json");
  writeFileSync(file, JSON.stringify(importDocument()));
  expect(cli(["import", "old", file], env).code).toBe(0);
  const gen = generate("old", "--api-version", "1", "--scopes", "all");
  expect(gen.code).toBe(0);
  oldKey = gen.stdout.trim();
  newKey = generate("new", "--scopes", "all").stdout.trim();
  server = await startServerProcess(env);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  dir.remove();
});

describe("key generate --api-version 1", () => {
  test("--scopes all gives exactly the five v1 scopes, under their v2 names, on a version 1 key", async () => {
    expect(oldKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const record = await keyRecord("old");
    expect([record?.apiVersion, [...(record?.scopes ?? [])].sort()]).toEqual([1, [...V1_SCOPES].sort()]);
  });

  test("without --api-version, --scopes all gives the nine scopes on a version 2 key", async () => {
    const record = await keyRecord("new");
    expect([record?.apiVersion, record?.scopes.length]).toEqual([2, 9]);
  });

  test("a list of v1 scopes is stored as given", async () => {
    const res = generate("spare", "--api-version", "1", "--scopes", "inventory.write, recipes.read");
    expect(res.code).toBe(0);
    const record = await keyRecord("spare");
    expect([record?.apiVersion, [...(record?.scopes ?? [])].sort()]).toEqual([1, ["inventory.write", "recipes.read"]]);
  });

  for (const scope of V2_ONLY) {
    test(`${scope} is refused for a v1 key: exit 1, the name and the five allowed in the message, old key kept`, async () => {
      const before = await keyRecord("old");
      const res = generate("old", "--api-version", "1", "--scopes", `batches.read,${scope}`);
      expect([res.code, res.stdout]).toEqual([1, ""]);
      expect(res.stderr).toBe(`brewrecords: unknown scope(s) for a version 1 key: ${scope}; use all or names of: ${V1_SCOPES.join(", ")}\n`);
      expect(await keyRecord("old")).toEqual(before);
    });
  }

  test("--api-version 3 is refused", () => {
    const res = generate("spare", "--api-version", "3", "--scopes", "all");
    expect([res.code, res.stderr]).toEqual([1, "brewrecords: --api-version must be 1 or 2\n"]);
  });
});

describe("a v1 key against the server process over HTTP", () => {
  const get = async (path: string, key = oldKey, user = "old", init: RequestInit = {}) => {
    const res = await fetch(server.url + path, { ...init, headers: { authorization: basic(user, key), ...(init.headers ?? {}) } });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };

  test("GET /v1/batches lists Planning batches only, ten by _id, with the v1 rate policy", async () => {
    const res = await get("/v1/batches");
    expect(res.status).toBe(200);
    const ids = (JSON.parse(res.text) as Array<{ _id: string; status: string }>).map((b) => `${b._id} ${b.status}`);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `p-${String(i).padStart(2, "0")} Planning`));
    expect(res.headers.get("ratelimit-policy")).toBe('"v1";q=150;w=3600');
  });

  test("GET /v1/batches?offset=12 gives the last two", async () => {
    expect(JSON.parse((await get("/v1/batches?offset=12")).text).map((b: { _id: string }) => b._id)).toEqual(["p-12", "p-13"]);
  });

  test("PATCH of status and a measured value changes the status only", async () => {
    const patch = await get("/v1/batches/s-conditioning", oldKey, "old", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "Completed", measuredOg: 1.1 }),
    });
    expect([patch.status, patch.text]).toEqual([200, "Updated"]);
    const doc = JSON.parse((await get("/v1/batches/s-conditioning")).text);
    expect([doc.status, doc.measuredOg]).toEqual(["Completed", OTHERS.find((b) => b._id === "s-conditioning")?.measuredOg]);
  });

  test("POST /v1/recipes and DELETE /v1/batches/{id} are 404 Not Found; the batch stays", async () => {
    const post = await get("/v1/recipes", oldKey, "old", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"New"}' });
    const del = await get("/v1/batches/p-00", oldKey, "old", { method: "DELETE" });
    expect([post.status, post.text, del.status, del.text]).toEqual([404, "Not Found", 404, "Not Found"]);
    expect((await get("/v1/batches/p-00")).status).toBe(200);
  });

  test("the v1 key is 401 on /v2 and a v2 key is 401 on /v1", async () => {
    expect([(await get("/v2/batches")).status, (await get("/v1/batches", newKey, "new")).status]).toEqual([401, 401]);
    expect((await get("/v2/batches", newKey, "new")).status).toBe(200);
  });
});
