import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ListQuery, Store, StoredJson } from "../../src/store/types.ts";
import { openTestStore, STORE_KINDS, type OpenedStore, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// The Store contract (src/store/types.ts), the same assertions on SQLite and on PostgreSQL: what one
// store answers, the other must answer byte for byte.
const q = (over: Partial<ListQuery> = {}): ListQuery => ({ limit: 10, orderBy: "_id", desc: false, fields: "summary", ...over });
const ids = (page: string[] | "unknown-cursor") => (page === "unknown-cursor" ? page : page.map((t) => JSON.parse(t)._id));

for (const kind of STORE_KINDS) {
  describe(`${kind} store`, () => {
    let opened: OpenedStore;
    let store: Store;
    beforeAll(async () => {
      opened = await openTestStore(kind);
      store = opened.store;
    });
    afterAll(() => opened.close(), DROP_TIMEOUT_MS);

    test("a new database is empty and answers ping", async () => {
      expect(await store.isEmpty()).toBe(true);
      expect(await store.ping()).toBe(true);
      expect(store.kind).toBe(kind);
    });

    test("createUser creates once; getUser and setPassword find only existing users", async () => {
      expect(await store.createUser("ann", null)).toBe(true);
      expect(await store.createUser("ann", "other")).toBe(false);
      expect(await store.isEmpty()).toBe(false);
      expect(await store.userExists("ann")).toBe(true);
      expect(await store.userExists("bob")).toBe(false);
      expect(await store.setPassword("ann", "hash-1")).toBe(true);
      expect(await store.setPassword("bob", "hash-1")).toBe(false);
      const user = await store.getUser("ann");
      expect(user?.userId).toBe("ann");
      expect(user?.passwordHash).toBe("hash-1");
      expect(Math.abs(user!.createdAt - Date.now())).toBeLessThan(60_000);
      expect(await store.getUser("a\u0000nn")).toBeUndefined();
    });

    test("setApiKey replaces the account's one key", async () => {
      await store.setApiKey({ userId: "ann", digest: "d1", scopes: ["batches.read"], apiVersion: 2, createdAt: 1_700_000_000_000 });
      await store.setApiKey({ userId: "ann", digest: "d2", scopes: ["recipes.read", "batches.write"], apiVersion: 1, createdAt: 1_700_000_000_001 });
      expect(await store.getApiKey("ann")).toEqual({ userId: "ann", digest: "d2", scopes: ["recipes.read", "batches.write"], apiVersion: 1, createdAt: 1_700_000_000_001 });
      await store.setApiKey({ userId: "ann", digest: "d3", scopes: [], apiVersion: 2, createdAt: 5 });
      expect(await store.getApiKey("ann")).toEqual({ userId: "ann", digest: "d3", scopes: [], apiVersion: 2, createdAt: 5 });
      expect(await store.getApiKey("bob")).toBeUndefined();
    });

    test("secret is created once and then kept", async () => {
      expect(await store.secret("s", () => "first")).toBe("first");
      expect(await store.secret("s", () => "second")).toBe("first");
    });

    test("insert and get return the canonical text; a missing id is undefined", async () => {
      await store.insert("ann", "recipe", { _id: "r1", name: "Pale", b: 1, a: { z: 1, y: [2, "é"] } });
      expect(await store.get("ann", "recipe", "r1")).toBe('{"_id":"r1","a":{"y":[2,"é"],"z":1},"b":1,"name":"Pale"}');
      expect(await store.get("ann", "recipe", "r2")).toBeUndefined();
      expect(await store.get("ann", "batch", "r1")).toBeUndefined();
      expect(await store.get("bob", "recipe", "r1")).toBeUndefined();
      expect(await store.get("ann", "recipe", "r\u00001")).toBeUndefined();
    });

    test("importAll writes batches with sorted readings and trackers; re-import replaces them", async () => {
      await store.importAll("ann", {
        batches: [
          { doc: { _id: "b1", name: "One", status: "Planning", brewDate: 3 }, readings: [{ time: 20, sg: 1.01 }, { time: 10, sg: 1.05 }], brewTracker: { stage: 1 } },
          { doc: { _id: "b2", name: "Two", status: "Completed", brewDate: 1 }, readings: [] },
          { doc: { _id: "b3", status: "Planning" } },
        ],
        docs: [
          { kind: "hops", doc: { _id: "h1", name: "Saaz", inventory: 5 } },
          { kind: "hops", doc: { _id: "h2", name: "Magnum", inventory: -1.5 } },
          { kind: "hops", doc: { _id: "h3", name: "Cascade" } },
          { kind: "hops", doc: { _id: "h4", name: "Zero", inventory: 0 } },
        ],
      });
      expect(await store.readings("ann", "b1")).toBe('[{"sg":1.05,"time":10},{"sg":1.01,"time":20}]');
      expect(await store.lastReading("ann", "b1")).toBe('{"sg":1.01,"time":20}');
      expect(await store.brewTracker("ann", "b1")).toBe('{"stage":1}');
      expect(await store.readings("ann", "b2")).toBe("[]");
      expect(await store.lastReading("ann", "b2")).toBeUndefined();
      expect(await store.readings("ann", "b3")).toBeUndefined();
      expect(await store.brewTracker("ann", "b3")).toBeUndefined();
      await store.importAll("ann", { batches: [{ doc: { _id: "b1", name: "One again", status: "Planning", brewDate: 3 } }], docs: [] });
      expect(await store.readings("ann", "b1")).toBeUndefined();
      expect(await store.brewTracker("ann", "b1")).toBeUndefined();
      expect(JSON.parse((await store.get("ann", "batch", "b1"))!).name).toBe("One again");
    });

    test("list pages by _id both ways, with summary or body text, and v1 offsets", async () => {
      expect(ids(await store.list("ann", "batch", q()))).toEqual(["b1", "b2", "b3"]);
      expect(ids(await store.list("ann", "batch", q({ limit: 2, startAfter: "b1" })))).toEqual(["b2", "b3"]);
      expect(ids(await store.list("ann", "batch", q({ desc: true, startAfter: "b3" })))).toEqual(["b2", "b1"]);
      // With the default order the cursor needs no record: paging goes on after any text.
      expect(ids(await store.list("ann", "batch", q({ startAfter: "b10" })))).toEqual(["b2", "b3"]);
      expect(ids(await store.list("ann", "batch", q({ startAfter: "b1\u0000x" })))).toEqual(["b2", "b3"]);
      expect(ids(await store.list("ann", "batch", q({ desc: true, startAfter: "b2\u0000" })))).toEqual(["b2", "b1"]);
      expect(ids(await store.list("ann", "batch", q({ offset: 1, limit: 1 })))).toEqual(["b2"]);
      expect(await store.list("ann", "recipe", q())).toEqual(['{"_id":"r1","name":"Pale"}']);
      expect(await store.list("ann", "recipe", q({ fields: "body" }))).toEqual(['{"_id":"r1","a":{"y":[2,"é"],"z":1},"b":1,"name":"Pale"}']);
      expect(await store.list("bob", "batch", q())).toEqual([]);
    });

    test("a page, a document or readings asked for as bytes hold the same texts, as text or as their UTF-8", async () => {
      const decoder = new TextDecoder();
      const asText = (v: StoredJson | undefined) => (v === undefined || typeof v === "string" ? v : decoder.decode(v));
      const doc = await store.get("ann", "recipe", "r1", "bytes");
      expect(asText(doc)).toBe('{"_id":"r1","a":{"y":[2,"é"],"z":1},"b":1,"name":"Pale"}');
      expect(await store.get("ann", "recipe", "r2", "bytes")).toBeUndefined();
      const readings = await store.readings("ann", "b2", "bytes");
      expect(asText(readings)).toBe("[]");
      expect(await store.readings("ann", "b3", "bytes")).toBeUndefined();
      // SQLite hands stored text over undecoded; PostgreSQL may give text.
      if (kind === "sqlite") for (const v of [doc, readings]) expect(v).toBeInstanceOf(Uint8Array);
      for (const query of [q(), q({ fields: "body" }), q({ startAfter: "b1" }), q({ orderBy: "brewDate", desc: true })]) {
        for (const k of ["batch", "recipe"] as const) {
          const text = await store.list("ann", k, query);
          const bytes = await store.list("ann", k, query, "bytes");
          expect(text).not.toBe("unknown-cursor");
          if (kind === "sqlite") for (const row of bytes as unknown[]) expect(row).toBeInstanceOf(Uint8Array);
          expect(bytes === "unknown-cursor" ? bytes : bytes.map((r) => (typeof r === "string" ? r : decoder.decode(r)))).toEqual(text);
        }
      }
      expect(await store.list("ann", "batch", q({ orderBy: "brewDate", startAfter: "nope" }), "bytes")).toBe("unknown-cursor");
    });

    test("list filters by status and orders by an indexed field, missing values first, ties by _id", async () => {
      expect(ids(await store.list("ann", "batch", q({ status: "Planning" })))).toEqual(["b1", "b3"]);
      expect(ids(await store.list("ann", "batch", q({ orderBy: "brewDate" })))).toEqual(["b3", "b2", "b1"]);
      expect(ids(await store.list("ann", "batch", q({ orderBy: "brewDate", desc: true })))).toEqual(["b1", "b2", "b3"]);
      expect(ids(await store.list("ann", "batch", q({ orderBy: "brewDate", startAfter: "b2" })))).toEqual(["b1"]);
      expect(ids(await store.list("ann", "batch", q({ orderBy: "name", startAfter: "b3" })))).toEqual(["b1", "b2"]);
      expect(await store.list("ann", "batch", q({ orderBy: "brewDate", startAfter: "nope" }))).toBe("unknown-cursor");
      expect(await store.list("ann", "batch", q({ orderBy: "brewDate", startAfter: "b\u00001" }))).toBe("unknown-cursor");
    });

    test("stock filters and stock order: null stock sorts first, exists is above zero, negative below", async () => {
      expect(ids(await store.list("ann", "hops", q({ orderBy: "inventory" })))).toEqual(["h3", "h2", "h4", "h1"]);
      expect(ids(await store.list("ann", "hops", q({ orderBy: "inventory", desc: true, startAfter: "h4" })))).toEqual(["h2", "h3"]);
      expect(ids(await store.list("ann", "hops", q({ inventory: "exists" })))).toEqual(["h1"]);
      expect(ids(await store.list("ann", "hops", q({ inventory: "negative" })))).toEqual(["h2"]);
      expect(await store.list("ann", "hops", q())).toEqual([
        '{"_id":"h1","inventory":5,"name":"Saaz"}',
        '{"_id":"h2","inventory":-1.5,"name":"Magnum"}',
        '{"_id":"h3","name":"Cascade"}',
        '{"_id":"h4","inventory":0,"name":"Zero"}',
      ]);
    });

    test("update decides on the current document inside one transaction", async () => {
      expect(await store.update("ann", "hops", "h9", (cur) => ({ write: { name: "New", inventory: 1 }, result: cur === undefined }))).toBe(true);
      expect(await store.get("ann", "hops", "h9")).toBe('{"_id":"h9","inventory":1,"name":"New"}');
      expect(ids(await store.list("ann", "hops", q({ inventory: "exists" })))).toEqual(["h9", "h1"]); // stock order: 1 before 5
      expect(await store.update("ann", "hops", "h9", () => ({ result: "kept" }))).toBe("kept");
      // Awaiting the call sees the refusal, whether the store throws at once (SQLite) or rejects.
      await expect((async () => await store.update("ann", "hops", "h9", () => { throw new Error("refused"); }))()).rejects.toThrow("refused");
      expect(await store.get("ann", "hops", "h9")).toBe('{"_id":"h9","inventory":1,"name":"New"}');
      expect(await store.update("ann", "hops", "h\u00009", (cur) => ({ result: cur }))).toBeUndefined();
    });

    test("an update of an existing record keeps its status, stock, sort keys and summary in step with it", async () => {
      expect(await store.createUser("cy", null)).toBe(true);
      await store.insert("cy", "batch", { _id: "c1", name: "A", status: "Planning", brewDate: 5, notes: "x" });
      await store.insert("cy", "batch", { _id: "c2", name: "B", status: "Planning", brewDate: 7 });
      await store.insert("cy", "hops", { _id: "k1", name: "Saaz", inventory: 2 });
      const set = (kind: "batch" | "hops", id: string, change: Record<string, unknown>) =>
        store.update("cy", kind, id, (cur) => ({ write: { ...cur, ...change }, result: null }));
      // A field outside the default fields: the body changes, the summary stays.
      await set("batch", "c1", { notes: "y" });
      expect(await store.get("cy", "batch", "c1")).toBe('{"_id":"c1","brewDate":5,"name":"A","notes":"y","status":"Planning"}');
      expect(ids(await store.list("cy", "batch", q({ orderBy: "name" })))).toEqual(["c1", "c2"]);
      // Status, brew date and name change together: every filter, order and summary follows.
      await set("batch", "c1", { status: "Completed", brewDate: 9, name: "Z" });
      expect(ids(await store.list("cy", "batch", q({ status: "Planning" })))).toEqual(["c2"]);
      expect(ids(await store.list("cy", "batch", q({ status: "Completed" })))).toEqual(["c1"]);
      expect(ids(await store.list("cy", "batch", q({ orderBy: "brewDate" })))).toEqual(["c2", "c1"]);
      expect(ids(await store.list("cy", "batch", q({ orderBy: "name" })))).toEqual(["c2", "c1"]);
      expect(await store.list("cy", "batch", q())).toEqual([
        '{"_id":"c1","brewDate":9,"name":"Z","status":"Completed"}',
        '{"_id":"c2","brewDate":7,"name":"B","status":"Planning"}',
      ]);
      // Stock cleared: no longer in stock, and sorted first as a missing value.
      await set("hops", "k1", { inventory: undefined });
      expect(await store.get("cy", "hops", "k1")).toBe('{"_id":"k1","name":"Saaz"}');
      expect(ids(await store.list("cy", "hops", q({ inventory: "exists" })))).toEqual([]);
      await set("hops", "k1", { inventory: -1 });
      expect(ids(await store.list("cy", "hops", q({ inventory: "negative" })))).toEqual(["k1"]);
      expect(await store.list("cy", "hops", q())).toEqual(['{"_id":"k1","inventory":-1,"name":"Saaz"}']);
    });

    test("an update naming the members it changed stores canonical text, integer-like keys in the document or not", async () => {
      expect(await store.createUser("di", null)).toBe(true);
      // Parsed back, {"10":…,"9":…} lists "9" first: that part of the document must still be put in order.
      await store.insert("di", "batch", { _id: "d1", notes: { b: 1, a: [{ d: 1, c: 2 }] }, extra: { 9: "x", 10: "y", a: 1 } });
      await store.insert("di", "batch", { _id: "d2", notes: { b: 1, a: [{ d: 1, c: 2 }] } });
      const change = (id: string, changes: Record<string, unknown>) =>
        store.update("di", "batch", id, (cur) => ({ write: { ...cur, ...changes }, changed: Object.keys(changes), result: null }));
      await change("d1", { measuredOg: 1.05 });
      expect(await store.get("di", "batch", "d1")).toBe('{"_id":"d1","extra":{"10":"y","9":"x","a":1},"measuredOg":1.05,"notes":{"a":[{"c":2,"d":1}],"b":1}}');
      await change("d2", { measuredOg: 1.05 });
      await change("d2", { measuredOg: 1.06, recipe: { name: "R", 2: "two", 11: "eleven" } });
      expect(await store.get("di", "batch", "d2")).toBe('{"_id":"d2","measuredOg":1.06,"notes":{"a":[{"c":2,"d":1}],"b":1},"recipe":{"11":"eleven","2":"two","name":"R"}}');
      await change("d2", { recipe: { name: "S" } });
      expect(await store.get("di", "batch", "d2")).toBe('{"_id":"d2","measuredOg":1.06,"notes":{"a":[{"c":2,"d":1}],"b":1},"recipe":{"name":"S"}}');
    });

    test("setFields sets top-level members, keeping filters, orders and summaries in step; false for a missing document", async () => {
      expect(await store.createUser("ed", null)).toBe(true);
      await store.insert("ed", "batch", { _id: "e1", name: "A", status: "Planning", brewDate: 5, recipe: { name: "R", measuredOg: 1 }, extra: { 10: "y", 9: "x" } });
      await store.insert("ed", "batch", { _id: "e2", name: "B", status: "Planning", brewDate: 7 });
      await store.insert("ed", "hops", { _id: "k1", name: "Saaz", inventory: 2 });
      // A field outside the default fields, new and then replaced; a nested member of the same name stays.
      expect(await store.setFields("ed", "batch", "e1", { measuredOg: 1.05 })).toBe(true);
      expect(await store.setFields("ed", "batch", "e1", { measuredOg: 1.06, measuredFg: null })).toBe(true);
      expect(await store.get("ed", "batch", "e1")).toBe(
        '{"_id":"e1","brewDate":5,"extra":{"10":"y","9":"x"},"measuredFg":null,"measuredOg":1.06,"name":"A","recipe":{"measuredOg":1,"name":"R"},"status":"Planning"}',
      );
      // What was not set keeps its filters, orders and summary.
      expect(ids(await store.list("ed", "batch", q({ status: "Planning" })))).toEqual(["e1", "e2"]);
      expect(ids(await store.list("ed", "batch", q({ orderBy: "brewDate", desc: true })))).toEqual(["e2", "e1"]);
      expect((await store.list("ed", "batch", q()))[0]).toBe('{"_id":"e1","brewDate":5,"name":"A","recipe":{"name":"R"},"status":"Planning"}');
      expect(await store.setFields("ed", "hops", "k1", { origin: "CZ" })).toBe(true);
      expect(ids(await store.list("ed", "hops", q({ inventory: "exists" })))).toEqual(["k1"]);
      // Status, brew date and name: every filter, order and summary follows.
      expect(await store.setFields("ed", "batch", "e1", { status: "Completed", brewDate: 9, name: "Z" })).toBe(true);
      expect(ids(await store.list("ed", "batch", q({ status: "Planning" })))).toEqual(["e2"]);
      expect(ids(await store.list("ed", "batch", q({ status: "Completed" })))).toEqual(["e1"]);
      expect(ids(await store.list("ed", "batch", q({ orderBy: "brewDate" })))).toEqual(["e2", "e1"]);
      expect(ids(await store.list("ed", "batch", q({ orderBy: "name" })))).toEqual(["e2", "e1"]);
      expect((await store.list("ed", "batch", q()))[0]).toBe('{"_id":"e1","brewDate":9,"name":"Z","recipe":{"name":"R"},"status":"Completed"}');
      // A status that is no string, and a member the summary copies in part (recipe for recipe.name).
      expect(await store.setFields("ed", "batch", "e2", { status: null, recipe: { name: "S" } })).toBe(true);
      expect(ids(await store.list("ed", "batch", q({ status: "Planning" })))).toEqual([]);
      expect((await store.list("ed", "batch", q()))[1]).toBe('{"_id":"e2","brewDate":7,"name":"B","recipe":{"name":"S"},"status":null}');
      // Stock: cleared to null it sorts first as a missing value, and is no longer in stock.
      expect(await store.setFields("ed", "hops", "k1", { inventory: null })).toBe(true);
      expect(ids(await store.list("ed", "hops", q({ inventory: "exists" })))).toEqual([]);
      expect(await store.setFields("ed", "hops", "k1", { inventory: -1 })).toBe(true);
      expect(ids(await store.list("ed", "hops", q({ inventory: "negative" })))).toEqual(["k1"]);
      expect(await store.list("ed", "hops", q())).toEqual(['{"_id":"k1","inventory":-1,"name":"Saaz"}']);
      expect(await store.setFields("ed", "batch", "nope", { status: "Planning" })).toBe(false);
      expect(await store.get("ed", "batch", "nope")).toBeUndefined();
    });

    test("setFields computed from the stored stock: read inside the write; a throw writes nothing", async () => {
      expect(await store.createUser("fa", null)).toBe(true);
      await store.insert("fa", "hops", { _id: "s1", name: "Saaz", inventory: 2.5, origin: "CZ" });
      await store.insert("fa", "hops", { _id: "s2", name: "Hallertau", inventory: "lots" });
      await store.insert("fa", "batch", { _id: "b1", name: "Ale", inventory: 7 });
      const seen: Array<number | null> = [];
      const add = (n: number) => (stored: { inventory: number | null }) => {
        seen.push(stored.inventory);
        return { inventory: (stored.inventory ?? 0) + n, _timestamp: { _seconds: 9, _nanoseconds: 1 } };
      };
      expect(await store.setFields("fa", "hops", "s1", add(1))).toBe(true);
      expect(await store.setFields("fa", "hops", "s1", add(-4))).toBe(true);
      // A stock that is no number, and a batch (which keeps no stock), read as null.
      expect(await store.setFields("fa", "hops", "s2", add(1))).toBe(true);
      expect(await store.setFields("fa", "batch", "b1", (s) => ({ notes: String(s.inventory) }))).toBe(true);
      expect(seen).toEqual([2.5, 3.5, null]);
      expect(await store.get("fa", "hops", "s1")).toBe('{"_id":"s1","_timestamp":{"_nanoseconds":1,"_seconds":9},"inventory":-0.5,"name":"Saaz","origin":"CZ"}');
      expect(await store.get("fa", "hops", "s2")).toBe('{"_id":"s2","_timestamp":{"_nanoseconds":1,"_seconds":9},"inventory":1,"name":"Hallertau"}');
      expect(JSON.parse((await store.get("fa", "batch", "b1"))!).notes).toBe("null");
      // Lists follow the computed stock: filter, order and summary.
      expect(ids(await store.list("fa", "hops", q({ inventory: "negative" })))).toEqual(["s1"]);
      expect(await store.list("fa", "hops", q({ orderBy: "inventory" }))).toEqual([
        '{"_id":"s1","inventory":-0.5,"name":"Saaz"}',
        '{"_id":"s2","inventory":1,"name":"Hallertau"}',
      ]);
      // What the function throws undoes the whole write; a missing document never calls it.
      const refuse = () => {
        throw new Error("refused");
      };
      // SQLite answers at once (it throws), PostgreSQL later (it rejects).
      await expect(Promise.resolve().then(() => store.setFields("fa", "hops", "s1", refuse))).rejects.toThrow("refused");
      expect(await store.get("fa", "hops", "s1")).toBe('{"_id":"s1","_timestamp":{"_nanoseconds":1,"_seconds":9},"inventory":-0.5,"name":"Saaz","origin":"CZ"}');
      expect(await store.setFields("fa", "hops", "nope", refuse)).toBe(false);
    });

    test("setFields with a stamp time sets the update's stamp after the fields, on either way of writing", async () => {
      expect(await store.createUser("st", null)).toBe(true);
      await store.insert("st", "hops", { _id: "p1", name: "Saaz", inventory: 1, _rev: "old", updatedAt: "then" });
      // An integer-like key takes the parsing way (records.ts setFields); the stamp must come out the same.
      await store.insert("st", "hops", { _id: "p2", name: "Saaz", inventory: 1, _rev: "old", updatedAt: "then" });
      const at = Date.UTC(2026, 10, 25, 12, 0, 0, 345);
      expect(await store.setFields("st", "hops", "p1", { inventory: 3, updatedAt: "sent" }, at)).toBe(true);
      expect(await store.setFields("st", "hops", "p2", { inventory: 3, 7: "x" }, at)).toBe(true);
      for (const id of ["p1", "p2"]) {
        const text = (await store.get("st", "hops", id))!;
        const { _rev, ...rest } = JSON.parse(text);
        expect(_rev).toMatch(/^[A-Za-z0-9]{20}$/);
        expect(rest).toEqual({
          _id: id, ...(id === "p2" ? { 7: "x" } : {}), _timestamp: { _nanoseconds: 345_000_000, _seconds: at / 1000 - 0.345 }, _timestamp_ms: at,
          inventory: 3, name: "Saaz", updatedAt: "2026-11-25T12:00:00.345Z",
        });
        // Stored canonical: keys in order at every level (integer-like keys aside, which JavaScript lists first).
        expect(text.indexOf('"_rev"')).toBeLessThan(text.indexOf('"_timestamp"'));
        expect(text).toContain('"_timestamp":{"_nanoseconds":345000000,"_seconds":1795608000},"_timestamp_ms":1795608000345,"inventory":3');
      }
      expect(await store.list("st", "hops", q())).toEqual(['{"_id":"p1","inventory":3,"name":"Saaz"}', '{"_id":"p2","inventory":3,"name":"Saaz"}']);
      expect(await store.setFields("st", "hops", "nope", { inventory: 1 }, at)).toBe(false);
    });

    test("40 concurrent read-modify-writes of one document lose none", async () => {
      const bump = () => store.update("ann", "hops", "h9", (cur) => ({ write: { ...cur, inventory: Number(cur?.inventory) + 1 }, result: null }));
      await Promise.all(Array.from({ length: 40 }, bump));
      expect(JSON.parse((await store.get("ann", "hops", "h9"))!).inventory).toBe(41);
      // A document that does not exist yet is created once, the later writers seeing it.
      const create = () => store.update("ann", "fermentables", "f1", (cur) => ({ write: { n: cur ? Number(cur.n) + 1 : 1 }, result: null }));
      await Promise.all(Array.from({ length: 20 }, create));
      expect(await store.get("ann", "fermentables", "f1")).toBe('{"_id":"f1","n":20}');
    });

    test("remove deletes a batch with its readings and tracker; false when there was none", async () => {
      await store.importAll("ann", { batches: [{ doc: { _id: "b9" }, readings: [{ time: 1 }], brewTracker: { t: 1 } }], docs: [] });
      expect(await store.remove("ann", "batch", "b9")).toBe(true);
      expect(await store.readings("ann", "b9")).toBeUndefined();
      expect(await store.brewTracker("ann", "b9")).toBeUndefined();
      expect(await store.remove("ann", "batch", "b9")).toBe(false);
      expect(await store.remove("ann", "batch", "b\u00009")).toBe(false);
      expect(await store.remove("ann", "fermentables", "f1")).toBe(true);
    });

    test("exportAll gives every document by kind and _id, in the form importAll takes", async () => {
      await store.importAll("ann", { batches: [{ doc: { _id: "b2", name: "Two", status: "Completed", brewDate: 1 }, readings: [{ time: 1 }], brewTracker: { s: 2 } }], docs: [] });
      const set = await store.exportAll("ann");
      expect(set.batches.map((b) => b.doc._id)).toEqual(["b1", "b2", "b3"]);
      expect(set.batches[1]).toEqual({ doc: { _id: "b2", name: "Two", status: "Completed", brewDate: 1 }, readings: [{ time: 1 }], brewTracker: { s: 2 } });
      expect(set.docs.map((d) => `${d.kind}/${d.doc._id}`)).toEqual(["hops/h1", "hops/h2", "hops/h3", "hops/h4", "hops/h9", "recipe/r1"]);
      await store.createUser("copy", null);
      await store.importAll("copy", set);
      expect(await store.exportAll("copy")).toEqual(set);
    });

    test("rate counts: saving keeps the larger count and drops past windows", async () => {
      await store.saveRateCounts(3_600_000, [{ userId: "ann", apiVersion: 2, count: 7 }]);
      await store.saveRateCounts(3_600_000, [{ userId: "ann", apiVersion: 2, count: 5 }, { userId: "ann", apiVersion: 1, count: 2 }]);
      const byKey = (rows: Array<{ userId: string; apiVersion: number; count: number }>) => rows.map((r) => `${r.apiVersion}:${r.userId}=${r.count}`).sort();
      expect(byKey(await store.loadRateCounts(3_600_000))).toEqual(["1:ann=2", "2:ann=7"]);
      await store.saveRateCounts(7_200_000, [{ userId: "ann", apiVersion: 2, count: 1 }]);
      expect(await store.loadRateCounts(3_600_000)).toEqual([]);
      expect(byKey(await store.loadRateCounts(7_200_000))).toEqual(["2:ann=1"]);
    });
  });
}
