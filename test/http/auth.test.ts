// Authentication (API document, Authentication and Errors): 401 `Unauthorized` for missing or invalid
// credentials, 403 `Forbidden` for a key without the endpoint's scope (a write scope does not allow
// delete), and a key sees only its own user's data. Precedence 401, 403, 404, 400: docs/decisions.md.
import { describe, expect, test } from "bun:test";
import { issueApiKey } from "../../src/store/keys.ts";
import { SCOPES, type Scope } from "../../src/lib/scopes.ts";
import { basic, runTable, world, type Scenario, type World } from "./harness.ts";
import { ENDPOINTS, label, paleUntouched, urlOf } from "./endpoints.ts";
import { ownerImport } from "./fixtures.ts";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const ONLY: Record<string, Scope[]> = {
  reader: ["batches.read"],
  writer: ["batches.write"],
  deleter: ["batches.delete"],
  // Every scope but the batch ones: recipes and inventory scopes give nothing on batches.
  others: SCOPES.filter((s) => !s.startsWith("batches.")),
};

const makeWorld = () =>
  world({
    alice: { data: ownerImport() },
    // Bob's batch has readings and a tracker, so a leak through any batch endpoint would show.
    bob: { data: { batches: [{ _id: "b-bob", name: "Bob's", status: "Planning", readings: [{ time: 1, sg: 1.01 }], brewTracker: { _id: "t-bob", stage: 0 } }] } },
    ...Object.fromEntries(Object.entries(ONLY).map(([user, scopes]) => [user, { scopes, data: ownerImport() }])),
  });

describe("401 Unauthorized, on every endpoint, before anything else", () => {
  // The key itself is only known at run time; these credentials are wrong whatever it is.
  const bad: Array<[string, string | null]> = [
    ["no Authorization header", null],
    ["bad base64", "Basic !!!not-base64!!!"],
    ["no colon in the credentials", `Basic ${b64("alice")}`],
    ["an empty user id", `Basic ${b64(":somekey")}`],
    ["an empty key", `Basic ${b64("alice:")}`],
    ["another scheme", "Bearer abc"],
    ["the wrong key", basic("alice", "A".repeat(43))],
    ["an unknown user", basic("nobody", "A".repeat(43))],
  ];
  const table: Scenario[] = ENDPOINTS.flatMap((e) =>
    bad.map(([why, auth]) => ({
      name: `${label(e)} with ${why} is 401 Unauthorized`,
      method: e.method,
      // A bad query parameter and an unknown id must not change the answer: 401 comes first.
      url: urlOf(e, e.path === "/v2/batches" ? "" : "no-such-id") + (e.path === "/v2/batches" ? "?limit=0" : ""),
      as: auth === null ? null : "alice",
      ...(auth === null ? {} : { auth }),
      body: e.body,
      status: 401,
      text: "Unauthorized",
      // A refused write left the owner's batch, its readings and tracker exactly as imported.
      after: e.method === "GET" ? undefined : (w: World) => paleUntouched(w, "alice"),
    })),
  );
  runTable(table, makeWorld);

  test("another account's valid key with this user id is 401", async () => {
    const w = await makeWorld();
    for (const e of ENDPOINTS) {
      const res = await w.h.call(e.method, urlOf(e), null, { auth: basic("alice", w.accounts.bob.key), body: e.body });
      expect([label(e), res.status, res.text]).toEqual([label(e), 401, "Unauthorized"]);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="brewrecords", charset="UTF-8"');
    }
    await paleUntouched(w, "alice");
  });

  test("a refused PATCH or DELETE did not reach its handler", async () => {
    const w = await makeWorld();
    for (const e of ENDPOINTS.filter((x) => x.method !== "GET")) {
      const res = await w.h.call(e.method, urlOf(e), null, { auth: basic("alice", "wrong"), body: e.body });
      expect(res.status).toBe(401);
    }
    await paleUntouched(w, "alice");
  });

  test("a version 1 key is not a credential on /v2 (docs/decisions.md, Keys)", async () => {
    const w = await makeWorld();
    const v1 = await w.h.account("old", SCOPES, 1);
    const res = await w.h.call("GET", "/v2/batches", v1);
    expect([res.status, res.text]).toEqual([401, "Unauthorized"]);
  });

  test("the scheme name is case-insensitive (RFC 7617)", async () => {
    const w = await makeWorld();
    const token = w.accounts.alice.auth.slice("Basic ".length);
    for (const scheme of ["basic", "BASIC", "bAsIc"]) {
      const res = await w.h.call("GET", "/v2/batches", null, { auth: `${scheme} ${token}` });
      expect([scheme, res.status]).toEqual([scheme, 200]);
    }
  });
});

