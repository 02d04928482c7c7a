import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, checkPage, DESKTOP, newTab, PHONE, shoot, sidewaysScroll, signIn, startWorld, type Tab, type World } from "./browser.ts";
import { FERMENTING_ID, RECIPE_ID } from "./data.ts";

// Every page of ours in Chromium on a phone (390×844) and a desktop (1280×800), against the real
// server process: nothing scrolls sideways, axe-core finds no violation, nothing comes from elsewhere.
// With UPDATE_DOCS_SCREENSHOT=1 the screenshots replace those in docs/ that the README shows.

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const PAGES: Array<[name: string, path: string]> = [
  ["batches", "/batches"],
  ["batch", `/batches/${FERMENTING_ID}`],
  ["recipes", "/recipes"],
  ["recipe", `/recipes/${RECIPE_ID}`],
  ["inventory", "/inventory"],
  ["inventory-hops", "/inventory/hops"],
  ["settings", "/settings"],
];

/** Nothing came from elsewhere and nothing went wrong but, where `refused`, the form's own 400. */
function selfContained(tab: Tab, refused = false) {
  expect(tab.foreign).toEqual([]);
  expect(tab.errors.filter((e) => !(refused && e.includes("status of 400")))).toEqual([]);
}

/** The size on screen of the visible chart's tick labels, in CSS pixels: box height and font size. */
const tickSizes = (page: Page) =>
  page.evaluate(() => {
    const svg = [...document.querySelectorAll<SVGSVGElement>("svg.reading-chart")].find((s) => s.getBoundingClientRect().width > 0)!;
    const scale = svg.getScreenCTM()!.a;
    return [...svg.querySelectorAll<SVGTextElement>("text.tick")].map((t) => ({
      height: t.getBoundingClientRect().height,
      font: parseFloat(getComputedStyle(t).fontSize) * scale,
    }));
  });

