// Inventory PATCH beyond the modes: rounding of amounts, PATCH by query parameters, precedence of
// 401/403/404/400, and atomic adjustments (API document: Endpoints › Inventory; Errors;
// docs/decisions.md: HTTP precedence, PATCH with no body).
import { describe, expect, test } from "bun:test";
import { COLLECTIONS, ITEMS, PREFIX } from "./fixtures.ts";
import { inventoryWorld, runTable, type World } from "./harness.ts";
import { patchOf, stored, unchanged } from "./patch-checks.ts";

const adjust = (w: World, url: string, by: unknown) => w.call("PATCH", url, "alice", { body: { inventory_adjust: by } });

describe("rounding: amounts keep 6 decimals, so repeated decimal steps do not drift", () => {
  for (const c of COLLECTIONS) {
    const url = `/v2/inventory/${c}/${PREFIX[c]}-b`; // stock 0

    test(`${c}: +0.1 ten times from 0 is exactly 1`, async () => {
      const w = await inventoryWorld();
      for (let i = 0; i < 10; i++) expect((await adjust(w, url, 0.1)).text).toBe("Updated");
      expect(await w.stock("alice", c, `${PREFIX[c]}-b`)).toBe(1);
    });

    test(`${c}: -0.1 ten times from 1 is exactly 0, never -0 or a residue`, async () => {
      const w = await inventoryWorld();
      await w.call("PATCH", url, "alice", { body: { inventory: 1 } });
      for (let i = 0; i < 10; i++) await adjust(w, url, "-0.1");
      expect((await w.readText("alice", c, `${PREFIX[c]}-b`)).includes('"inventory":0,')).toBe(true);
    });
  }

  const hops = `/v2/inventory/hops/${PREFIX.hops}-b`;
  const cases: Array<[string, unknown, number]> = [
    ["0.1 + 0.2 set as one number is 0.3", 0.1 + 0.2, 0.3],
    ["1.0000004 rounds down to 1", 1.0000004, 1],
    ["1.0000006 rounds up to 1.000001", 1.0000006, 1.000001],
    ["-2.0000006 rounds to -2.000001", -2.0000006, -2.000001],
    ["a millionth is kept", 0.000001, 0.000001],
    ["below half a millionth is 0", 0.0000004, 0],
    ["1e305 is kept whole (no overflow while rounding)", "1e305", 1e305],
    ["the largest double is kept", Number.MAX_VALUE, Number.MAX_VALUE],
    ["1e-300 rounds to 0", "1e-300", 0],
  ];
  for (const [name, value, expected] of cases) {
    test(`inventory ${name}`, async () => {
      const w = await inventoryWorld();
      expect((await w.call("PATCH", hops, "alice", { body: { inventory: value } })).text).toBe("Updated");
      expect(await w.stock("alice", "hops", `${PREFIX.hops}-b`)).toBe(expected);
    });
  }

  test("an adjustment of an item with a null or missing stock starts from 0", async () => {
    const w = await inventoryWorld();
    for (const suffix of ["g", "e"]) {
      expect((await adjust(w, `/v2/inventory/hops/${PREFIX.hops}-${suffix}`, 2.5)).text).toBe("Updated");
      expect(await w.stock("alice", "hops", `${PREFIX.hops}-${suffix}`)).toBe(2.5);
    }
  });

  test("an adjustment past the largest double is 400 Invalid inventory_adjust and changes nothing", async () => {
    const w = await inventoryWorld();
    await w.call("PATCH", hops, "alice", { body: { inventory: Number.MAX_VALUE } });
    const before = await w.readText("alice", "hops", `${PREFIX.hops}-b`);
    const res = await adjust(w, hops, "1e308");
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Invalid inventory_adjust" });
    expect(await w.readText("alice", "hops", `${PREFIX.hops}-b`)).toBe(before);
  });

  test("a stock created by POST is rounded the same way", async () => {
    const w = await inventoryWorld({ empty: true });
    const id = (await w.call("POST", "/v2/inventory/yeasts", "alice", { body: { name: "Kveik", inventory: 0.1 + 0.7 } })).json().id;
    expect(await w.stock("alice", "yeasts", id)).toBe(0.8);
  });
});

describe("PATCH by query parameters, no body (as clients of the hosted service send it)", () => {
  const c = "hops";
  const url = `/v2/inventory/${c}/${ITEMS.hops._id}`;
  const stock = ITEMS.hops.inventory as number;
  const q = (name: string, query: string, status: number, body: string, after: ReturnType<typeof unchanged>, json?: unknown) => ({
    name, method: "PATCH", url: `${url}?${query}`, as: "alice", status, text: body, after, ...(json === undefined ? {} : { body: json }),
  });
  runTable([
    q("?inventory_adjust=1 adds 1", "inventory_adjust=1", 200, "Updated", stored(c, { inventory: stock + 1 })),
    q("?inventory_adjust=-0.5 subtracts", "inventory_adjust=-0.5", 200, "Updated", stored(c, { inventory: stock - 0.5 })),
    q("?inventory=4 sets 4", "inventory=4", 200, "Updated", stored(c, { inventory: 4 })),
    q("?inventory=4&inventory_adjust=9: inventory wins", "inventory=4&inventory_adjust=9", 200, "Updated", stored(c, { inventory: 4 })),
    q("?inventory_adjust=abc is 400 Invalid inventory_adjust", "inventory_adjust=abc", 400, "Invalid inventory_adjust", unchanged(c)),
    q("?inventory=12abc is 400 Invalid inventory", "inventory=12abc", 400, "Invalid inventory", unchanged(c)),
    q("?inventory= (empty) is 400 Invalid inventory", "inventory=", 400, "Invalid inventory", unchanged(c)),
    q("?name=Galaxy is a partial update of the name", "name=Galaxy", 200, "Updated", stored(c, { name: "Galaxy" })),
    q("a JSON body wins over the query parameters", "inventory_adjust=1", 200, "Updated", stored(c, { inventory: 5 }), { inventory: 5 }),
  ]);

  test("no body and no query parameters is 200 Nothing to update", async () => {
    const w = await inventoryWorld();
    const res = await w.call("PATCH", url, "alice");
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Nothing to update" });
    await unchanged(c)(w);
  });
});

