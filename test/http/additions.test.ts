// The API additions (README, "Beyond the hosted API"): a batch started from a recipe, a reading posted
// and deleted, several statuses at once, readings since a time. Exact statuses and bodies, scopes,
// isolation between accounts, and nothing half written on a refusal. Runs on SQLite and, with
// TEST_STORE=postgres, on PostgreSQL (npm test does both).
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { SCOPES, type Scope } from "../../src/lib/scopes.ts";
import { testApp, type TestApp } from "../helpers/app.ts";

const RECIPE = {
  name: "Session Pale",
  batchSize: 20,
  efficiency: 72,
  fermentables: [{ name: "Pale malt", amount: 3.6, potential: 1.037, color: 3, type: "Grain" }],
  hops: [{ name: "Cascade", amount: 25, alpha: 6, use: "Boil", time: 60 }],
};

async function world() {
  const t = await testApp();
  const alice = await t.account("alice");
  const bob = await t.account("bob");
  const reader = await t.account("reader", SCOPES.filter((s) => s.endsWith(".read")) as Scope[]);
  const recipe = await t.call("POST", "/v2/recipes", alice, { body: RECIPE });
  expect(recipe.status).toBe(201);
  return { t, alice, bob, reader, recipeId: recipe.json().id as string };
}

const listAll = async (t: TestApp, who: Parameters<TestApp["call"]>[2]) => (await t.call("GET", "/v2/batches?complete=True&limit=50", who)).json();

