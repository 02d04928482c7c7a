import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

// The real command line and the real server process over a real SQLite file.
const dir = tempDir();
const env = { DATABASE_URL: join(dir.path, "records.sqlite"), DEMO: "0" };
let server: ServerProcess;
let key: string;

const batches = {
  batches: [
    { _id: "b-one", name: "Pale Ale", batchNo: 1, status: "Fermenting", brewDate: 1700000000000, recipe: { name: "APA" },
      readings: [{ time: 1700000100000, sg: 1.05, temp: 19.5, type: "manual" }, { time: 1700000200000, sg: 1.02, temp: 19, type: "manual" }] },
    { _id: "b-two", name: "Stout", batchNo: 2, status: "Planning" },
  ],
};

async function get(path: string, auth = basic("alice", key), init: RequestInit = {}) {
  const res = await fetch(server.url + path, { ...init, headers: { authorization: auth, ...(init.headers ?? {}) } });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  expect(cli(["user", "add", "alice"], env).code).toBe(0);
  const gen = cli(["key", "generate", "alice", "--scopes", "all"], env);
  expect(gen.code).toBe(0);
  key = gen.stdout.trim();
  const file = join(dir.path, "import.json");
  writeFileSync(file, JSON.stringify(batches));
  expect(cli(["import", "alice", file], env).code).toBe(0);
  server = await startServerProcess(env);
});

afterAll(async () => {
  await server?.stop();
  dir.remove();
});

