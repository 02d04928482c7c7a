import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FERMENTING_ID, PLANNING_ID } from "./data.ts";
import { deployedBuild } from "../helpers/process.ts";
import { apiStatus, newTab, shoot, signIn, startWorld, type Tab, type World } from "./browser.ts";

// The main paths through the pages in a real browser against the real server process, run as it is
// deployed (scripts/build.ts): the pages' modules load from the bundle's chunks and their stylesheet
// and script from the files copied beside it. The other browser tests run the sources.

let build: Awaited<ReturnType<typeof deployedBuild>>;
let world: World;
beforeAll(async () => {
  build = await deployedBuild();
  world = await startWorld({}, build.main);
}, 120_000);
afterAll(async () => {
  await world?.close();
  build?.remove();
});

/** Nothing was fetched from anywhere else and no script or policy error was logged. */
function selfContained(tab: Tab) {
  expect(tab.foreign).toEqual([]);
  expect(tab.errors).toEqual([]);
}

async function checkScopes(tab: Tab, scopes: string[]) {
  for (const box of await tab.page.locator('input[name="scope"]').all()) {
    const want = scopes.includes((await box.getAttribute("value"))!);
    if ((await box.isChecked()) !== want) await tab.page.getByLabel((await box.getAttribute("value"))!, { exact: false }).click();
  }
}

async function generate(tab: Tab): Promise<string> {
  await tab.page.getByRole("button", { name: "Generate key" }).click();
  await tab.page.waitForSelector("#new-key");
  return (await tab.page.inputValue("#new-key"))!;
}

describe("in a browser", () => {
  test("sign in with the keyboard, land on the batch list, filter it by status", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    await page.goto("/batches");
    expect(new URL(page.url()).pathname).toBe("/signin");
    await shoot(page, "signin");
    const response = await signIn(page, undefined, page.url());
    expect(response.status()).toBe(303);
    expect(new URL(page.url()).pathname).toBe("/batches");
    await expect(page.locator("#batch-list tbody tr").count()).resolves.toBe(3);
    expect(await page.locator("#batch-list tbody tr").first().locator("td").allInnerTexts()).toEqual(["Winter Stout\n#13 · Test Pale Ale · brewed 2024-05-01", "Planning", "none"]);
    // The batch whose name is markup shows it as text; its script never ran.
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    await shoot(page, "batches");

    await page.getByLabel("Status").selectOption("Fermenting");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL("**/batches?status=Fermenting");
    expect(await page.locator("#batch-list tbody tr").count()).toBe(1);
    selfContained(tab);
    await tab.context.close();
  }, 60_000);

  test("generate a key with two scopes: the API allows those, refuses the rest, and regenerating kills the old key", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    await tab.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.url });
    await signIn(page);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL("**/settings");
    expect(await page.locator("#settings-user-id").innerText()).toBe("alice");
    await checkScopes(tab, ["batches.read", "recipes.read"]);
    const first = await generate(tab);
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(await page.locator("#curl-example").innerText()).toBe(`curl -u 'alice:${first}' '${world.url}/v2/batches'`);
    await shoot(page, "settings-new-key");

    // The copy button puts the key on the clipboard.
    await page.getByRole("button", { name: "Copy key" }).click();
    await page.locator(".copy-status", { hasText: "Copied." }).waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    expect(await apiStatus(world, "/v2/batches", first)).toBe(200);
    expect(await apiStatus(world, `/v2/batches/${FERMENTING_ID}/readings`, first)).toBe(200);
    expect(await apiStatus(world, "/v2/recipes", first)).toBe(200);
    expect(await apiStatus(world, "/v2/inventory/fermentables", first)).toBe(403);

    // The page, reloaded, never shows the key again and says plainly what the key can and cannot do.
    await page.goto("/settings");
    expect(await page.content()).not.toContain(first);
    expect(await page.locator("#current-scopes li").allInnerTexts()).toEqual(["recipes.read", "batches.read"]);
    expect(await page.locator("#key-cannot").innerText()).toContain("read inventory");
    expect(await page.locator(".error").count()).toBe(0);
    await shoot(page, "settings");

    await checkScopes(tab, ["batches.read", "inventory.read"]);
    const second = await generate(tab);
    expect(second).not.toBe(first);
    expect(await apiStatus(world, "/v2/batches", first)).toBe(401);
    expect(await apiStatus(world, "/v2/inventory/fermentables", second)).toBe(200);
    expect(await apiStatus(world, "/v2/recipes", second)).toBe(403);
    selfContained(tab);
    await tab.context.close();
  }, 60_000);

  test("the batch page draws one point per gravity and temperature value and marks the last reading", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    await signIn(page);
    await page.getByRole("link", { name: "Spring Pale Ale" }).click();
    await page.waitForURL(`**/batches/${FERMENTING_ID}`);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Spring Pale Ale");
    // 29 hydrometer readings carry gravity and temperature; 2 manual ones only a temperature.
    expect(await page.locator("svg.reading-chart.wide circle.reading-point.gravity").count()).toBe(29);
    expect(await page.locator("svg.reading-chart.wide rect.reading-point.temperature").count()).toBe(31);
    expect(await page.locator("svg.reading-chart.wide .reading-point.last").count()).toBe(2);
    expect(await page.locator("svg.reading-chart.wide circle.last").getAttribute("r")).toBe("6");
    // One drawing shows at a time: the other is out of the page and of the accessibility tree.
    expect(await page.getByRole("img", { name: "Gravity and temperature over time" }).count()).toBe(1);
    expect(await page.locator("svg.reading-chart.narrow").isVisible()).toBe(false);
    // Drawn, not just present: the chart has a real size on screen.
    const box = await page.locator("svg.reading-chart.wide").boundingBox();
    expect(box!.width).toBeGreaterThan(600);
    expect(await page.locator("#latest-readings tbody tr").count()).toBe(10);
    const shot = await shoot(page, "batch");
    expect(shot.length).toBeGreaterThan(10_000);
    selfContained(tab);
    await tab.context.close();
  }, 60_000);

  test("a batch without readings says so instead of drawing an empty chart", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    await signIn(page);
    await page.goto(`/batches/${PLANNING_ID}`);
    expect(await page.locator(".no-readings").innerText()).toBe("This batch has no readings yet.");
    expect(await page.locator("svg.reading-chart").count()).toBe(0);
    await shoot(page, "batch-no-readings");
    selfContained(tab);
    await tab.context.close();
  }, 60_000);

  test("signing out ends the session", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    await signIn(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/signin?signedout=1");
    expect(await page.getByRole("status").innerText()).toBe("You are signed out.");
    await page.goto("/settings");
    expect(new URL(page.url()).pathname).toBe("/signin");
    selfContained(tab);
    await tab.context.close();
  }, 60_000);
});
