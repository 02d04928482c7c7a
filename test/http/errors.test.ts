// Error answers (API document, Errors; docs/decisions.md, HTTP): bodies that are not a JSON object,
// too deep or too large, foreign content types, unknown routes and methods, and `Missing ID` after
// authentication. Every call goes through the harness, which fails a test on any 5xx.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { loadConfig } from "../../src/config.ts";
import { SCOPES } from "../../src/lib/scopes.ts";
import { runTable, world, type Scenario } from "./harness.ts";
import { paleUntouched } from "./endpoints.ts";
import { ownerImport } from "./fixtures.ts";

const makeWorld = () =>
  world({
    alice: { data: ownerImport() },
    noBatches: { scopes: SCOPES.filter((s) => !s.startsWith("batches.")), data: ownerImport() },
  });
const MAX = loadConfig({ DEMO: "0" }).maxBodyBytes;
const unchanged = (w: Parameters<NonNullable<Scenario["after"]>>[0]) => paleUntouched(w, "alice");
const raw = (name: string, body: string, status: number, text: string, headers: Record<string, string> = { "content-type": "application/json" }): Scenario => ({
  name,
  method: "PATCH",
  url: "/v2/batches/b-pale",
  as: "alice",
  raw: body,
  headers,
  status,
  text,
  after: status === 200 && text === "Updated" ? undefined : unchanged,
});
const nested = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
/** A JSON object of exactly `bytes` bytes whose only field is unknown to PATCH. */
const padded = (bytes: number) => `{"pad":"${"x".repeat(bytes - 10)}"}`;

describe("request bodies", () => {
  runTable(
    [
      raw("malformed JSON is 400 Invalid JSON", '{"status":', 400, "Invalid JSON"),
      raw("unquoted names are 400 Invalid JSON", "{status: Brewing}", 400, "Invalid JSON"),
      raw("text after the JSON value is 400 Invalid JSON", '{"status":"Brewing"} x', 400, "Invalid JSON"),
      raw("a single quote string is 400 Invalid JSON", "{'status':'Brewing'}", 400, "Invalid JSON"),
      raw("a JSON array is 400 Body must be a JSON object", '[{"status":"Brewing"}]', 400, "Body must be a JSON object"),
      raw("a JSON string is 400 Body must be a JSON object", '"Brewing"', 400, "Body must be a JSON object"),
      raw("a JSON number is 400 Body must be a JSON object", "1.05", 400, "Body must be a JSON object"),
      raw("JSON null is 400 Body must be a JSON object", "null", 400, "Body must be a JSON object"),
      raw("JSON true is 400 Body must be a JSON object", "true", 400, "Body must be a JSON object"),
      raw("64 levels of nesting are accepted", nested(64), 200, "Nothing to update"),
      raw("65 levels of nesting are 400 Invalid JSON: nested too deeply", nested(65), 400, "Invalid JSON: nested too deeply"),
      raw("10,000 levels of objects are 400, not 500", nested(10_000), 400, "Invalid JSON: nested too deeply"),
      raw("10,000 levels of arrays are 400, not 500", "[".repeat(10_000) + "]".repeat(10_000), 400, "Invalid JSON: nested too deeply"),
      raw("a number too large for a double is not a number", '{"measuredOg":1e400}', 400, "Invalid measuredOg"),
      raw("a __proto__ member is an unknown field, not a prototype", '{"__proto__":{"status":"Brewing"}}', 200, "Nothing to update"),
      raw("text/plain with a body is 415", '{"status":"Brewing"}', 415, "Content-Type must be application/json", { "content-type": "text/plain" }),
      raw("a form body is 415, not silently ignored", "status=Brewing", 415, "Content-Type must be application/json", { "content-type": "application/x-www-form-urlencoded" }),
      raw("multipart is 415", '{"status":"Brewing"}', 415, "Content-Type must be application/json", { "content-type": "multipart/form-data; boundary=x" }),
      raw("application/jsonx is not JSON: 415", '{"status":"Brewing"}', 415, "Content-Type must be application/json", { "content-type": "application/jsonx" }),
      raw("the media type is case-insensitive", '{"status":"Brewing"}', 200, "Updated", { "content-type": "Application/JSON" }),
      raw("a body of exactly the maximum size is read", padded(MAX), 200, "Nothing to update"),
      raw("one byte over the maximum is 413 Payload Too Large", padded(MAX + 1), 413, "Payload Too Large"),
      raw("a body far over the maximum is 413", padded(MAX * 5), 413, "Payload Too Large"),
      raw("a declared Content-Length of the maximum is read", padded(MAX), 200, "Nothing to update", { "content-type": "application/json", "content-length": String(MAX) }),
      raw("a declared Content-Length one over the maximum is 413", padded(MAX + 1), 413, "Payload Too Large", { "content-type": "application/json", "content-length": String(MAX + 1) }),
    ],
    makeWorld,
  );
  test("the size limit counts bytes, not characters", async () => {
    const w = await makeWorld();
    const body = `{"pad":"${"é".repeat(MAX / 2)}"}`; // 2 bytes per character: over the limit in bytes only
    expect(body.length).toBeLessThan(MAX);
    const res = await w.h.call("PATCH", "/v2/batches/b-pale", w.accounts.alice, { raw: body, headers: { "content-type": "application/json" } });
    expect([res.status, res.text]).toEqual([413, "Payload Too Large"]);
  });
});