describe("POST /v2/batches", () => {
  test("from recipeId: 201 {id}; the batch holds the recipe's copy, its estimates, batchNo 1, Planning and the service's fields", async () => {
    const { t, alice, recipeId } = await world();
    const res = await t.call("POST", "/v2/batches", alice, { body: { recipeId } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json())).toEqual(["id"]);
    const batch = (await t.call("GET", `/v2/batches/${res.json().id}`, alice)).json();
    const recipe = (await t.call("GET", `/v2/recipes/${recipeId}`, alice)).json();
    expect(batch.recipe).toEqual(recipe);
    expect([batch._id, batch._type, batch._uid, batch.batchNo, batch.status, batch.name, batch.brewer]).toEqual([res.json().id, "batch", "alice", 1, "Planning", "Session Pale", null]);
    expect([batch.estimatedOg, batch.estimatedFg, batch.estimatedIbu, batch.estimatedColor]).toEqual([recipe.og, recipe.fg, recipe.ibu, recipe.color]);
    expect(typeof batch.brewDate).toBe("number");
    expect(typeof batch._timestamp_ms).toBe("number");
    expect(Number.isInteger(batch.batchNo)).toBe(true);
  });

  test("from a whole recipe: the copy carries the figures a recipe POST calculates, and the given fields win", async () => {
    const { t, alice } = await world();
    const res = await t.call("POST", "/v2/batches", alice, { body: { recipe: RECIPE, name: "Brew 12", brewDate: 1700000000000, status: "Brewing", brewer: "Al" } });
    expect(res.status).toBe(201);
    const batch = (await t.call("GET", `/v2/batches/${res.json().id}`, alice)).json();
    const created = await t.call("POST", "/v2/recipes", alice, { body: RECIPE });
    const recipe = (await t.call("GET", `/v2/recipes/${created.json().id}`, alice)).json();
    for (const f of ["og", "fg", "ibu", "color", "abv"]) expect([f, batch.recipe[f]]).toEqual([f, recipe[f]]);
    expect([batch.name, batch.brewDate, batch.status, batch.brewer, batch.estimatedOg]).toEqual(["Brew 12", 1700000000000, "Brewing", "Al", recipe.og]);
  });

  test("the next batchNo follows the account's greatest, imported ones included, and only the account's", async () => {
    const { t, alice, bob, recipeId } = await world();
    await t.load("alice", { batches: [{ _id: "old", name: "Old", batchNo: 41, status: "Completed" }, { _id: "none", name: "No number" }] });
    await t.load("bob", { batches: [{ _id: "bobs", name: "Bob's", batchNo: 500 }] });
    const made = await t.call("POST", "/v2/batches", alice, { body: { recipeId } });
    expect((await t.call("GET", `/v2/batches/${made.json().id}?include=batchNo`, alice)).json().batchNo).toBe(42);
    const bobs = await t.call("POST", "/v2/batches", bob, { body: { recipe: RECIPE } });
    expect((await t.call("GET", `/v2/batches/${bobs.json().id}`, bob)).json().batchNo).toBe(501);
  });

  test("64 creates at once take batchNo 1 to 64, each once", async () => {
    const { t, alice, recipeId } = await world();
    const answers = await Promise.all(Array.from({ length: 64 }, () => t.call("POST", "/v2/batches", alice, { body: { recipeId } })));
    expect(answers.map((a) => a.status)).toEqual(Array(64).fill(201));
    const numbers = (await t.call("GET", "/v2/batches?limit=50&order_by=batchNo", alice)).json().map((b: { batchNo: number }) => b.batchNo);
    const rest = (await t.call("GET", "/v2/batches?limit=50&order_by=batchNo&order_by_direction=desc", alice)).json().map((b: { batchNo: number }) => b.batchNo);
    expect([...new Set([...numbers, ...rest])].sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
  });

  const refusals: Array<[string, unknown, number, string | RegExp]> = [
    ["no body is 400 Missing body", undefined, 400, "Missing body"],
    ["neither recipeId nor recipe", {}, 400, '[{"path":"","rule":"oneOf","message":"give exactly one of recipeId (a recipe of the account) and recipe (a whole recipe)"}]'],
    ["both recipeId and recipe", { recipeId: "x", recipe: RECIPE }, 400, /"rule":"oneOf"/],
    ["an unknown recipeId", { recipeId: "no-such-recipe" }, 400, '[{"path":"recipeId","rule":"exists","message":"recipeId names no recipe of this account"}]'],
    ["a status not of the six", { recipe: RECIPE, status: "Bottled" }, 400, /"path":"status","rule":"enum"/],
    ["a brewDate that is not a whole number", { recipe: RECIPE, brewDate: "tomorrow" }, 400, /"path":"brewDate","rule":"type"/],
    ["a recipe that breaks the recipe rules, with paths inside it", { recipe: { ...RECIPE, batchSize: -1 } }, 400, /"path":"recipe.batchSize","rule":"minimum"/],
    ["a recipeId that is not text", { recipeId: 7 }, 400, /"path":"recipeId","rule":"type"/],
  ];
  for (const [name, body, status, text] of refusals) {
    test(`${name}: ${status}, and nothing is stored`, async () => {
      const { t, alice } = await world();
      const res = await t.call("POST", "/v2/batches", alice, body === undefined ? {} : { body });
      expect(res.status).toBe(status);
      if (typeof text === "string") expect(res.text).toBe(text);
      else expect(res.text).toMatch(text);
      expect(await listAll(t, alice)).toEqual([]);
    });
  }

  test("another account's recipe is unknown here; a body past the size limit is 413; neither stores anything", async () => {
    const { t, alice, bob, recipeId } = await world();
    expect((await t.call("POST", "/v2/batches", bob, { body: { recipeId } })).text).toContain('"path":"recipeId","rule":"exists"');
    const huge = await t.call("POST", "/v2/batches", alice, { body: { recipe: { ...RECIPE, notes: "x".repeat(2 * 1024 * 1024) } } });
    expect([huge.status, huge.text]).toEqual([413, "Payload Too Large"]);
    expect(await listAll(t, alice)).toEqual([]);
    expect(await listAll(t, bob)).toEqual([]);
  });

  test("scopes: batches.write needed (403 for a read-only key, before any body check); no credentials 401", async () => {
    const { t, reader, recipeId } = await world();
    expect([(await t.call("POST", "/v2/batches", reader, { body: { recipeId } })).status]).toEqual([403]);
    expect([(await t.call("POST", "/v2/batches", reader, { raw: "{" })).status]).toEqual([403]);
    expect((await t.call("POST", "/v2/batches", null, { body: { recipeId } })).status).toBe(401);
    expect(await listAll(t, reader)).toEqual([]);
  });

  test("version 1 has no batch creation: POST /v1/batches stays an unknown route", async () => {
    const { t } = await world();
    const v1 = await t.account("old", ["batches.write"], 1);
    expect([(await t.call("POST", "/v1/batches", v1, { body: { recipe: RECIPE } })).status]).toEqual([404]);
  });
});

describe("POST and DELETE /v2/batches/{id}/readings", () => {
  async function withBatch() {
    const w = await world();
    const res = await w.t.call("POST", "/v2/batches", w.alice, { body: { recipeId: w.recipeId } });
    return { ...w, batchId: res.json().id as string };
  }

  test("readings go in by time; readings and readings/last show them at once; numeric strings count", async () => {
    const { t, alice, batchId } = await withBatch();
    const posts = [{ time: 3000, sg: 1.02 }, { time: 1000, sg: "1.050", temp: "19.5" }, { time: 2000, sg: 1.035, comment: "dry hop" }];
    for (const body of posts) expect((await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body })).status).toBe(201);
    expect((await t.call("GET", `/v2/batches/${batchId}/readings`, alice)).text).toBe(
      '[{"sg":1.05,"temp":19.5,"time":1000},{"comment":"dry hop","sg":1.035,"time":2000},{"sg":1.02,"time":3000}]',
    );
    expect((await t.call("GET", `/v2/batches/${batchId}/readings/last`, alice)).text).toBe('{"sg":1.02,"time":3000}');
  });

  test("the answer is 201 with the reading as stored; integers stay integers; a second reading at the same time and id replaces the first", async () => {
    const { t, alice, batchId } = await withBatch();
    const first = await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body: { time: 5000, sg: 1.04, rssi: -70, type: "manual", id: "hydrometer" } });
    expect([first.status, first.text]).toEqual([201, '{"id":"hydrometer","rssi":-70,"sg":1.04,"time":5000,"type":"manual"}']);
    await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body: { time: 5000, sg: 1.039, id: "hydrometer" } });
    expect((await t.call("GET", `/v2/batches/${batchId}/readings`, alice)).text).toBe('[{"id":"hydrometer","sg":1.039,"time":5000}]');
    // Another sender at that time (here one without an id) is kept beside it, and replaces only its own.
    await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body: { time: 5000, sg: 1.03 } });
    await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body: { time: 5000, sg: 1.031 } });
    expect((await t.call("GET", `/v2/batches/${batchId}/readings`, alice)).text).toBe('[{"id":"hydrometer","sg":1.039,"time":5000},{"sg":1.031,"time":5000}]');
  });

  test("without time the reading is stamped with the time received", async () => {
    const { t, alice, batchId } = await withBatch();
    const before = Date.now();
    const res = await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body: { sg: 1.01 } });
    const time = res.json().time;
    expect(Number.isInteger(time) && time >= before && time <= Date.now()).toBe(true);
  });

  test("delete one reading by its time: Deleted, then 404 for it; the others stay", async () => {
    const { t, alice, batchId } = await withBatch();
    for (const time of [1000, 2000]) await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body: { time, sg: 1.05 } });
    expect((await t.call("DELETE", `/v2/batches/${batchId}/readings/1000`, alice)).text).toBe("Deleted");
    const again = await t.call("DELETE", `/v2/batches/${batchId}/readings/1000`, alice);
    expect([again.status, again.text]).toEqual([404, "Not Found"]);
    expect((await t.call("GET", `/v2/batches/${batchId}/readings`, alice)).text).toBe('[{"sg":1.05,"time":2000}]');
  });

  const bad: Array<[string, unknown, string]> = [
    ["a gravity that is not a number", { sg: "abc" }, "Invalid sg"],
    ["a negative time", { time: -5, sg: 1.05 }, "Invalid time"],
    ["a fractional time", { time: 1.5, sg: 1.05 }, "Invalid time"],
    ["a pH beyond 14", { ph: 15 }, "Invalid ph"],
    ["a comment that is not text", { comment: 5 }, "Invalid comment"],
  ];
  for (const [name, body, text] of bad) {
    test(`${name} is 400 ${text}, and nothing is stored`, async () => {
      const { t, alice, batchId } = await withBatch();
      const res = await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { body });
      expect([res.status, res.text]).toEqual([400, text]);
      expect((await t.call("GET", `/v2/batches/${batchId}/readings`, alice)).text).toBe("[]");
    });
  }

  test("precedence: a missing batch is 404 before a bad body or time; 403 before both; another account's batch is missing", async () => {
    const { t, alice, bob, reader, batchId } = await withBatch();
    expect((await t.call("POST", "/v2/batches/nope/readings", alice, { body: { sg: "abc" } })).status).toBe(404);
    expect((await t.call("POST", "/v2/batches/nope/readings", alice, { raw: "{", headers: { "content-type": "application/json" } })).status).toBe(404);
    expect((await t.call("DELETE", "/v2/batches/nope/readings/abc", alice)).status).toBe(404);
    expect((await t.call("DELETE", `/v2/batches/${batchId}/readings/abc`, alice)).text).toBe("Invalid time");
    expect((await t.call("POST", `/v2/batches/${batchId}/readings`, alice, { raw: "{", headers: { "content-type": "application/json" } })).text).toBe("Invalid JSON");
    expect((await t.call("POST", `/v2/batches/${batchId}/readings`, alice)).text).toBe("Missing body");
    expect((await t.call("POST", `/v2/batches/${batchId}/readings`, reader, { body: { sg: "abc" } })).status).toBe(403);
    expect((await t.call("DELETE", `/v2/batches/${batchId}/readings/1`, reader)).status).toBe(403);
    expect((await t.call("POST", `/v2/batches/${batchId}/readings`, bob, { body: { sg: 1.05 } })).status).toBe(404);
    expect((await t.call("GET", `/v2/batches/${batchId}/readings`, alice)).text).toBe("[]");
  });
});

