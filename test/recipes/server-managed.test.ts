// Server-managed recipe fields (API document: Recipe Object, "Server-managed recipe fields";
// Endpoints › Recipes rules 1–3): set by the service on every write, never taken from a body.
import { describe, expect, test } from "bun:test";
import { createRecipe, updateRecipe } from "../../src/recipes/service.ts";
import { BARE, paleAle } from "./fixtures.ts";
import { openWorld, type Doc } from "./harness.ts";

/** Every server-managed field the document names, with a value a client might try to force. */
const FORGED: Doc = {
  _id: "forged-id", _uid: "bob", _rev: "r0", _type: "batch", _init: false, _public: true, _origin: "elsewhere",
  _timestamp: { _seconds: 1, _nanoseconds: 0 }, _created: { _seconds: 1, _nanoseconds: 0 }, _timestamp_ms: 1000,
  _app_metadata: { a: 1 }, _share: "share-id", _ev: 1.1, _ev_updated: 5, _versionId: "v9", _versionNumber: 9,
  _anythingElse: "x", _calculated: [],
  createdAt: "1999-01-01T00:00:00.000Z", updatedAt: "1999-01-01T00:00:00.000Z",
  data: { mashWaterAmount: 999, strikeTemp: 99, forged: true },
};

/** The root `_` keys the service writes on a recipe: nothing a client sent can add to them. */
const SERVICE_KEYS = ["_calculated", "_created", "_id", "_init", "_public", "_rev", "_timestamp", "_timestamp_ms", "_type", "_uid"];
const rootUnderscoreKeys = (doc: Doc) => Object.keys(doc).filter((k) => k.startsWith("_")).sort();
const stampsOf = (now: number) => ({
  time: { _nanoseconds: (now % 1000) * 1_000_000, _seconds: Math.floor(now / 1000) },
  iso: new Date(now).toISOString(),
});

describe("create", () => {
  test("every forged server-managed field is replaced or dropped; the rest of the body is kept", async () => {
    const w = await openWorld();
    const before = Date.now();
    const id = await w.create({ ...FORGED, ...BARE });
    const after = Date.now();
    const doc = await w.read(id);
    expect(rootUnderscoreKeys(doc)).toEqual(SERVICE_KEYS);
    expect({ _id: doc._id, _uid: doc._uid, _type: doc._type, _public: doc._public, _init: doc._init, name: doc.name }).toEqual({
      _id: id, _uid: "alice", _type: "recipe", _public: false, _init: true, name: "Bare",
    });
    expect(doc._rev).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(doc._timestamp_ms).toBeGreaterThanOrEqual(before);
    expect(doc._timestamp_ms).toBeLessThanOrEqual(after);
    const { time, iso } = stampsOf(doc._timestamp_ms);
    expect([doc._created, doc._timestamp, doc.createdAt, doc.updatedAt]).toEqual([time, time, iso, iso]);
    expect(doc.data.forged).toBeUndefined();
    expect(doc.data.mashWaterAmount).not.toBe(999);
  });

  test("stamps at a given time: _created and _timestamp as {_seconds, _nanoseconds}, _timestamp_ms, createdAt and updatedAt as ISO 8601", async () => {
    const w = await openWorld();
    const now = 1_700_000_123_456;
    const id = await createRecipe(w.h.store, "alice", { ...BARE }, now);
    const doc = await w.read(id);
    const { time, iso } = stampsOf(now);
    expect(time).toEqual({ _nanoseconds: 456_000_000, _seconds: 1_700_000_123 });
    expect({ _created: doc._created, _timestamp: doc._timestamp, _timestamp_ms: doc._timestamp_ms, createdAt: doc.createdAt, updatedAt: doc.updatedAt }).toEqual({
      _created: time, _timestamp: time, _timestamp_ms: now, createdAt: "2023-11-14T22:15:23.456Z", updatedAt: iso,
    });
  });

  test("a forged _calculated list cannot stop the service filling in og, fg, ibu, color and abv", async () => {
    const w = await openWorld();
    const id = await w.create({ ...paleAle(), _calculated: [] });
    const doc = await w.read(id);
    expect(doc._calculated).toEqual(["og", "fg", "ibu", "color", "abv"]);
    // Doubling the grain bill must move every one of them, as the service calculated them.
    expect(await w.call("PATCH", `/v2/recipes/${id}`, "alice", { body: { _calculated: [], fermentables: paleAle().fermentables.map((f: Doc) => ({ ...f, amount: f.amount * 2 })) } })).toMatchObject({ status: 200, text: "Updated" });
    const after = await w.read(id);
    for (const f of ["og", "fg", "color", "abv"]) expect([f, after[f] > doc[f]]).toEqual([f, true]);
    expect(after.ibu).not.toBe(doc.ibu);
  });
});