describe("unknown routes and methods: 404 Not Found without authentication", () => {
  const routes: Array<[string, string]> = [
    ["GET", "/"],
    ["GET", "/v2"],
    ["GET", "/v2/nothing"],
    ["GET", "/v3/batches"],
    ["GET", "/v2/batches/b-pale/unknown"],
    ["GET", "/v2/batches/b-pale/readings/first"],
    // POST /v2/batches starts a batch (beyond the hosted API); PUT on the list, and POST on v1, stay unknown.
    ["PUT", "/v2/batches"],
    ["POST", "/v1/batches"],
    ["PUT", "/v2/batches/b-pale"],
    ["POST", "/v2/batches/b-pale"],
    ["PATCH", "/v2/batches/b-pale/readings"],
    ["DELETE", "/v2/batches/b-pale/brewtracker"],
    ["POST", "/v2/batches/b-pale/readings/last"],
    ["OPTIONS", "/v2/batches"],
  ];
  runTable(
    routes.flatMap(([method, url]) =>
      [null, "alice"].map((as): Scenario => ({
        name: `${method} ${url} ${as ? "with" : "without"} credentials is 404 Not Found`,
        method,
        url,
        as,
        ...(method === "GET" || method === "OPTIONS" ? {} : { body: { status: "Brewing" } }),
        status: 404,
        text: "Not Found",
        after: unchanged,
      })),
    ),
    makeWorld,
  );
});

describe("Missing ID for an empty id, after authentication and scope", () => {
  const empty: Array<[string, string]> = [
    ["PATCH", "/v2/batches/"],
    ["PATCH", "/v2/batches"],
    ["PATCH", "/v2/batches/?status=Brewing"],
    ["DELETE", "/v2/batches/"],
    ["DELETE", "/v2/batches"],
    ["GET", "/v2/batches//readings/last"],
    ["GET", "/v2/batches//readings"],
    ["GET", "/v2/batches//brewtracker"],
  ];
  runTable(
    empty.flatMap(([method, url]): Scenario[] => {
      const body = method === "PATCH" ? { status: "Brewing" } : undefined;
      return [
        { name: `${method} ${url} is 400 Missing ID`, method, url, as: "alice", body, status: 400, text: "Missing ID", after: unchanged },
        { name: `${method} ${url} without credentials is 401 first`, method, url, as: null, body, status: 401, text: "Unauthorized" },
        { name: `${method} ${url} with a wrong key is 401 first`, method, url, as: "alice", auth: "Basic YWxpY2U6d3Jvbmc=", body, status: 401, text: "Unauthorized" },
        { name: `${method} ${url} without the scope is 403 first`, method, url, as: "noBatches", body, status: 403, text: "Forbidden" },
      ];
    }),
    makeWorld,
  );
});

describe("odd input is answered, never a 500", () => {
  const odd = (name: string, url: string, status: number, expected: { text?: string; json?: unknown }): Scenario => ({ name, method: "GET", url, as: "alice", status, ...expected });
  const paleDefaults = { _id: "b-pale", batchNo: 12, brewDate: 1_700_000_000_000, brewer: "Ann", name: "Pale Ale #1", recipe: { name: "House Pale" }, status: "Planning" };
  runTable(
    [
      odd("include=__proto__ reads no prototype", "/v2/batches/b-pale?include=__proto__", 200, { json: paleDefaults }),
      odd("include of inherited names adds nothing", "/v2/batches/b-pale?include=constructor,toString,hasOwnProperty,__proto__.x", 200, { json: paleDefaults }),
      odd("5,000 include paths are answered", `/v2/batches/b-pale?include=${"a,".repeat(5000)}`, 200, { json: paleDefaults }),
      odd("a 2,000-part include path is answered", `/v2/batches/b-pale?include=${"a.".repeat(2000)}a`, 200, { json: paleDefaults }),
      odd("a huge limit is served as 50", "/v2/batches?limit=99999999999999999999999&status=Planning", 200, { json: [paleDefaults] }),
      odd("a NUL status is 400 Invalid status", "/v2/batches?status=%00", 400, { text: "Invalid status" }),
      odd("a NUL id is 404", "/v2/batches/%00", 404, { text: "Not Found" }),
      odd("a malformed percent-escape in the id is 404", "/v2/batches/%ZZ", 404, { text: "Not Found" }),
      odd("a 5,000-character id is 404", `/v2/batches/${"x".repeat(5000)}`, 404, { text: "Not Found" }),
    ],
    makeWorld,
  );

  test("random methods, paths, queries and bodies get one of the documented statuses", async () => {
    const w = await makeWorld();
    const { h, accounts } = w;
    const segment = fc.oneof(fc.constantFrom("v2", "batches", "b-pale", "b-bare", "readings", "last", "brewtracker", "", "%2F", ".."), fc.string({ maxLength: 6 }).map(encodeURIComponent));
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join("/")}`);
    const query = fc.array(fc.tuple(fc.constantFrom("limit", "include", "order_by", "order_by_direction", "start_after", "status", "complete", "measuredOg"), fc.string({ maxLength: 8 })), { maxLength: 4 });
    const body = fc.option(fc.oneof(fc.json(), fc.string({ maxLength: 30 })), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "PATCH", "DELETE", "POST", "PUT"), path, query, body, fc.boolean(), async (method, p, q, b, withKey) => {
        const url = q.length ? `${p}?${new URLSearchParams(q)}` : p;
        const res = await h.call(method, url, withKey ? accounts.alice : null, { raw: b, headers: b === undefined ? {} : { "content-type": "application/json" } });
        expect([200, 400, 401, 403, 404, 413, 415]).toContain(res.status);
        await h.load("alice", ownerImport()); // undo any write, so later runs see the same batches
      }),
      { numRuns: 300 },
    );
  });
});