describe("every page, on a phone and on a desktop", () => {
  for (const [size, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
    test(`${size}: no sideways scrolling, no axe-core violation, nothing from elsewhere`, async () => {
      const tab = await newTab(world, viewport);
      await tab.page.goto("/signin");
      await checkPage(tab, "signin", size);
      await signIn(tab.page, undefined, tab.page.url());
      for (const [name, path] of PAGES) {
        await tab.page.goto(path);
        await checkPage(tab, name, size);
      }
      selfContained(tab);
      await tab.context.close();
    }, 120_000);
  }

  test("at 360 px wide no page scrolls sideways", async () => {
    const tab = await newTab(world, { width: 360, height: 740 });
    await signIn(tab.page);
    for (const [name, path] of PAGES) {
      await tab.page.goto(path);
      expect({ name, sideways: await sidewaysScroll(tab.page) }).toEqual({ name, sideways: 0 });
    }
    await tab.context.close();
  }, 60_000);
});

describe("the checks themselves", () => {
  test("axe-core does report a violation when there is one: an image without a text alternative", async () => {
    const tab = await newTab(world, DESKTOP);
    await signIn(tab.page);
    await tab.page.evaluate(() => document.querySelector("main")!.append(Object.assign(document.createElement("img"), { src: "/static/icon.svg" })));
    expect((await axeViolations(tab.page)).map((v) => v.id)).toContain("image-alt");
    await tab.context.close();
  }, 60_000);
});

describe("settings on a phone", () => {
  test("the one-time key and its curl line fit the screen; the curl line breaks only where it must", async () => {
    const tab = await newTab(world, PHONE);
    const { page } = tab;
    await signIn(page);
    await page.goto("/settings");
    await page.getByRole("button", { name: "Generate key" }).click();
    await page.waitForSelector("#new-key");
    expect(await sidewaysScroll(page)).toBe(0);
    const inside = await page.evaluate(() => {
      const box = document.querySelector(".new-key")!.getBoundingClientRect();
      return ["#new-key", "#curl-example"].map((sel) => {
        const r = document.querySelector(sel)!.getBoundingClientRect();
        return r.left >= box.left && r.right <= box.right;
      });
    });
    expect(inside).toEqual([true, true]);
    // "curl -u" stays whole on its line: breaks fall at spaces first.
    expect(await page.evaluate(() => {
      const code = document.querySelector("#curl-example")!;
      const range = document.createRange();
      range.setStart(code.firstChild!, 0);
      range.setEnd(code.firstChild!, "curl -u".length);
      return range.getClientRects().length;
    })).toBe(1);
    await checkPage(tab, "settings-new-key", "phone");
    selfContained(tab);
    await tab.context.close();
  }, 60_000);
});

describe("the chart", () => {
  test("on a phone: the narrow drawing, tick labels at least 11 px tall, and a tap names the reading", async () => {
    const tab = await newTab(world, PHONE);
    const { page } = tab;
    await signIn(page);
    await page.goto(`/batches/${FERMENTING_ID}`);
    expect(await page.locator("svg.reading-chart.narrow").isVisible()).toBe(true);
    expect(await page.locator("svg.reading-chart.wide").isVisible()).toBe(false);
    const box = (await page.locator("svg.reading-chart.narrow").boundingBox())!;
    expect(box.height).toBeGreaterThan(box.width * 0.8);
    const ticks = await tickSizes(page);
    expect(ticks.length).toBeGreaterThan(8);
    for (const t of ticks) {
      expect(t.height).toBeGreaterThanOrEqual(11);
      expect(t.font).toBeGreaterThanOrEqual(11);
    }
    // A tap at the right end of the plot names the last reading.
    await page.locator("svg.reading-chart.narrow").tap({ position: { x: box.width - 45, y: box.height / 2 } });
    await expect(page.locator("#chart-readout").innerText()).resolves.toBe("2024-03-09 16:00 UTC: gravity 1.013, temperature 19.0 °C");
    selfContained(tab);
    await tab.context.close();
  }, 60_000);

  test("on a desktop: the wide drawing, and hovering names the nearest reading", async () => {
    const tab = await newTab(world, DESKTOP);
    const { page } = tab;
    await signIn(page);
    await page.goto(`/batches/${FERMENTING_ID}`);
    const svg = page.locator("svg.reading-chart.wide");
    const box = (await svg.boundingBox())!;
    // The left edge of the plot (64 of 760 units) is the first reading.
    await page.mouse.move(box.x + (64 / 760) * box.width + 1, box.y + box.height / 2);
    await expect(page.locator("#chart-readout").innerText()).resolves.toBe("2024-03-02 16:00 UTC: gravity 1.052, temperature 18.0 °C");
    expect(await page.locator("svg.reading-chart.wide g.reading.active").count()).toBe(1);
    selfContained(tab);
    await tab.context.close();
  }, 60_000);
});

describe("changing things through the pages", () => {
  test("on a phone: a measured value is saved, and a refused one shows the API's message", async () => {
    const tab = await newTab(world, PHONE);
    const { page } = tab;
    await signIn(page);
    await page.goto(`/batches/${FERMENTING_ID}`);
    await page.getByLabel("Final gravity", { exact: true }).fill("1.012");
    await Promise.all([page.waitForURL(/saved=1/), page.getByRole("button", { name: "Save measured values" }).click()]);
    expect(await page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
    expect(await page.getByLabel("Final gravity", { exact: true }).inputValue()).toBe("1.012");

    await page.getByLabel("Original gravity", { exact: true }).fill("2.5");
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/measured")), page.getByRole("button", { name: "Save measured values" }).click()]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.getByRole("alert").innerText()).toBe("Invalid measuredOg");
    expect(await page.getByLabel("Original gravity", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await sidewaysScroll(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "batch-refused-phone");
    selfContained(tab, true);
    await tab.context.close();
  }, 60_000);

  test("on a phone: stock is adjusted, and a refused amount shows the API's message", async () => {
    const tab = await newTab(world, PHONE);
    const { page } = tab;
    await signIn(page);
    await page.goto("/inventory/hops");
    await page.getByLabel("Amount of Cascade, g").fill("-30");
    await Promise.all([page.waitForURL(/changed=web-h-cascade/), page.locator("#item-web-h-cascade").getByRole("button", { name: "Adjust" }).click()]);
    expect(await page.getByRole("status").innerText()).toBe("Cascade: stock is now 120 g.");

    await page.getByLabel("Amount of Citra, g").fill("a handful");
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/stock")), page.locator("#item-web-h-citra").getByRole("button", { name: "Adjust" }).click()]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.getByRole("alert").innerText()).toBe("Citra: Invalid inventory_adjust. Nothing was changed.");
    expect(await page.locator("#item-web-h-citra .stock").innerText()).toBe("20 g Low");
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "inventory-refused-phone");
    selfContained(tab, true);
    await tab.context.close();
  }, 60_000);
});
