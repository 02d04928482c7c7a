import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { newTab, OUTPUT, startWorld, type World } from "../web/browser.ts";

// The documentation page renders in a real browser from the process's own files: no request leaves
// the server, and the operations of the document are listed.
let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 60_000);
afterAll(async () => world?.close());

test("/swagger renders every tag and the batch operations with no request to another host", async () => {
  const tab = await newTab(world);
  try {
    const missing: string[] = [];
    tab.page.on("response", (r) => {
      if (r.status() >= 400) missing.push(r.url());
    });
    await tab.page.goto("/swagger");
    await tab.page.waitForSelector(".opblock-tag", { timeout: 20_000 });
    const tags = await tab.page.$$eval(".opblock-tag", (els) => els.map((e) => e.getAttribute("data-tag")));
    expect(tags).toEqual(["Batches", "Recipes", "Inventory", "Version 1", "Operations", "Devices", "Webhooks", "Beyond the hosted API"]);
    const paths = await tab.page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.getAttribute("data-path")));
    expect(paths).toContain("/v2/batches/{id}/readings/last");
    expect(paths).toContain("/v2/inventory/hops/{id}");
    await tab.page.screenshot({ path: join(OUTPUT, "swagger.png") });
    expect(tab.foreign).toEqual([]);
    expect(missing).toEqual([]);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.context.close();
  }
}, 60_000);