describe("precedence: 401, then 403, then 404, then 400", () => {
  for (const c of COLLECTIONS) {
    const patch = patchOf(c);
    const missing = (name: string, body: unknown) => ({ ...patch(name, body, 404, "Not Found", undefined), url: `/v2/inventory/${c}/nope` });
    runTable([
      missing("an unknown id is 404 Not Found", { inventory: 1 }),
      missing("an unknown id with an invalid inventory is 404, not 400", { inventory: "abc" }),
      missing("an unknown id with an invalid inventory_adjust is 404, not 400", { inventory_adjust: "abc" }),
      missing("an unknown id with an invalid field is 404, not 400", { name: "" }),
      missing("an unknown id with {} is 404, not Nothing to update", {}),
      { ...missing("an unknown id with malformed JSON is 404, not 400 Invalid JSON", undefined), raw: '{"inventory":', headers: { "content-type": "application/json" } },
      { ...missing("an unknown id with a JSON array body is 404, not 400", undefined), raw: "[1]", headers: { "content-type": "application/json" } },
      { ...patch("malformed JSON on an existing item is 400 Invalid JSON", undefined, 400, "Invalid JSON", unchanged(c)), raw: '{"inventory":', headers: { "content-type": "application/json" } },
      { ...patch("another account's item is 404 and stays as it was", { inventory: 1 }, 404, "Not Found", unchanged(c)), as: "bob" },
      { ...patch("a read-only key is 403 Forbidden, even with an invalid body", { inventory: "abc" }, 403, "Forbidden", unchanged(c)), as: "reader" },
      { ...patch("a delete-only key is 403 Forbidden", { inventory: 1 }, 403, "Forbidden", unchanged(c)), as: "deleter" },
      { ...patch("no credentials is 401 Unauthorized", { inventory: 1 }, 401, "Unauthorized", unchanged(c)), as: null },
      { ...patch("an empty id is 400 Missing ID", { inventory: 1 }, 400, "Missing ID", unchanged(c)), url: `/v2/inventory/${c}/` },
    ]);

    test(`${c}: inventory.write without inventory.delete is enough to edit`, async () => {
      const w = await inventoryWorld();
      await w.load("writer", { [c]: [ITEMS[c]] });
      const res = await w.call("PATCH", `/v2/inventory/${c}/${ITEMS[c]._id}`, "writer", { body: { inventory: 1 } });
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Updated" });
      expect(await w.stock("writer", c, String(ITEMS[c]._id))).toBe(1);
      await unchanged(c)(w);
    });
  }
});

describe("atomic adjustments (in process)", () => {
  for (const c of COLLECTIONS) {
    test(`${c}: 60 concurrent adjustments, a third of them invalid, change the stock by exactly the valid ones' sum`, async () => {
      const w = await inventoryWorld();
      const id = String(ITEMS[c]._id);
      const url = `/v2/inventory/${c}/${id}`;
      const bodies = Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0 ? { inventory_adjust: `${i}x` } : i % 3 === 1 ? { inventory_adjust: i / 10 } : { notes: "n", inventory_adjust: -i / 100 },
      );
      const answers = await Promise.all(bodies.map((body) => w.call("PATCH", url, "alice", { body })));
      expect(answers.map((r) => r.text)).toEqual(bodies.map((_, i) => (i % 3 === 0 ? "Invalid inventory_adjust" : "Updated")));
      // Exact sum in millionths: i/10 for i ≡ 1 (mod 3), −i/100 for i ≡ 2 (mod 3).
      let micro = (ITEMS[c].inventory as number) * 1e6;
      for (let i = 0; i < 60; i++) micro += i % 3 === 1 ? i * 1e5 : i % 3 === 2 ? -i * 1e4 : 0;
      expect(await w.stock("alice", c, id)).toBe(micro / 1e6);
    });
  }
});

describe("stored text stays canonical through PATCHes (in process)", () => {
  // A write tells the store which members it set, so the rest is not walked again: what it sets,
  // nested objects sent out of order among them, must still be stored in canonical key order.
  const canonicalText = (text: string) => {
    const sort = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(sort) : v !== null && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
    return JSON.stringify(sort(JSON.parse(text)));
  };
  for (const c of COLLECTIONS) {
    test(`${c}: partial, stock-only and stamped writes`, async () => {
      const w = await inventoryWorld();
      const id = String(ITEMS[c]._id);
      const url = `/v2/inventory/${c}/${id}`;
      const bodies = [
        { notes: "n", extra: { b: 1, a: { d: [{ z: 1, y: 2 }], c: 2 } } },
        { inventory_adjust: 1 },
        { inventory: 3, more: [{ q: 1, p: 2 }] },
        { extra: { y: 1, x: 2 } },
        { inventory_adjust: "-0.5" },
      ];
      for (const body of bodies) {
        expect((await w.call("PATCH", url, "alice", { body })).text).toBe("Updated");
        const text = await w.readText("alice", c, id);
        expect(text).toBe(canonicalText(text));
      }
      const last = JSON.parse(await w.readText("alice", c, id)) as Record<string, unknown>;
      expect([last.inventory, last.notes, last.extra, last.more]).toEqual([2.5, "n", { x: 2, y: 1 }, [{ p: 2, q: 1 }]]);
    });
  }
});
