import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { checkPage, DESKTOP, newTab, PHONE, sidewaysScroll, signIn, startWorld, type Tab, type World } from "./browser.ts";
import { freePort } from "../helpers/process.ts";
import { FERMENTING_ID } from "./data.ts";

// The device pages in Chromium against the real server process (README, Web pages; Devices): the
// logging id made on Settings › Devices, a device posting to the URLs that page shows (the main
// listener and LOGGING_PORT's), attaching and detaching on the batch page, and the open batch page's
// chart taking the device's new reading without a reload.

let world: World;
let loggingPort: number;
let urls: string[] = [];

beforeAll(async () => {
  loggingPort = freePort();
  // Every post is stored, so one test can post twice in a row.
  // TZ: a Tilt's Timepoint is its local time, read in the server's zone.
  world = await startWorld({ LOGGING_MIN_INTERVAL_SECONDS: "0", LOGGING_PORT: String(loggingPort), TZ: "UTC" });
}, 120_000);
afterAll(async () => {
  await world?.close();
});

/**
 * A Tilt's post as TiltPi sends it: a form, °F, and the time of the reading as a spreadsheet serial
 * day. The times follow the test batch's readings (the last at 2024-03-09 16:00 UTC), so the chart
 * spans days, as a real one does.
 */
async function tiltPost(url: string, hour: number, sg: string, fahrenheit: string) {
  const serial = (Date.UTC(2024, 2, 9, hour) - Date.UTC(1899, 11, 30)) / 86_400_000;
  const body = new URLSearchParams({ Timepoint: String(serial), Temp: fahrenheit, SG: sg, Beer: "Spring Pale Ale", Color: "RED", Comment: "" });
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() });
  return [res.status, await res.text()];
}

const readingCount = (page: Page, drawing: "wide" | "narrow") => page.locator(`svg.reading-chart.${drawing} g.reading`).count();

function selfContained(tab: Tab) {
  expect(tab.foreign).toEqual([]);
  expect(tab.errors).toEqual([]);
}