describe("GET /v2/batches?status_in=", () => {
  async function statuses() {
    const { t, alice, bob } = await world();
    const all = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"];
    await t.load("alice", { batches: all.flatMap((status, i) => [{ _id: `b${i}a`, name: `${status} A`, status, brewDate: 100 - i }, { _id: `b${i}b`, name: `${status} B`, status, brewDate: 200 - i }]) });
    await t.load("bob", { batches: [{ _id: "bob1", name: "Bob", status: "Fermenting" }] });
    return { t, alice, bob };
  }
  const ids = (res: { json(): Array<{ _id: string }> }) => res.json().map((b) => b._id);

  test("batches in any of the statuses, in the list's order, with paging and include as status has them", async () => {
    const { t, alice } = await statuses();
    expect(ids(await t.call("GET", "/v2/batches?status_in=Fermenting,Conditioning", alice))).toEqual(["b2a", "b2b", "b3a", "b3b"]);
    expect(ids(await t.call("GET", "/v2/batches?status_in=Fermenting,Conditioning&limit=2&start_after=b2b", alice))).toEqual(["b3a", "b3b"]);
    expect(ids(await t.call("GET", "/v2/batches?status_in=Conditioning,Fermenting&order_by=brewDate&order_by_direction=desc", alice))).toEqual(["b2b", "b3b", "b2a", "b3a"]);
    expect((await t.call("GET", "/v2/batches?status_in=Fermenting&include=brewDate&limit=1", alice)).json()).toEqual([{ _id: "b2a", brewDate: 98, name: "Fermenting A", status: "Fermenting" }]);
    expect(ids(await t.call("GET", "/v2/batches?status_in=Fermenting,Fermenting", alice))).toEqual(["b2a", "b2b"]);
  });

  test("it is the same list as each status asked for alone, merged in order", async () => {
    const { t, alice } = await statuses();
    const pair = ids(await t.call("GET", "/v2/batches?status_in=Planning,Archived&complete=True", alice));
    const one = ids(await t.call("GET", "/v2/batches?status=Planning&complete=True", alice));
    const other = ids(await t.call("GET", "/v2/batches?status=Archived&complete=True", alice));
    expect(pair).toEqual([...one, ...other].sort());
  });

  test("with status too, both apply", async () => {
    const { t, alice } = await statuses();
    expect(ids(await t.call("GET", "/v2/batches?status=Brewing&status_in=Brewing,Completed", alice))).toEqual(["b1a", "b1b"]);
    expect(ids(await t.call("GET", "/v2/batches?status=Brewing&status_in=Completed", alice))).toEqual([]);
  });

  test("a value not of the six is 400 Invalid status_in; the documented status parameter still refuses a list with 400 Invalid status", async () => {
    const { t, alice } = await statuses();
    for (const q of ["status_in=Fermenting,fermenting", "status_in=Fermenting,", "status_in=,", "status_in=Fermenting%2C%20Conditioning"]) {
      const res = await t.call("GET", `/v2/batches?${q}`, alice);
      expect([q, res.status, res.text]).toEqual([q, 400, "Invalid status_in"]);
    }
    const documented = await t.call("GET", "/v2/batches?status=Fermenting,Conditioning", alice);
    expect([documented.status, documented.text]).toEqual([400, "Invalid status"]);
    expect(ids(await t.call("GET", "/v2/batches?status_in=", alice)).length).toBe(10);
  });

  test("another account's batches never show", async () => {
    const { t, bob } = await statuses();
    expect(ids(await t.call("GET", "/v2/batches?status_in=Fermenting,Conditioning", bob))).toEqual(["bob1"]);
  });
});

