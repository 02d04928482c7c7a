// Properties of the PATCH values (API document, Inventory PATCH table and rule 3): a string counts as
// a number exactly when it is a finite decimal number, and `inventory` wins over `inventory_adjust`
// for any pair. Every input comes from the arbitraries; a failure prints its seed.
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { amountArb, decimalValue, notNumberArb, RUNS, textArb } from "./arbitraries.ts";
import { COLLECTIONS } from "./fixtures.ts";
import { inventoryWorld, type World } from "./harness.ts";

let w: World;
beforeAll(async () => {
  w = await inventoryWorld({ empty: true });
});

/** A fresh item holding `stock`, so every run starts from a known amount. */
async function freshItem(c: string, stock: number): Promise<string> {
  const res = await w.call("POST", `/v2/inventory/${c}`, "alice", { body: { name: "Property item", inventory: stock } });
  expect(res.status).toBe(201);
  return res.json().id;
}

/** Six decimals are kept (docs of src/inventory/stock.ts): the stored value is within half a millionth. */
function closeToSixDecimals(stored: number, sent: number): boolean {
  if (Math.abs(sent) > 1e9) return Math.abs(stored - sent) <= Math.abs(sent) * 1e-15;
  return Math.abs(stored - sent) <= 5e-7 + 1e-12 && Math.abs(stored * 1e6 - Math.round(stored * 1e6)) < 1e-3;
}

describe("a string counts as numeric exactly when it is a finite decimal number", () => {
  test("inventory: the text is stored as its number, or refused with 400 Invalid inventory and nothing changes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COLLECTIONS), textArb, async (c, s) => {
        const id = await freshItem(c, 7);
        const before = await w.readText("alice", c, id);
        const res = await w.call("PATCH", `/v2/inventory/${c}/${id}`, "alice", { body: { inventory: s } });
        const n = decimalValue(s);
        if (n === undefined) {
          expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Invalid inventory" });
          expect(await w.readText("alice", c, id)).toBe(before);
        } else {
          expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Updated" });
          const stored = (await w.stock("alice", c, id)) as number;
          expect(closeToSixDecimals(stored, n)).toBe(true);
        }
      }),
      RUNS(300),
    );
  });

  test("inventory_adjust, alone or beside a field: added, or refused with 400 Invalid inventory_adjust", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COLLECTIONS), textArb, fc.boolean(), async (c, s, partial) => {
        const id = await freshItem(c, 7);
        const before = await w.readText("alice", c, id);
        const body = partial ? { notes: "checked", inventory_adjust: s } : { inventory_adjust: s };
        const res = await w.call("PATCH", `/v2/inventory/${c}/${id}`, "alice", { body });
        const n = decimalValue(s);
        if (n === undefined) {
          expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Invalid inventory_adjust" });
          expect(await w.readText("alice", c, id)).toBe(before);
        } else if (!Number.isFinite(7 + n)) {
          expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Invalid inventory_adjust" });
        } else {
          expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Updated" });
          expect(closeToSixDecimals((await w.stock("alice", c, id)) as number, 7 + n)).toBe(true);
        }
      }),
      RUNS(300),
    );
  });
});

describe("inventory wins over inventory_adjust for any pair", () => {
  const anyNumber = fc.oneof(amountArb.map((a) => a.value), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }));

  test("two valid values, in either mode: the stock is the inventory sent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COLLECTIONS), amountArb, anyNumber, fc.boolean(), async (c, set, adjust, partial) => {
        const id = await freshItem(c, 3);
        const body = { ...(partial ? { name: "Renamed" } : {}), inventory: set.value, inventory_adjust: adjust };
        const res = await w.call("PATCH", `/v2/inventory/${c}/${id}`, "alice", { body });
        expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Updated" });
        const doc = (await w.read("alice", c, id))!;
        expect(doc.inventory).toBe(set.micro / 1e6);
        expect("inventory_adjust" in doc).toBe(false);
      }),
      RUNS(200),
    );
  });

  /** A valid amount, or a refused value (micro undefined). */
  const either = fc.oneof(amountArb, notNumberArb.map((value) => ({ micro: undefined, value })));

  test("inventory-only mode: an invalid inventory is named first; a valid one beside an invalid adjustment still fails", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COLLECTIONS), either, either, async (c, set, adjust) => {
        const id = await freshItem(c, 3);
        const before = await w.readText("alice", c, id);
        const res = await w.call("PATCH", `/v2/inventory/${c}/${id}`, "alice", { body: { inventory: set.value, inventory_adjust: adjust.value } });
        if (set.micro === undefined) expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Invalid inventory" });
        else if (adjust.micro === undefined) expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Invalid inventory_adjust" });
        else {
          expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "Updated" });
          expect(await w.stock("alice", c, id)).toBe(set.micro / 1e6);
          return;
        }
        expect(await w.readText("alice", c, id)).toBe(before);
      }),
      RUNS(200),
    );
  });
});