describe("settings › devices and a batch's devices", () => {
  test("desktop: make the logging id, a device posts to the URLs shown, attach it, the open chart takes its new reading, detach", async () => {
    const tab = await newTab(world, DESKTOP);
    const { page } = tab;
    await signIn(page);
    await page.goto("/settings");
    await Promise.all([page.waitForURL("**/settings/devices"), page.getByRole("link", { name: "Settings › Devices" }).click()]);
    await Promise.all([page.waitForLoadState(), page.getByRole("button", { name: "Make logging id" }).click()]);
    const id = await page.getByRole("textbox", { name: "Logging id" }).inputValue();
    expect(id).toMatch(/^[\w-]{43}$/);
    urls = await page.locator("dt:text-is('Tilt') + dd code.url").allInnerTexts();
    expect(urls).toEqual([`${world.url}/tilt?id=${id}`, `http://127.0.0.1:${loggingPort}/tilt?id=${id}`]);

    // A device's first post, attached to no batch yet, shows in the list.
    expect(await tiltPost(urls[0]!, 19, "1.012", "65.3")).toEqual([200, '{"result":"OK"}']);
    await page.goto("/settings/devices");
    expect(await page.locator("#new-logging-id").count()).toBe(0);
    const red = page.locator("#devices-seen li.device", { hasText: "RED" });
    expect(await red.locator(".device-values").innerText()).toBe("Gravity\n1.012\nTemperature\n18.5 °C");
    expect(await red.locator(".device-batch").innerText()).toBe("Attached to no batch: its posts are kept with the device. Attach it on a batch's page.");
    await checkPage(tab, "devices", "desktop");

    // Attach on the batch page.
    await page.goto(`/batches/${FERMENTING_ID}`);
    await page.getByLabel("Device", { exact: true }).selectOption("tilt/RED");
    await Promise.all([page.waitForURL(/devices=attached/), page.getByRole("button", { name: "Attach", exact: true }).click()]);
    expect(await page.getByRole("status").filter({ hasText: "Device attached" }).count()).toBe(1);
    expect(await page.locator("#batch-devices li.device h3").allInnerTexts()).toEqual(["RED Tilt"]);

    // The device posts through LOGGING_PORT while the page is open: the chart takes the point, no reload.
    const before = await readingCount(page, "wide");
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    expect(await tiltPost(urls[1]!, 22, "1.011", "66.2")).toEqual([200, '{"result":"OK"}']);
    await page.waitForFunction((n) => document.querySelectorAll("svg.reading-chart.wide g.reading").length === n, before + 1, { timeout: 20_000 });
    expect(await readingCount(page, "narrow")).toBe(before + 1);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    const lastLabel = await page.locator("svg.reading-chart.wide g.reading").last().getAttribute("data-label");
    expect(lastLabel).toBe("2024-03-09 22:00 UTC: gravity 1.011, temperature 19.0 °C");
    expect(await page.locator("svg.reading-chart.wide .reading-point.gravity.last").count()).toBe(1);
    expect(await page.locator("#current-gravity").innerText()).toBe("1.011");
    expect(await page.locator("#batch-devices .device-values").innerText()).toContain("1.011");
    // The redrawn chart still names the reading under the pointer: its right end is the new one.
    // The form's redirect left the page scrolled to the devices: the chart is brought back into view.
    await page.locator("svg.reading-chart.wide").scrollIntoViewIfNeeded();
    const box = (await page.locator("svg.reading-chart.wide").boundingBox())!;
    await page.mouse.move(box.x + box.width * (696 / 760) - 1, box.y + box.height / 2);
    expect(await page.locator("#chart-readout").innerText()).toBe(lastLabel!);
    await checkPage(tab, "batch-devices", "desktop");

    // Detach: the device's next post stays with it, and the chart keeps what it has.
    await Promise.all([page.waitForURL(/devices=detached/), page.getByRole("button", { name: "Detach RED" }).click()]);
    expect(await page.locator("#batch-devices").innerText()).toBe("No device feeds this batch.");
    expect(await page.getByLabel("Device", { exact: true }).locator("option").allInnerTexts()).toEqual(["RED (Tilt), attached to no batch"]);
    expect(await readingCount(page, "wide")).toBe(before + 1);
    selfContained(tab);
    await tab.context.close();
  }, 90_000);

  test("phone: both pages fit, pass axe-core, and a refused offset shows the API's message by its box", async () => {
    expect(urls).toHaveLength(2);
    const tab = await newTab(world, PHONE);
    const { page } = tab;
    await signIn(page);
    await page.goto("/settings/devices");
    await checkPage(tab, "devices", "phone");

    await page.goto(`/batches/${FERMENTING_ID}`);
    await page.getByLabel("Device", { exact: true }).selectOption("tilt/RED");
    await Promise.all([page.waitForURL(/devices=attached/), page.getByRole("button", { name: "Attach", exact: true }).click()]);
    await checkPage(tab, "batch-devices", "phone");

    const device = page.locator("#batch-devices li.device", { hasText: "RED" });
    await device.getByLabel("Gravity offset").fill("a few");
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/devices/offsets")), device.getByRole("button", { name: "Save offsets" }).click()]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.getByRole("alert").innerText()).toBe("Invalid gravityOffset");
    expect(await page.locator("#batch-devices li.device").getByLabel("Gravity offset").getAttribute("aria-invalid")).toBe("true");
    expect(await sidewaysScroll(page)).toBe(0);

    await page.locator("#batch-devices li.device").getByLabel("Gravity offset").fill("1.5");
    await Promise.all([page.waitForURL(/devices=saved/), page.locator("#batch-devices li.device").getByRole("button", { name: "Save offsets" }).click()]);
    expect(await page.locator("#batch-devices li.device").getByLabel("Gravity offset").inputValue()).toBe("1.5");
    expect(tab.foreign).toEqual([]);
    expect(tab.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
    await tab.context.close();
  }, 90_000);

  test("at 360 px wide neither page scrolls sideways, also with a device of the longest name attached", async () => {
    expect(urls).toHaveLength(2);
    // 64 characters with nowhere to break, the longest name a post may carry.
    const name = "W".repeat(64);
    const stream = await fetch(urls[0]!.replace("/tilt?", "/stream?"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, temp: 18 }) });
    expect([stream.status, await stream.text()]).toEqual([200, '{"result":"OK"}']);
    const tab = await newTab(world, { width: 360, height: 740 });
    await signIn(tab.page);
    await tab.page.goto(`/batches/${FERMENTING_ID}`);
    await tab.page.getByLabel("Device", { exact: true }).selectOption(`stream/${name}`);
    await Promise.all([tab.page.waitForURL(/devices=attached/), tab.page.getByRole("button", { name: "Attach", exact: true }).click()]);
    expect(await tab.page.locator("#batch-devices li.device", { hasText: name }).count()).toBe(1);
    for (const path of ["/settings/devices", `/batches/${FERMENTING_ID}`]) {
      await tab.page.goto(path);
      expect({ path, sideways: await sidewaysScroll(tab.page) }).toEqual({ path, sideways: 0 });
      await tab.page.setViewportSize(DESKTOP);
      expect({ path, desktop: await sidewaysScroll(tab.page) }).toEqual({ path, desktop: 0 });
      await tab.page.setViewportSize({ width: 360, height: 740 });
    }
    await tab.context.close();
  }, 60_000);
});