describe("command line", () => {
  test("key generate prints only the new key: 43 base64url characters and a newline", () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("user add of an existing user fails with exit code 1 and says so", () => {
    const res = cli(["user", "add", "alice"], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("user alice already exists");
  });

  test("key generate with an unknown scope fails, names it, and leaves the old key working", async () => {
    const res = cli(["key", "generate", "alice", "--scopes", "batches.read,beer.drink"], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("unknown scope(s) for a version 2 key: beer.drink");
    expect(res.stdout).toBe("");
    expect((await get("/v2/batches")).status).toBe(200);
  });

  test("a mistyped option or an extra argument is refused, never ignored, and changes nothing", async () => {
    const file = join(dir.path, "extra.json");
    writeFileSync(file, JSON.stringify({ batches: [{ _id: "b-extra", name: "Extra" }] }));
    const refused: Array<[string[], string]> = [
      // A typo would otherwise make a version 2 key with every scope in place of the key in use.
      [["key", "generate", "alice", "--scopes", "batches.read", "--api-verison", "1"], "unknown option(s) or argument(s) for key generate: --api-verison 1"],
      [["key", "generate", "alice"], "key generate needs --scopes (all, or a comma list)"],
      [["import", "alice", file, "--dry-run"], "unknown option(s) or argument(s) for import: --dry-run"],
      [["export", "alice", join(dir.path, "out.json"), "--bogus"], "unknown option(s) or argument(s) for export: --bogus"],
      [["backup", join(dir.path, "copy.sqlite"), "more"], "unknown option(s) or argument(s) for backup: more"],
      [["logging-id", "alice", "--regenrate"], "unknown option(s) or argument(s) for logging-id: --regenrate"],
      [["migrate-store", "--from", env.DATABASE_URL, "--to", join(dir.path, "copy.sqlite"), "--froce"], "unknown option(s) or argument(s) for migrate-store: --froce"],
    ];
    for (const [args, message] of refused) {
      const res = cli(args, env);
      expect([args.join(" "), res.code, res.stdout, res.stderr.split("\n")[0]]).toEqual([args.join(" "), 1, "", `brewrecords: ${message}`]);
    }
    expect((await get("/v2/batches")).status).toBe(200);
    expect((await get("/v2/batches/b-extra")).status).toBe(404);
    for (const f of ["out.json", "copy.sqlite"]) expect(await Bun.file(join(dir.path, f)).exists()).toBe(false);
  });

  test("key generate for an unknown user fails with exit code 1", () => {
    const res = cli(["key", "generate", "nobody", "--scopes", "all"], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("no user nobody");
  });

  test("an invalid import is refused naming the element, and nothing of it is written", async () => {
    const file = join(dir.path, "bad.json");
    writeFileSync(file, JSON.stringify({ batches: [{ _id: "b-new", name: "fine" }, { _id: "b-bad", status: "Brewed" }] }));
    const res = cli(["import", "alice", file], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("batches[1] (_id b-bad): status must be one of the six batch statuses");
    expect(res.stderr).toContain("nothing written");
    expect((await get("/v2/batches/b-new")).status).toBe(404);
  });

  test("re-importing the same _id replaces the document and its readings", async () => {
    const file = join(dir.path, "again.json");
    writeFileSync(file, JSON.stringify({ batches: [{ _id: "b-two", name: "Dry Stout", status: "Brewing" }] }));
    expect(cli(["import", "alice", file], env).code).toBe(0);
    expect(JSON.parse((await get("/v2/batches/b-two")).text)).toEqual({ _id: "b-two", name: "Dry Stout", status: "Brewing" });
  });
});

describe("server process over HTTP", () => {
  test("lists batches with default fields in alphabetical key order", async () => {
    const res = await get("/v2/batches/?limit=1");
    expect(res.status).toBe(200);
    expect(res.text).toBe('[{"_id":"b-one","batchNo":1,"brewDate":1700000000000,"name":"Pale Ale","recipe":{"name":"APA"},"status":"Fermenting"}]');
  });

  test("PATCH with fields as query parameters and no body updates the batch", async () => {
    const res = await get("/v2/batches/b-one?status=Conditioning&measuredOg=1.052", undefined, { method: "PATCH" });
    expect(res).toEqual({ status: 200, text: "Updated" });
    const doc = JSON.parse((await get("/v2/batches/b-one?include=measuredOg")).text);
    expect(doc).toEqual({ _id: "b-one", batchNo: 1, brewDate: 1700000000000, measuredOg: 1.052, name: "Pale Ale", recipe: { name: "APA" }, status: "Conditioning" });
  });

  test("readings/last is the newest reading; a batch without readings answers 404", async () => {
    expect(JSON.parse((await get("/v2/batches/b-one/readings/last")).text).sg).toBe(1.02);
    expect(await get("/v2/batches/b-two/readings/last")).toEqual({ status: 404, text: "Not Found" });
  });

  test("any Host routes: a LAN name as short as one letter, as a proxy or browser sends it", async () => {
    // fetch() sets Host from its URL: a raw request sends the Host of a machine called "pi" or "nas".
    const { hostname, port } = new URL(server.url);
    const raw = (host: string, path: string) =>
      new Promise<string>((resolve, reject) => {
        let answer = "";
        Bun.connect({
          hostname,
          port: Number(port),
          socket: {
            open: (s) => void s.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic("alice", key)}\r\nConnection: close\r\n\r\n`),
            data: (_, chunk) => void (answer += chunk.toString()),
            close: () => resolve(answer),
            error: (_, e) => reject(e),
          },
        }).catch(reject);
      });
    const expected = await get("/v2/batches/b-two");
    expect(expected.status).toBe(200);
    for (const host of ["x", "pi", "nas", "nas:80", "brew.lan"]) {
      const answer = await raw(host, "/v2/batches/b-two");
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
      expect(answer.slice(answer.indexOf("\r\n\r\n") + 4)).toBe(expected.text);
      expect((await raw(host, "/v2/nothing-here")).split("\r\n")[0]).toBe("HTTP/1.1 404 Not Found");
    }
  });

  test("a wrong key is 401 Unauthorized with a Basic challenge", async () => {
    const res = await fetch(server.url + "/v2/batches", { headers: { authorization: basic("alice", "x".repeat(43)) } });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe("Unauthorized");
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="brewrecords", charset="UTF-8"');
  });

  test("an oversized body is refused with 413 and a plain-text reason", async () => {
    const res = await get("/v2/batches/b-one", undefined, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ notes: "x".repeat(1024 * 1024 + 1) }),
    });
    expect(res).toEqual({ status: 413, text: "Payload Too Large" });
  });

  test("regenerating the key from the command line refuses the old key at once", async () => {
    const old = key;
    const gen = cli(["key", "generate", "alice", "--scopes", "batches.read"], env);
    expect(gen.code).toBe(0);
    key = gen.stdout.trim();
    expect((await get("/v2/batches", basic("alice", old))).status).toBe(401);
    expect((await get("/v2/batches")).status).toBe(200);
    expect(await get("/v2/batches/b-one", undefined, { method: "DELETE" })).toEqual({ status: 403, text: "Forbidden" });
  });
});

test("SIGTERM stops the server gracefully with exit code 0", async () => {
  const other = await startServerProcess({ ...env, DATABASE_URL: join(dir.path, "second.sqlite") });
  expect(await other.stop("SIGTERM")).toBe(0);
});
