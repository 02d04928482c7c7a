// Response schemas tell the truth: an extreme recipe's calculated OG and colour lie beyond the
// request bounds (og ≤ 1.2, color ≤ 100), and the OpenAPI document's response schemas accept them,
// while requests keep their bounds. Every recipe and batch answer in the suite is also checked
// against the document by the test helper (test/helpers/openapi-responses.ts).
import { describe, expect, test } from "bun:test";
import { validateRecipe } from "../../src/schema/index.ts";
import { testApp } from "../helpers/app.ts";
import { checkResponse } from "../helpers/openapi-responses.ts";

const extreme = {
  name: "Imperial Black Syrup",
  batchSize: 10,
  efficiency: 80,
  fermentables: [
    { name: "Pale", type: "Grain", amount: 20, potential: 1.037, color: 3 },
    { name: "Black", type: "Grain", amount: 3, potential: 1.025, color: 500 },
  ],
};

describe("recipe responses beyond the request bounds", async () => {
  const t = await testApp();
  const alice = await t.account("alice");
  const created = await t.call("POST", "/v2/recipes", alice, { body: extreme });
  const id = created.json().id as string;
  const one = await t.call("GET", `/v2/recipes/${id}`, alice);
  const list = await t.call("GET", "/v2/recipes?complete=True", alice);
  const document = async () => (await t.call("GET", "/swagger/json", null)).json();

  test("the calculated OG and colour exceed 1.2 and 100", () => {
    expect(created.status).toBe(201);
    expect(one.status).toBe(200);
    expect(one.json().og).toBeGreaterThan(1.2);
    expect(one.json().color).toBeGreaterThan(100);
  });

  test("the request schema still refuses them: og ≤ 1.2 and color ≤ 100 hold for what a client sends", () => {
    const { _id, _uid, _type, _public, _init, _calculated, _timestamp, _timestamp_ms, _created, createdAt, updatedAt, data, ...body } = one.json();
    const rules = validateRecipe(body).map((i) => `${i.path} ${i.rule}`);
    expect(rules).toContain("og maximum");
    expect(rules).toContain("color maximum");
  });

  test("the document's response schema accepts the recipe read alone and in a list", async () => {
    await checkResponse(document, "GET", `/v2/recipes/${id}`, 200, "application/json", one.text);
    expect(list.json().some((r: { _id: string }) => r._id === id)).toBe(true);
    await checkResponse(document, "GET", "/v2/recipes", 200, "application/json", list.text);
  });

  test("a returned recipe without a string _id does not match the document", async () => {
    const body = JSON.stringify({ ...one.json(), _id: null });
    expect(checkResponse(document, "GET", `/v2/recipes/${id}`, 200, "application/json", body)).rejects.toThrow("_id");
    const { _id, ...withoutId } = one.json();
    expect(checkResponse(document, "GET", `/v2/recipes/${id}`, 200, "application/json", JSON.stringify(withoutId))).rejects.toThrow("_id");
  });

  test("a batch whose recipe carries the same figures matches the batch response schema", async () => {
    // Stored as a batch made from the recipe would be (an import holds recipes to the request bounds).
    await t.store.insert(alice.userId, "batch", { _id: "b-extreme", name: "Extreme", status: "Planning", recipe: one.json() });
    const batch = await t.call("GET", "/v2/batches/b-extreme", alice);
    expect(batch.status).toBe(200);
    expect(batch.json().recipe.og).toBeGreaterThan(1.2);
    await checkResponse(document, "GET", "/v2/batches/b-extreme", 200, "application/json", batch.text);
    const broken = JSON.stringify({ ...batch.json(), recipe: { ...batch.json().recipe, og: "high" } });
    expect(checkResponse(document, "GET", "/v2/batches/b-extreme", 200, "application/json", broken)).rejects.toThrow("og");
  });
});
