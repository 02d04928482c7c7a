// Server-managed fields (API document: "Server-managed recipe fields", "Inventory create rules").
import { describe, expect, test } from "bun:test";
import { INVENTORY_SERVER_MANAGED, RECIPE_SERVER_MANAGED, stripServerManaged } from "../../src/schema";

describe("stripServerManaged", () => {
  test("RECIPE_SERVER_MANAGED names createdAt, updatedAt and data", () => {
    expect([...RECIPE_SERVER_MANAGED].sort()).toEqual(["createdAt", "data", "updatedAt"]);
  });
  test("INVENTORY_SERVER_MANAGED names createdAt and updatedAt", () => {
    expect([...INVENTORY_SERVER_MANAGED].sort()).toEqual(["createdAt", "updatedAt"]);
  });
  test("every root key starting with _ and every named key is removed; the rest is kept", () => {
    const body = {
      _id: "x", _uid: "u", _public: true, _timestamp_ms: 1, __proto__x: 1,
      createdAt: "t", updatedAt: "t", data: { strikeTemp: 70 },
      name: "IPA", unknownField: [1], fermentables: [{ _id: "f1", name: "Malt" }],
    };
    expect(stripServerManaged(body, RECIPE_SERVER_MANAGED)).toEqual({
      name: "IPA", unknownField: [1], fermentables: [{ _id: "f1", name: "Malt" }],
    });
  });
  test("inventory stripping keeps data, which only recipes treat as server-managed", () => {
    expect(stripServerManaged({ _rev: "r", createdAt: "t", data: 1, name: "Citra" }, INVENTORY_SERVER_MANAGED)).toEqual({ data: 1, name: "Citra" });
  });
  test("the input is left unchanged and a new object is returned", () => {
    const body = { _id: "x", name: "IPA" };
    const out = stripServerManaged(body, RECIPE_SERVER_MANAGED);
    expect(body).toEqual({ _id: "x", name: "IPA" });
    expect(out).not.toBe(body);
  });
  test("a JSON __proto__ key is removed without touching the prototype", () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "name": "IPA"}') as Record<string, unknown>;
    const out = stripServerManaged(body, []);
    expect(out).toEqual({ name: "IPA" });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