describe("GET /v2/batches/{id}/readings?since=&until=", () => {
  test("inclusive bounds; the same Reading Objects in the same order; bad values 400 after the batch is found", async () => {
    const { t, alice } = await world();
    const readings = [1000, 2000, 2000, 3000, 4000].map((time, i) => ({ time, sg: 1.05 - i / 1000 }));
    await t.load("alice", { batches: [{ _id: "b", name: "B", readings }] });
    const times = async (q: string) => (await t.call("GET", `/v2/batches/b/readings?${q}`, alice)).json().map((r: { time: number }) => r.time);
    expect(await times("since=2000")).toEqual([2000, 2000, 3000, 4000]);
    expect(await times("until=2000")).toEqual([1000, 2000, 2000]);
    expect(await times("since=2000&until=3000")).toEqual([2000, 2000, 3000]);
    expect(await times("since=4001")).toEqual([]);
    expect(await times("since=3000&until=2000")).toEqual([]);
    expect(await times("since=")).toEqual([1000, 2000, 2000, 3000, 4000]);
    for (const [q, text] of [["since=abc", "Invalid since"], ["until=-1", "Invalid until"], ["since=1.5", "Invalid since"]]) {
      const res = await t.call("GET", `/v2/batches/b/readings?${q}`, alice);
      expect([q, res.status, res.text]).toEqual([q, 400, text]);
    }
    expect((await t.call("GET", "/v2/batches/nope/readings?since=abc", alice)).status).toBe(404);
  });

  test("property: for random readings and bounds, the answer is exactly the filtered full list", async () => {
    const { t, alice } = await world();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ time: fc.integer({ min: 0, max: 50 }), sg: fc.integer({ min: 1000, max: 1100 }).map((x) => x / 1000) }), { maxLength: 25 }),
        fc.option(fc.integer({ min: -2, max: 52 }), { nil: undefined }),
        fc.option(fc.integer({ min: -2, max: 52 }), { nil: undefined }),
        async (readings, since, until) => {
          const id = `p${n++}`;
          await t.load("alice", { batches: [{ _id: id, name: "P", readings }] });
          const full = (await t.call("GET", `/v2/batches/${id}/readings`, alice)).json() as Array<{ time: number }>;
          const q = [since !== undefined && since >= 0 ? `since=${since}` : "", until !== undefined && until >= 0 ? `until=${until}` : ""].filter(Boolean).join("&");
          const lo = since !== undefined && since >= 0 ? since : -Infinity;
          const hi = until !== undefined && until >= 0 ? until : Infinity;
          const got = (await t.call("GET", `/v2/batches/${id}/readings?${q}`, alice)).json();
          expect(got).toEqual(full.filter((r) => r.time >= lo && r.time <= hi));
        },
      ),
      { numRuns: 60 },
    );
  });
});
