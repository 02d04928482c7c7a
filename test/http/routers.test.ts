import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { parseImport } from "../../src/import.ts";
import { SCOPES } from "../../src/lib/scopes.ts";
import { HTTPS_REQUIRED } from "../../src/http/transport.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { basic } from "../helpers/app.ts";
import { startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

// The server process hands the API routes to Bun.serve's own router and the rest to Elysia
// (src/app.ts, servedApp); `app.handle` takes every request through Elysia. Both read one SQLite file
// here, and every request below must get the same status, body and header names from either.

const dir = tempDir();
const databaseUrl = join(dir.path, "records.sqlite");
let server: ServerProcess;
let proxied: ServerProcess;
let store: SqliteStore;
let app: ReturnType<typeof createApp>;
let auth: string;

const IDS = ["b-one", "a b", "€uro", "a/b", "x?y"];

beforeAll(async () => {
  store = SqliteStore.open(databaseUrl);
  await store.createUser("alice", null);
  auth = basic("alice", await issueApiKey(store, "alice", SCOPES));
  await store.importAll("alice", parseImport({
    batches: IDS.map((_id, i) => ({ _id, name: `Batch ${i}`, batchNo: i + 1, status: "Fermenting", readings: [{ time: 1700000000000 + i, sg: 1.05, type: "manual" }] })),
    hops: [{ _id: "h-one", name: "Cascade", alpha: 5.5, inventory: 100 }],
  }));
  app = createApp({ ...loadConfig({ DEMO: "0", LOG_LEVEL: "silent" }), databaseUrl }, store);
  server = await startServerProcess({ DATABASE_URL: databaseUrl });
  proxied = await startServerProcess({ DATABASE_URL: databaseUrl, TRUST_PROXY: "1" });
});

afterAll(async () => {
  await server?.stop();
  await proxied?.stop();
  store?.close();
  dir.remove();
});

interface Answer {
  status: number;
  body: string;
  type: string | null;
  names: string[];
  requestId: string | null;
}

const IGNORED = new Set(["date", "content-length"]);

async function answer(res: Response): Promise<Answer> {
  const names = [...res.headers.keys()].filter((n) => !IGNORED.has(n)).sort();
  return { status: res.status, body: await res.text(), type: res.headers.get("content-type"), names, requestId: res.headers.get("x-request-id") };
}

/** The same request to the server process and to the app in process. */
async function both(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const headers = { authorization: auth, ...init.headers };
  const overHttp = await answer(await fetch(server.url + path, { method, headers, body: init.body }));
  const inProcess = await answer(await app.handle(new Request(`http://localhost${path}`, { method, headers, body: init.body })));
  return { overHttp, inProcess };
}

describe("Bun's router and Elysia answer alike", () => {
  const cases: [string, string][] = [
    ["GET", "/v2/batches"],
    ["GET", "/v2/batches?limit=2&include=name"],
    ["GET", "/v2/batches?limit=x"],
    ["GET", "/v2/batches/"],
    ["GET", "/v2/batches/b-one"],
    ["GET", "/v2/batches/b%2Done"],
    ["GET", "/v2/batches/a%20b"],
    ["GET", "/v2/batches/%E2%82%ACuro"],
    ["GET", "/v2/batches/a%2Fb"],
    ["GET", "/v2/batches/x%3Fy"],
    ["GET", "/v2/batches/%zz"],
    ["GET", "/v2/batches/missing"],
    ["GET", "/v2/batches/b-one/"],
    ["GET", "/v2/batches/b-one/readings"],
    ["GET", "/v2/batches/b-one/readings/last"],
    ["GET", "/v2//batches"],
    ["GET", "/V2/batches"],
    ["PUT", "/v2/batches/b-one"],
    ["POST", "/v2/batches"],
    ["OPTIONS", "/v2/batches"],
    ["DELETE", "/v1/batches/b-one"],
    ["GET", "/v2/inventory/hops"],
    ["GET", "/v2/inventory/hops/h-one"],
    ["GET", "/v2/inventory/lagers"],
    ["GET", "/v2/inventory/hops/"],
    ["GET", "/v1/batches?status=Fermenting"],
    ["GET", "/v2/recipes"],
    ["GET", "/healthz"],
    ["GET", "/healthz/"],
    ["POST", "/healthz"],
  ];
  for (const [method, path] of cases) {
    test(`${method} ${path}`, async () => {
      const { overHttp, inProcess } = await both(method, path);
      expect(overHttp).toEqual({ ...inProcess, requestId: overHttp.requestId });
    });
  }

  test("HEAD of a routed path: the status and headers of its GET, no body", async () => {
    const { overHttp, inProcess } = await both("HEAD", "/v2/batches/b-one");
    expect(overHttp.status).toBe(200);
    expect(inProcess.status).toBe(200);
    expect(overHttp.body).toBe("");
    expect(overHttp.names).toEqual(inProcess.names);
    expect(overHttp.type).toBe(inProcess.type);
  });

  test("a PATCH and a refused PATCH body", async () => {
    const ok = await both("PATCH", "/v2/batches/b-one", { body: '{"status":"Conditioning"}', headers: { "content-type": "application/json" } });
    expect(ok.overHttp).toEqual({ ...ok.inProcess, requestId: ok.overHttp.requestId });
    expect(ok.overHttp.body).toBe("Updated");
    const bad = await both("PATCH", "/v2/inventory/hops/h-one", { body: '{"inventory_adjust":"lots"}', headers: { "content-type": "application/json" } });
    expect(bad.overHttp).toEqual({ ...bad.inProcess, requestId: bad.overHttp.requestId });
    expect(bad.overHttp.status).toBe(400);
  });

  test("without credentials: 401 from both, with its challenge", async () => {
    const { overHttp, inProcess } = await both("GET", "/v2/batches", { headers: { authorization: "" } });
    expect(overHttp.status).toBe(401);
    expect(overHttp).toEqual({ ...inProcess, requestId: overHttp.requestId });
    expect(overHttp.names).toContain("www-authenticate");
  });

  test("a request id the client sends comes back from a routed path and from Elysia's", async () => {
    for (const path of ["/v2/batches", "/v2/batches/", "/v2/batches/a%20b"]) {
      const res = await fetch(server.url + path, { headers: { authorization: auth, "x-request-id": "trace-42" } });
      expect(res.headers.get("x-request-id")).toBe("trace-42");
    }
  });
});

describe("behind a TLS-terminating proxy (TRUST_PROXY=1)", () => {
  test("a routed API path refuses a request not forwarded as HTTPS, and serves one that was", async () => {
    const plain = await fetch(proxied.url + "/v2/batches", { headers: { authorization: auth } });
    expect(plain.status).toBe(403);
    expect(await plain.text()).toBe(HTTPS_REQUIRED);
    const forwarded = await fetch(proxied.url + "/v2/batches", { headers: { authorization: auth, "x-forwarded-proto": "https" } });
    expect(forwarded.status).toBe(200);
    expect((await forwarded.json()).length).toBe(IDS.length);
  });

  test("the health check answers a plain request: the proxy's own checks need not forward", async () => {
    const res = await fetch(proxied.url + "/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: "ok", status: "ok" });
  });
});