describe("update", () => {
  test("stamps again at the update's time, keeps _created and createdAt, and gives a new _rev", async () => {
    const w = await openWorld();
    const t0 = 1_700_000_000_000, t1 = t0 + 90_061_001;
    const id = await createRecipe(w.h.store, "alice", { ...BARE }, t0);
    const created = await w.read(id);
    expect(await updateRecipe(w.h.store, "alice", id, { value: { notes: "later" } }, t1)).toBe("Updated");
    const doc = await w.read(id);
    const at0 = stampsOf(t0), at1 = stampsOf(t1);
    expect({ _created: doc._created, createdAt: doc.createdAt, _timestamp: doc._timestamp, _timestamp_ms: doc._timestamp_ms, updatedAt: doc.updatedAt, notes: doc.notes }).toEqual({
      _created: at0.time, createdAt: at0.iso, _timestamp: at1.time, _timestamp_ms: t1, updatedAt: at1.iso, notes: "later",
    });
    expect(doc._rev).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(doc._rev).not.toBe(created._rev);
  });

  test("every write gives a new _rev and a later or equal _timestamp_ms", async () => {
    const w = await openWorld();
    const id = await w.create(BARE);
    const seen = [await w.read(id)];
    for (const notes of ["a", "b", "c"]) {
      expect((await w.call("PATCH", `/v2/recipes/${id}`, "alice", { body: { notes } })).text).toBe("Updated");
      seen.push(await w.read(id));
    }
    expect(new Set(seen.map((d) => d._rev)).size).toBe(4);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!._timestamp_ms).toBeGreaterThanOrEqual(seen[i - 1]!._timestamp_ms);
    expect(new Set(seen.map((d) => d.createdAt)).size).toBe(1);
  });

  test("forged server-managed fields beside a real change are ignored; the change is stored", async () => {
    const w = await openWorld();
    const id = await w.create(BARE);
    const before = await w.read(id);
    const res = await w.call("PATCH", `/v2/recipes/${id}`, "alice", { body: { ...FORGED, name: "Renamed" } });
    expect([res.status, res.text]).toEqual([200, "Updated"]);
    const doc = await w.read(id);
    expect(rootUnderscoreKeys(doc)).toEqual(SERVICE_KEYS);
    expect({ _id: doc._id, _uid: doc._uid, _type: doc._type, _public: doc._public, _init: doc._init, _created: doc._created, createdAt: doc.createdAt, name: doc.name }).toEqual({
      _id: id, _uid: "alice", _type: "recipe", _public: false, _init: true, _created: before._created, createdAt: before.createdAt, name: "Renamed",
    });
    expect(doc.data).toEqual(before.data);
    expect((await w.call("GET", "/v2/recipes/forged-id", "alice")).status).toBe(404);
  });

  test("a body of server-managed fields only is 200 Nothing to update and changes no byte", async () => {
    const w = await openWorld();
    const id = await w.create(paleAle());
    const before = (await w.call("GET", `/v2/recipes/${id}`, "alice")).text;
    const res = await w.call("PATCH", `/v2/recipes/${id}`, "alice", { body: FORGED });
    expect([res.status, res.text]).toEqual([200, "Nothing to update"]);
    expect((await w.call("GET", `/v2/recipes/${id}`, "alice")).text).toBe(before);
  });

  test("an updated imported recipe keeps its _id and own fields and gains _uid, _type, _public and stamps", async () => {
    const w = await openWorld({ alice: { recipes: [{ _id: "r-imported", name: "Old", og: 1.05, _share: "s1" }] } });
    expect((await w.call("PATCH", "/v2/recipes/r-imported", "alice", { body: { name: "New" } })).text).toBe("Updated");
    const doc = await w.read("r-imported");
    expect([doc._id, doc._uid, doc._type, doc._public, doc.name, doc.og, doc._share]).toEqual(["r-imported", "alice", "recipe", false, "New", 1.05, "s1"]);
    expect(doc._rev).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(typeof doc._timestamp_ms).toBe("number");
  });

  test("an imported recipe's own _public is kept by an update", async () => {
    const w = await openWorld({ alice: { recipes: [{ _id: "r-shared", name: "Shared", _public: true }] } });
    expect((await w.call("PATCH", "/v2/recipes/r-shared", "alice", { body: { notes: "n" } })).text).toBe("Updated");
    expect((await w.read("r-shared"))._public).toBe(true);
  });
});
