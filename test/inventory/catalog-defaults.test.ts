// The default catalog behind the inventory endpoints (API document, Endpoints › Inventory: "The
// inventory list is limited to items the user added manually, edited from defaults, or gave an
// inventory amount"). A default is readable by every account; the first edit or stock change makes
// the user's own copy under the same `_id`; deleting that copy brings the default back.
import { describe, expect, test } from "bun:test";
import { catalogItems } from "../../src/catalog/index.ts";
import { canonical, COLLECTIONS, listEntry, PREFIX, withoutStamps, type Doc } from "./fixtures.ts";
import { inventoryWorld, type World } from "./harness.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function listed(w: World, as: string, c: string, query = "?limit=50"): Promise<Doc[]> {
  const res = await w.call("GET", `/v2/inventory/${c}${query}`, as);
  expect(res.status).toBe(200);
  return res.json();
}

async function answer(w: World, method: string, url: string, as: string, body?: unknown) {
  const res = await w.call(method, url, as, body === undefined ? {} : { body });
  return { status: res.status, text: res.text };
}

for (const c of COLLECTIONS) {
  const defaults = catalogItems(c);
  // A default without a stock of its own and one from the other end of the table.
  const first = defaults[0] as Doc;
  const last = defaults[defaults.length - 1] as Doc;
  const url = (d: Doc) => `/v2/inventory/${c}/${String(d._id)}`;

  describe(`${c}: defaults`, () => {
    test("every account reads a default by its _id: the whole item, keys sorted", async () => {
      const w = await inventoryWorld({ empty: true });
      for (const as of ["alice", "bob", "reader"]) {
        for (const d of [first, last]) {
          const res = await w.call("GET", url(d), as);
          expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: JSON.stringify(canonical(d)) });
        }
      }
    });

    test("include on a default gives its default fields plus the included ones", async () => {
      const w = await inventoryWorld({ empty: true });
      const res = await w.call("GET", `${url(first)}?include=notes,hidden`, "alice");
      expect(res.json()).toEqual(listEntry(first, ["notes", "hidden"]));
    });

    test("defaults never appear in a list, with or without filters", async () => {
      const w = await inventoryWorld({ empty: true });
      for (const q of ["", "?limit=50", "?complete=True", "?inventory_exists=False", `?start_after=${String(first._id)}`]) {
        expect(await listed(w, "alice", c, q)).toEqual([]);
      }
    });

    test("a key without inventory.read cannot read a default: 403 Forbidden", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "GET", url(first), "brewer")).toEqual({ status: 403, text: "Forbidden" });
    });

    test("an id of the default pattern that no default has is 404 Not Found", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "GET", `/v2/inventory/${c}/default-00000000000`, "alice")).toEqual({ status: 404, text: "Not Found" });
      expect(await answer(w, "PATCH", `/v2/inventory/${c}/default-00000000000`, "alice", { inventory: 1 })).toEqual({ status: 404, text: "Not Found" });
    });

    test("a default of another collection is not found under this one", async () => {
      const w = await inventoryWorld({ empty: true });
      const other = COLLECTIONS.find((o) => o !== c)!;
      const foreign = catalogItems(other)[0] as Doc;
      expect(await answer(w, "GET", `/v2/inventory/${c}/${String(foreign._id)}`, "alice")).toEqual({ status: 404, text: "Not Found" });
    });

    test("PATCH {} of a default is Nothing to update and makes no copy", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "PATCH", url(first), "alice", {})).toEqual({ status: 200, text: "Nothing to update" });
      expect(await listed(w, "alice", c)).toEqual([]);
      expect((await w.readText("alice", c, String(first._id)))).toBe(JSON.stringify(canonical(first)));
    });

    test("a refused PATCH of a default makes no copy", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "PATCH", url(first), "alice", { inventory_adjust: "lots" })).toEqual({ status: 400, text: "Invalid inventory_adjust" });
      expect((await answer(w, "PATCH", url(first), "alice", { name: "" })).status).toBe(400);
      expect(await listed(w, "alice", c)).toEqual([]);
    });

    test("giving a default stock makes the user's copy under the same _id: listed, read back, stamped", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "PATCH", url(first), "alice", { inventory_adjust: 3 })).toEqual({ status: 200, text: "Updated" });
      const copy = (await w.read("alice", c, String(first._id)))!;
      expect(withoutStamps(copy)).toEqual({ ...first, inventory: 3, _created: copy._created, createdAt: copy.createdAt });
      expect(copy.createdAt).toMatch(ISO);
      expect(copy.updatedAt).toBe(copy.createdAt);
      expect(await listed(w, "alice", c)).toEqual([listEntry({ ...first, inventory: 3 })]);
      expect(await listed(w, "alice", c, "?inventory_exists=True")).toEqual([listEntry({ ...first, inventory: 3 })]);
      // From then on the copy is what alice sees: a second adjustment adds to it.
      await answer(w, "PATCH", url(first), "alice", { inventory_adjust: 1.5 });
      expect(await w.stock("alice", c, String(first._id))).toBe(4.5);
    });

    test("editing a default (partial mode) makes the copy with only the sent field changed", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "PATCH", url(last), "alice", { name: "House favourite" })).toEqual({ status: 200, text: "Updated" });
      const copy = (await w.read("alice", c, String(last._id)))!;
      expect(withoutStamps(copy)).toEqual({ ...last, name: "House favourite", _created: copy._created, createdAt: copy.createdAt });
      expect(await listed(w, "alice", c)).toEqual([listEntry({ ...last, name: "House favourite" })]);
    });

    test("a default given negative stock is listed by inventory_negative=True", async () => {
      const w = await inventoryWorld({ empty: true });
      await answer(w, "PATCH", url(first), "alice", { inventory: -2 });
      expect(await listed(w, "alice", c, "?inventory_negative=True")).toEqual([listEntry({ ...first, inventory: -2 })]);
      expect(await listed(w, "alice", c, "?inventory_exists=True")).toEqual([]);
    });

    test("another account still sees the default, and lists nothing", async () => {
      const w = await inventoryWorld({ empty: true });
      await answer(w, "PATCH", url(first), "alice", { name: "Mine now", inventory: 9 });
      expect(await w.readText("bob", c, String(first._id))).toBe(JSON.stringify(canonical(first)));
      expect(await listed(w, "bob", c)).toEqual([]);
      // Bob's own stock change copies the default, not alice's copy.
      await answer(w, "PATCH", url(first), "bob", { inventory_adjust: 1 });
      expect(await w.stock("bob", c, String(first._id))).toBe(1);
      expect((await w.read("bob", c, String(first._id)))!.name).toBe(first.name);
      expect(await w.stock("alice", c, String(first._id))).toBe(9);
    });

    test("deleting the user's copy brings the default back, unlisted", async () => {
      const w = await inventoryWorld({ empty: true });
      await answer(w, "PATCH", url(first), "alice", { inventory: 5, notes: "Opened" });
      expect(await answer(w, "DELETE", url(first), "alice")).toEqual({ status: 200, text: "Deleted" });
      expect(await w.readText("alice", c, String(first._id))).toBe(JSON.stringify(canonical(first)));
      expect(await listed(w, "alice", c)).toEqual([]);
    });

    test("a default without a copy cannot be deleted: 404 Not Found, still readable", async () => {
      const w = await inventoryWorld({ empty: true });
      expect(await answer(w, "DELETE", url(first), "alice")).toEqual({ status: 404, text: "Not Found" });
      expect(await w.readText("alice", c, String(first._id))).toBe(JSON.stringify(canonical(first)));
    });

    test("the copy pages and sorts among the user's own items by stock", async () => {
      const w = await inventoryWorld();
      await answer(w, "PATCH", url(first), "alice", { inventory: 12.5 }); // ties with the ladder's 12.5
      const ids = (await listed(w, "alice", c, "?inventory_exists=True")).map((d) => String(d._id));
      const tie = [String(first._id), `${PREFIX[c]}-f`].sort();
      const at = ids.indexOf(tie[0]!);
      expect(ids.slice(at, at + 2)).toEqual(tie);
    });
  });
}
