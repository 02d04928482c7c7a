// GET one, POST and DELETE of /v2/inventory/{collection} (API document: Endpoints › Inventory, the
// table and "Inventory create rules"; Inventory metadata fields; Authentication rule 5; Errors).
import { describe, expect, test } from "bun:test";
import { canonical, COLLECTIONS, FIELD, ITEMS, listEntry, withoutStamps, type Doc } from "./fixtures.ts";
import { inventoryWorld, runTable, text, type Scenario, type World } from "./harness.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NEW_ID = /^[A-Za-z0-9]{20}$/;

/** The item reads back exactly as loaded: the request changed nothing. */
const untouched = (c: string, doc: Doc) => async (w: World) => {
  expect(await w.readText("alice", c, String(doc._id))).toBe(text(doc));
};

for (const c of COLLECTIONS) {
  const item = ITEMS[c];
  const id = String(item._id);
  const one = `/v2/inventory/${c}/${id}`;

  describe(`${c}: read one`, () => {
    runTable([
      { name: "GET one without include is the whole document, keys sorted", method: "GET", url: one, as: "alice", status: 200, json: canonical(item) },
      { name: "include=notes gives the default fields plus notes", method: "GET", url: `${one}?include=notes`, as: "alice", status: 200, json: listEntry(item, ["notes"]) },
      { name: "an empty include= is the whole document", method: "GET", url: `${one}?include=`, as: "alice", status: 200, json: canonical(item) },
      { name: "include of a field the item lacks omits it", method: "GET", url: `${one}?include=nothingHere`, as: "alice", status: 200, json: listEntry(item) },
      { name: "an unknown id is 404 Not Found", method: "GET", url: `/v2/inventory/${c}/nope`, as: "alice", status: 404, text: "Not Found" },
      { name: "another account's item is 404 Not Found", method: "GET", url: one, as: "bob", status: 404, text: "Not Found" },
      { name: "a key without inventory.read is 403 Forbidden", method: "GET", url: one, as: "brewer", status: 403, text: "Forbidden" },
      { name: "no credentials is 401 Unauthorized", method: "GET", url: one, as: null, status: 401, text: "Unauthorized" },
    ]);
  });

  describe(`${c}: create`, () => {
    test("POST answers 201 {\"id\"} and the item reads back with service-set metadata", async () => {
      const w = await inventoryWorld({ empty: true });
      const { _id, _rev, _created, _timestamp, _timestamp_ms, createdAt, updatedAt, ...fields } = item;
      const before = Date.now();
      const res = await w.call("POST", `/v2/inventory/${c}`, "alice", { body: fields });
      const after = Date.now();
      expect(res.status).toBe(201);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const { id: newId, ...rest } = res.json();
      expect(rest).toEqual({});
      expect(newId).toMatch(NEW_ID);
      const stored = (await w.read("alice", c, newId))!;
      expect(withoutStamps(stored)).toEqual({ ...fields, _id: newId, _created: stored._created, createdAt: stored.createdAt });
      // Inventory metadata fields: set by the service, in the shapes real items carry.
      const ms = stored._timestamp_ms as number;
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
      expect(stored.createdAt).toBe(new Date(ms).toISOString());
      expect(stored.updatedAt).toBe(stored.createdAt);
      expect(stored._created).toEqual({ _nanoseconds: (ms % 1000) * 1e6, _seconds: Math.floor(ms / 1000) });
      expect(stored._timestamp).toEqual(stored._created);
      expect(stored._rev).toMatch(NEW_ID);
    });

    test("root fields starting with _ and createdAt are ignored; updatedAt and revision are the service's", async () => {
      const w = await inventoryWorld({ empty: true });
      const res = await w.call("POST", `/v2/inventory/${c}`, "alice", {
        body: { name: "Sent", _id: "chosen-id", _rev: "mine", _secret: 1, createdAt: "2001-01-01T00:00:00.000Z", updatedAt: "2001-01-01T00:00:00.000Z", _timestamp_ms: 5 },
      });
      expect(res.status).toBe(201);
      const newId = res.json().id;
      expect(newId).not.toBe("chosen-id");
      expect(await w.read("alice", c, "chosen-id")).toBeUndefined();
      const stored = (await w.read("alice", c, newId))!;
      expect(stored.name).toBe("Sent");
      expect("_secret" in stored).toBe(false);
      expect(stored._rev).not.toBe("mine");
      expect(stored._timestamp_ms).not.toBe(5);
      expect(stored.createdAt).not.toBe("2001-01-01T00:00:00.000Z");
      expect(stored.createdAt).toMatch(ISO);
      expect(stored.updatedAt).toBe(stored.createdAt);
    });

    test("inventory_adjust in a POST body is never stored", async () => {
      const w = await inventoryWorld({ empty: true });
      const res = await w.call("POST", `/v2/inventory/${c}`, "alice", { body: { name: "Adjusted", inventory: 2, inventory_adjust: 5 } });
      const stored = (await w.read("alice", c, res.json().id))!;
      expect([stored.inventory, "inventory_adjust" in stored]).toEqual([2, false]);
    });

    test("two POSTs of the same body create two items with different ids", async () => {
      const w = await inventoryWorld({ empty: true });
      const a = (await w.call("POST", `/v2/inventory/${c}`, "alice", { body: { name: "Twin" } })).json().id;
      const b = (await w.call("POST", `/v2/inventory/${c}`, "alice", { body: { name: "Twin" } })).json().id;
      expect(a).not.toBe(b);
      const page = (await w.call("GET", `/v2/inventory/${c}`, "alice")).json() as Doc[];
      expect(page.map((d) => d._id).sort()).toEqual([a, b].sort());
    });

    const post = (name: string, s: Partial<Scenario>): Scenario => ({
      name,
      method: "POST",
      url: `/v2/inventory/${c}`,
      as: "alice",
      status: 400,
      after: async (w) => expect((await w.call("GET", `/v2/inventory/${c}?limit=50`, "alice")).json()).toHaveLength(11),
      ...s,
    });
    const { field, bad, issue } = FIELD[c];
    runTable([
      post("no body is 400 Missing body", { text: "Missing body" }),
      post("a blank body is 400 Missing body", { raw: "  \n", text: "Missing body" }),
      post("{} is 400 with the array of issues: name is required", { body: {}, json: [{ path: "name", rule: "required", message: "name is required" }] }),
      post("an empty name is 400 with the array of issues", { body: { name: "" }, json: [{ path: "name", rule: "minLength", message: "name must not be empty" }] }),
      post(`${field} ${JSON.stringify(bad)} is 400 naming ${field}`, { body: { name: "x", [field]: bad }, json: [issue] }),
      post("every broken rule is listed, in path order", {
        body: { [field]: bad, name: 7 },
        json: [issue, { path: "name", rule: "type", message: "name must be string" }].sort((a, b) => (String(a.path) < String(b.path) ? -1 : 1)),
      }),
      post("inventory as a numeric string is a type issue on create (schema: number or null)", {
        body: { name: "x", inventory: "5" },
        json: [{ path: "inventory", rule: "type", message: "inventory must be number or null" }],
      }),
      post("a JSON array body is 400 Body must be a JSON object", { body: [{ name: "x" }], text: "Body must be a JSON object" }),
      post("malformed JSON is 400 Invalid JSON", { raw: '{"name": ', headers: { "content-type": "application/json" }, text: "Invalid JSON" }),
      post("a read-only key is 403 Forbidden", { as: "reader", body: { name: "x" }, status: 403, text: "Forbidden" }),
      post("a delete-only key is 403 Forbidden", { as: "deleter", body: { name: "x" }, status: 403, text: "Forbidden" }),
      post("no credentials is 401 Unauthorized", { as: null, body: { name: "x" }, status: 401, text: "Unauthorized" }),
    ]);
  });

  describe(`${c}: delete`, () => {
    const gone = async (w: World) => {
      expect(await w.read("alice", c, id)).toBeUndefined();
      const page = (await w.call("GET", `/v2/inventory/${c}?limit=50`, "alice")).json() as Doc[];
      expect(page.map((d) => d._id)).not.toContain(id);
    };
    runTable([
      { name: "DELETE is 200 Deleted and the item is gone from read and list", method: "DELETE", url: one, as: "alice", status: 200, text: "Deleted", after: gone },
      { name: "inventory.write does not allow deleting: 403 Forbidden, item kept", method: "DELETE", url: one, as: "writer", status: 403, text: "Forbidden", after: untouched(c, item) },
      { name: "a read-only key is 403 Forbidden", method: "DELETE", url: one, as: "reader", status: 403, text: "Forbidden", after: untouched(c, item) },
      { name: "an unknown id is 404 Not Found", method: "DELETE", url: `/v2/inventory/${c}/nope`, as: "alice", status: 404, text: "Not Found" },
      { name: "another account cannot delete alice's item: 404, item kept", method: "DELETE", url: one, as: "bob", status: 404, text: "Not Found", after: untouched(c, item) },
      { name: "no credentials is 401 Unauthorized", method: "DELETE", url: one, as: null, status: 401, text: "Unauthorized", after: untouched(c, item) },
    ]);

    test("inventory.delete without inventory.write is enough to delete", async () => {
      const w = await inventoryWorld();
      await w.load("deleter", { [c]: [item] });
      const res = await w.call("DELETE", one, "deleter");
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Deleted" });
      expect(await w.read("deleter", c, id)).toBeUndefined();
      expect(await w.readText("alice", c, id)).toBe(text(item));
    });

    test("a second DELETE of the same id is 404 Not Found", async () => {
      const w = await inventoryWorld();
      expect((await w.call("DELETE", one, "alice")).text).toBe("Deleted");
      const again = await w.call("DELETE", one, "alice");
      expect({ status: again.status, text: again.text }).toEqual({ status: 404, text: "Not Found" });
    });
  });
}