describe("403 Forbidden for a key without the endpoint's scope", () => {
  const table: Scenario[] = ENDPOINTS.flatMap((e) =>
    Object.entries(ONLY).map(([user, scopes]): Scenario => {
      const allowed = scopes.includes(e.scope);
      return {
        name: `${label(e)} with only ${scopes.length === 1 ? scopes[0] : "recipe and inventory scopes"} is ${allowed ? e.status : "403 Forbidden"}`,
        method: e.method,
        url: urlOf(e),
        as: user,
        body: e.body,
        status: allowed ? e.status : 403,
        ...(allowed ? { text: e.text, json: e.json } : { text: "Forbidden" }),
        after: allowed ? undefined : (w) => paleUntouched(w, user),
      };
    }),
  );
  runTable(table, makeWorld);

  // 403 comes before 404 and 400: a key without the scope learns nothing about the record or input.
  const precedence: Scenario[] = [
    { name: "PATCH of an unknown id without batches.write is 403", method: "PATCH", url: "/v2/batches/no-such-id", as: "reader", body: { status: "x" }, status: 403, text: "Forbidden", after: (w) => paleUntouched(w, "reader") },
    { name: "DELETE of an unknown id with only batches.write is 403", method: "DELETE", url: "/v2/batches/no-such-id", as: "writer", status: 403, text: "Forbidden", after: (w) => paleUntouched(w, "writer") },
    { name: "GET of an unknown id without batches.read is 403", method: "GET", url: "/v2/batches/no-such-id", as: "deleter", status: 403, text: "Forbidden" },
    { name: "a list with a bad limit without batches.read is 403", method: "GET", url: "/v2/batches?limit=0", as: "writer", status: 403, text: "Forbidden" },
    { name: "a PATCH with a bad value without batches.write is 403", method: "PATCH", url: "/v2/batches/b-pale", as: "deleter", body: { measuredOg: 9 }, status: 403, text: "Forbidden", after: (w) => paleUntouched(w, "deleter") },
  ];
  runTable(precedence, makeWorld);
});

describe("a key sees only its own user's data", () => {
  const table: Scenario[] = ENDPOINTS.filter((e) => e.path.includes("{id}")).map((e) => ({
    name: `${label(e)} of another account's batch answers as a missing id: 404 Not Found`,
    method: e.method,
    url: urlOf(e, "b-bob"),
    as: "alice",
    body: e.body,
    status: 404,
    text: "Not Found",
    after: async (w) => {
      const missing = await w.h.call(e.method, urlOf(e, "no-such-id"), w.accounts.alice, { body: e.body });
      const res = await w.h.call(e.method, urlOf(e, "b-bob"), w.accounts.alice, { body: e.body });
      expect([res.status, res.text, res.headers.get("content-type")]).toEqual([missing.status, missing.text, missing.headers.get("content-type")]);
      expect(await w.h.store.get("bob", "batch", "b-bob")).toBe('{"_id":"b-bob","name":"Bob\'s","status":"Planning"}');
      expect(await w.h.store.readings("bob", "b-bob")).toBe('[{"sg":1.01,"time":1}]');
      expect(await w.h.store.brewTracker("bob", "b-bob")).toBe('{"_id":"t-bob","stage":0}');
    },
  }));
  runTable(table, makeWorld);

  test("another account's batch never appears in a list, whatever the parameters", async () => {
    const w = await makeWorld();
    for (const q of ["", "?complete=True&limit=50", "?status=Planning", "?order_by=name&order_by_direction=desc", "?start_after=b-a", "?include=name"]) {
      const ids = w.h.call("GET", `/v2/batches${q}`, w.accounts.alice).then((r) => r.json().map((b: { _id: string }) => b._id));
      expect([q, await ids]).toEqual([q, expect.not.arrayContaining(["b-bob"])]);
    }
  });

  test("another account's _id as start_after is unknown, exactly as a missing one", async () => {
    const w = await makeWorld();
    const [other, missing] = await Promise.all(
      ["b-bob", "no-such-id"].map((id) => w.h.call("GET", `/v2/batches?order_by=name&start_after=${id}`, w.accounts.alice)),
    );
    expect([other.status, other.text]).toEqual([400, "Invalid start_after"]);
    expect([other.status, other.text]).toEqual([missing.status, missing.text]);
  });

  test("the same _id in two accounts is two batches", async () => {
    const w = await makeWorld();
    await w.h.load("bob", { batches: [{ _id: "b-pale", name: "Bob's pale", status: "Archived" }] });
    const patched = await w.h.call("PATCH", "/v2/batches/b-pale", w.accounts.bob, { body: { status: "Completed" } });
    expect(patched.text).toBe("Updated");
    expect((await w.h.call("GET", "/v2/batches/b-pale?include=status", w.accounts.bob)).json()).toEqual({ _id: "b-pale", name: "Bob's pale", status: "Completed" });
    await paleUntouched(w, "alice");
    expect((await w.h.call("DELETE", "/v2/batches/b-pale", w.accounts.bob)).text).toBe("Deleted");
    await paleUntouched(w, "alice");
  });
});

describe("regenerating a key", () => {
  test("the old key is 401 at once and the new one works", async () => {
    const w = await makeWorld();
    const old = w.accounts.alice;
    expect((await w.h.call("GET", "/v2/batches", old)).status).toBe(200);
    const key = await issueApiKey(w.h.store, "alice", SCOPES);
    const res = await w.h.call("GET", "/v2/batches", old);
    expect([res.status, res.text]).toEqual([401, "Unauthorized"]);
    expect((await w.h.call("GET", "/v2/batches", null, { auth: basic("alice", key) })).status).toBe(200);
  });

  test("the new key has the scopes chosen when it was generated, not the old ones", async () => {
    const w = await makeWorld();
    const key = await issueApiKey(w.h.store, "alice", ["batches.read"]);
    const auth = basic("alice", key);
    expect((await w.h.call("GET", "/v2/batches/b-pale", null, { auth })).status).toBe(200);
    const res = await w.h.call("PATCH", "/v2/batches/b-pale", null, { auth, body: { status: "Brewing" } });
    expect([res.status, res.text]).toEqual([403, "Forbidden"]);
  });
});
