import { describe, expect, test } from "bun:test";
import { issueApiKey } from "../../src/store/keys.ts";
import { importDocument, PLAIN_RECIPE_ID, RECIPE_ID } from "./data.ts";
import { aliceWithRecords, basic, csrfOf } from "./helpers.ts";

async function account() {
  const { h, c, api } = await aliceWithRecords(["inventory.read", "inventory.write", "recipes.read"]);
  const stock = async (collection: string, id: string) => JSON.parse((await api(`/v2/inventory/${collection}/${id}`)).text).inventory as number;
  return { h, c, api, stock };
}

describe("recipe pages", () => {
  test("the list names each recipe with its type, author and style, by name", async () => {
    const { c } = await account();
    const page = await c.get("/recipes");
    expect(page.status).toBe(200);
    expect([...page.text.matchAll(/<a href="\/recipes\/([^"]+)">/g)].map((m) => m[1])).toEqual([PLAIN_RECIPE_ID, RECIPE_ID]);
    expect(page.text).toContain(`<td><a href="/recipes/${RECIPE_ID}">Test Pale Ale</a><br><span class="sub">All Grain · by Test Brewer</span></td>\n<td>American Pale Ale</td>`);
  });

  test("a recipe page shows the calculated figures the API calculates, against the style's ranges", async () => {
    const { c, h } = await account();
    const page = await c.get(`/recipes/${RECIPE_ID}`);
    // The figures the service stores for the same recipe sent through the API (src/calc).
    const key = await issueApiKey(h.store, "bob", ["recipes.read", "recipes.write"]);
    const sent = { ...importDocument().recipes[0]!, _id: undefined };
    const created = await h.api.handle(new Request("http://localhost/v2/recipes", { method: "POST", headers: { authorization: basic("bob", key), "content-type": "application/json" }, body: JSON.stringify(sent) }));
    const { id } = (await created.json()) as { id: string };
    const calc = (await (await h.api.handle(new Request(`http://localhost/v2/recipes/${id}`, { headers: { authorization: basic("bob", key) } }))).json()) as Record<string, number>;
    const row = (key: string) => new RegExp(`<tr id="figure-${key}"><th scope="row">[^<]+</th><td class="num">(?:<svg[\\s\\S]*?</svg> )?([^<]+)</td><td>([^<]*)</td><td>(?:<span class="verdict [a-z]+">([a-z]+)</span>)?</td></tr>`).exec(page.text)?.slice(1);
    expect(row("og")).toEqual([calc.og!.toFixed(3), "1.045 – 1.060", "within"]);
    expect(row("fg")).toEqual([calc.fg!.toFixed(3), "1.010 – 1.015", calc.fg! < 1.01 ? "below" : "within"]);
    expect(row("ibu")).toEqual([`${calc.ibu!.toFixed(0)} IBU`, "30 IBU – 50 IBU", calc.ibu! < 30 ? "below" : "within"]);
    expect(row("abv")).toEqual([`${calc.abv!.toFixed(1)} %`, "4.5 % – 6.2 %", "within"]);
    expect(row("color")![0]).toBe(`${calc.color!.toFixed(1)} SRM`);
    expect(page.text).toMatch(/<tr id="figure-color"><th scope="row">Colour<\/th><td class="num"><svg class="swatch"[^>]*aria-hidden="true"[^>]*><rect width="1" height="1" fill="#[0-9a-f]{6}"\/><\/svg>/);
    expect(page.text).toContain(`<tr><th scope="row">Batch size</th><td class="num">20 L</td></tr>`);
    expect(page.text).toMatch(/<tr><th scope="row">Total water<\/th><td class="num">[\d.]+ L<\/td><\/tr>/);
    expect(page.text).toContain(`<td>Cascade<br><span class="sub">5.5 % alpha · Pellet</span></td><td>Boil, 60 min</td>`);
    expect(page.text).toContain(`<td>US-05<br><span class="sub">Fermentis · US-05</span></td><td class="num">81 %</td><td class="num">1 pkg</td>`);
    expect(page.text).toContain(`<li>Saccharification, 67 °C, 60 min</li>`);
  });

  test("a recipe without a style shows its figures with no ranges", async () => {
    const { c } = await account();
    const page = await c.get(`/recipes/${PLAIN_RECIPE_ID}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<caption>Calculated</caption>`);
    expect(page.text).not.toContain(`class="verdict`);
    expect(page.text).toMatch(/<tr id="figure-og"><th scope="row">Original gravity<\/th><td class="num">1\.\d{3}<\/td><td><span class="sub">–<\/span><\/td><td><\/td><\/tr>/);
  });

  test("another account's recipe is a 404 page", async () => {
    const { h } = await account();
    const bob = h.client();
    await bob.signIn("bob");
    const page = await bob.get(`/recipes/${RECIPE_ID}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain("<h1>Recipe not found</h1>");
  });
});

describe("inventory pages", () => {
  test("the overview counts each collection's items and names those running low or below zero", async () => {
    const { c } = await account();
    const page = await c.get("/inventory");
    expect(page.text).toContain(`<p class="counts">4 items, 2 in stock, 1 low, 1 out of stock, 1 negative.</p>`);
    expect(page.text).toContain(`<li>Chocolate Malt: <span class="amount">-0.2 kg</span> <span class="badge negative">Negative</span></li><li>Crystal 60: <span class="amount">0.4 kg</span> <span class="badge low">Low</span></li>`);
    expect(page.text).toContain(`<li>Citra: <span class="amount">20 g</span> <span class="badge low">Low</span></li>`);
    expect(page.text).toContain(`<li>Voss Kveik: <span class="amount">0.5 pkg</span> <span class="badge low">Low</span></li>`);
    expect(page.text).not.toContain("Wheat Malt:");
  });

  test("a collection lists every item with its stock and unit, marked, and filters as the API does", async () => {
    const { c } = await account();
    const page = await c.get("/inventory/fermentables");
    expect([...page.text.matchAll(/<li class="item" id="item-([^"]+)">/g)].map((m) => m[1])).toEqual(["web-f-chocolate", "web-f-crystal", "web-f-pale", "web-f-wheat"]);
    expect(page.text).toContain(`<div class="stock"><span class="amount">0 kg</span> <span class="badge out">Out of stock</span></div>`);
    expect(page.text).toContain(`<div class="stock"><span class="amount">12.5 kg</span></div>`);
    const negative = await c.get("/inventory/fermentables?show=negative");
    expect([...negative.text.matchAll(/<li class="item" id="item-([^"]+)">/g)].map((m) => m[1])).toEqual(["web-f-chocolate"]);
    expect((await c.get("/inventory/beer")).status).toBe(404);
  });

  test("Adjust adds to the stock through the API's rules; Set replaces it; the page names the new stock", async () => {
    const { c, stock } = await account();
    const token = csrfOf((await c.get("/inventory/hops")).text)!;
    const adjusted = await c.post("/inventory/hops/web-h-cascade/stock", { csrf: token, amount: "-25.5", mode: "adjust" });
    expect(adjusted.status).toBe(303);
    expect(adjusted.location).toBe("/inventory/hops?changed=web-h-cascade#item-web-h-cascade");
    expect(await stock("hops", "web-h-cascade")).toBe(124.5);
    expect((await c.get(adjusted.location!)).text).toContain(`<p class="notice" role="status" id="stock-changed">Cascade: stock is now <span class="amount">124.5 g</span>.</p>`);
    await c.post("/inventory/hops/web-h-magnum/stock", { csrf: token, amount: "40", mode: "set" });
    expect(await stock("hops", "web-h-magnum")).toBe(40);
  });

  test("a refused amount shows the API's message, keeps what was typed and changes nothing", async () => {
    const { c, api, stock } = await account();
    const token = csrfOf((await c.get("/inventory/hops")).text)!;
    for (const [mode, amount, message] of [["adjust", "lots", "Invalid inventory_adjust"], ["set", "", "Invalid inventory"], ["adjust", "", "Invalid inventory_adjust"]] as const) {
      const page = await c.post("/inventory/hops/web-h-citra/stock", { csrf: token, amount, mode });
      expect(page.status).toBe(400);
      const field = mode === "set" ? "inventory" : "inventory_adjust";
      expect(await api("/v2/inventory/hops/web-h-citra", { method: "PATCH", body: JSON.stringify({ [field]: amount }) })).toEqual({ status: 400, text: message });
      expect(page.text).toContain(`<p class="error" role="alert" id="stock-error">Citra: ${message}. Nothing was changed.</p>`);
      expect(page.text).toContain(`<input id="amount-web-h-citra" name="amount" type="text" inputmode="decimal" autocomplete="off" size="6" value="${amount}" aria-invalid="true" aria-describedby="stock-error">`);
    }
    expect(await stock("hops", "web-h-citra")).toBe(20);
  });

  test("adjustments sent at once all count: each is one atomic write", async () => {
    const { c, stock } = await account();
    const token = csrfOf((await c.get("/inventory/yeasts")).text)!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => c.post("/inventory/yeasts/web-y-us05/stock", { csrf: token, amount: "0.1", mode: "adjust" })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(303));
    expect(await stock("yeasts", "web-y-us05")).toBe(4);
  });

  test("without the CSRF token, or on another account's item, nothing changes", async () => {
    const { h, c, stock } = await account();
    expect((await c.post("/inventory/hops/web-h-citra/stock", { amount: "5", mode: "adjust" })).status).toBe(403);
    const bob = h.client();
    await bob.signIn("bob");
    const other = await bob.post("/inventory/hops/web-h-citra/stock", { csrf: await bob.token(), amount: "5", mode: "adjust" });
    expect(other.status).toBe(404);
    expect(await stock("hops", "web-h-citra")).toBe(20);
  });
});
