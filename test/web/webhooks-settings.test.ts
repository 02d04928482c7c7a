import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ERRORS } from "../../src/http/errors.ts";
import { Receiver, until } from "../webhooks/receiver.ts";
import { axeViolations, DESKTOP, newTab, PHONE, shoot, sidewaysScroll, signIn, startWorld, type World } from "./browser.ts";
import { FERMENTING_ID } from "./data.ts";

// Settings › Webhooks in Chromium against the real server process, with a real receiver on
// 127.0.0.1: a refused URL is refused with its reason, a new webhook's secret is shown once, a change
// made on the batch page is delivered and listed, a failing receiver shows as failing, a test event
// sent once it is mended makes it active again, its url and events change, a new secret signs beside
// the old one, and deleting works; on a phone and a desktop, with no axe-core violation and nothing scrolling sideways.

const receiver = new Receiver().start();
let world: World;
beforeAll(async () => {
  world = await startWorld({ WEBHOOK_ALLOW_HOSTS: "127.0.0.1", WEBHOOK_RETRY_BASE_MS: "20", WEBHOOK_MAX_ATTEMPTS: "2", WEBHOOK_TIMEOUT_MS: "2000" });
}, 120_000);
afterAll(async () => {
  await world?.close();
  await receiver.stop();
});

describe("the webhooks section of the settings page", () => {
  for (const [size, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
    test(`${size}: add, see the secret once, see deliveries and failing, send a test event, change it, give it a new secret, delete`, async () => {
      const tab = await newTab(world, viewport);
      const { page } = tab;
      const path = `/${size}`;
      await signIn(page);
      await page.goto("/settings");
      expect(await page.locator("#no-webhooks").innerText()).toBe("No webhooks yet.");

      // A private address is refused with its reason, and what was typed stays.
      await page.getByLabel("Receiver URL (https)").fill("https://10.0.0.7/hook");
      await page.getByLabel("batch.updated a batch changes (its status, measured values, …)").check();
      const [refused] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/settings/webhooks")), page.getByRole("button", { name: "Add webhook" }).click()]);
      expect(refused.status()).toBe(400);
      await page.waitForLoadState();
      expect(await page.locator("#webhook-error").innerText()).toBe(ERRORS.webhookRefusedAddress("10.0.0.7", "10.0.0.7"));
      expect(await page.getByLabel("Receiver URL (https)").inputValue()).toBe("https://10.0.0.7/hook");
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel("Receiver URL (https)").fill(receiver.url(path));
      await Promise.all([page.waitForURL(/\/settings\/webhooks$/), page.getByRole("button", { name: "Add webhook" }).click()]);
      const secret = await page.locator("#new-webhook-secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shoot(page, `settings-webhook-created-${size}`);

      // A change made on the batch page is delivered, signed with that secret.
      await page.goto(`/batches/${FERMENTING_ID}`);
      await page.getByLabel("Final gravity", { exact: true }).fill(size === "phone" ? "1.011" : "1.010");
      await Promise.all([page.waitForURL(/saved=1/), page.getByRole("button", { name: "Save measured values" }).click()]);
      await until("the delivery", () => receiver.at(path).length === 1);
      expect(Receiver.verifies(secret, receiver.at(path)[0]!)).toBe(true);
      expect(receiver.at(path)[0]!.json.data.changes.measuredFg).toBe(size === "phone" ? 1.011 : 1.01);

      await page.goto("/settings");
      const item = page.locator(".webhook", { hasText: receiver.url(path) });
      expect(await item.locator(".webhook-state").innerText()).toBe("Active. 0 waiting to be delivered.");
      expect(await item.locator(".deliveries li").first().innerText()).toMatch(/batch\.updated: HTTP 204 in \d+ ms$/);
      expect(await page.content()).not.toContain(secret);

      // A receiver that keeps refusing: after the last attempt the webhook shows failing.
      receiver.answer = (_req, r) => new Response(r.path === path ? "busy" : null, { status: r.path === path ? 503 : 204 });
      await page.goto(`/batches/${FERMENTING_ID}`);
      await page.getByLabel("Final gravity", { exact: true }).fill("1.009");
      await Promise.all([page.waitForURL(/saved=1/), page.getByRole("button", { name: "Save measured values" }).click()]);
      await until("two attempts", () => receiver.at(path).length === 3);
      receiver.answer = () => new Response(null, { status: 204 });
      await Bun.sleep(300);
      await page.goto("/settings");
      expect(await item.locator(".webhook-state").innerText()).toMatch(/^Failing since .+: an event was given up after a day of retries\. 0 waiting to be delivered\.$/);
      expect(await item.locator(".deliveries li").first().innerText()).toMatch(/batch\.updated: HTTP 503 in \d+ ms \(busy\)$/);
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shoot(page, `settings-webhook-failing-${size}`);

      // The receiver mended, a test event: signed like the rest, and its success makes the webhook active again.
      await Promise.all([page.waitForURL(/\/test$/), item.getByRole("button", { name: `Send a test event to ${receiver.url(path)}` }).click()]);
      const sent = await item.locator(".test-sent").innerText();
      expect(sent).toMatch(/^A test event \(msg_[\w-]{22}\) is on its way; reload to see how it went\.$/);
      await until("the test event", () => receiver.at(path).some((r) => r.json.type === "webhook.test"));
      const tried = receiver.at(path).find((r) => r.json.type === "webhook.test")!;
      expect(Receiver.verifies(secret, tried)).toBe(true);
      expect(sent).toContain(tried.id);
      await until("the test's delivery listed", async () => {
        await page.goto("/settings");
        return (await item.locator(".deliveries li").first().innerText()).includes("webhook.test");
      });
      expect(await item.locator(".webhook-state").innerText()).toBe("Active. 0 waiting to be delivered.");
      expect(await item.locator(".deliveries li").first().innerText()).toMatch(/webhook\.test: HTTP 204 in \d+ ms$/);
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shoot(page, `settings-webhook-tested-${size}`);

      // Changing where it goes and what it sends: a refused URL keeps the form open with why and what was typed; then saved.
      const save = () => Promise.all([page.waitForURL(/\/change$/), item.getByRole("button", { name: `Save changes to the webhook to ${receiver.url(path)}` }).click()]);
      await item.locator("summary", { hasText: "Change where it goes or what it sends" }).click();
      await item.getByLabel("Send to (https URL)").fill("https://10.0.0.7/hook");
      await save();
      expect(await item.locator(".change .error").innerText()).toBe(ERRORS.webhookRefusedAddress("10.0.0.7", "10.0.0.7"));
      expect(await item.getByLabel("Send to (https URL)").inputValue()).toBe("https://10.0.0.7/hook");
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shoot(page, `settings-webhook-change-refused-${size}`);
      await item.getByLabel("Send to (https URL)").fill(receiver.url(path));
      await item.getByLabel("recipe.created", { exact: true }).check();
      await save();
      expect(await item.locator(".saved").innerText()).toBe("Changes saved.");
      expect(await item.locator("p", { hasText: "Events:" }).innerText()).toBe("Events: batch.updated, recipe.created");
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // A new secret, shown once: the next delivery is signed with it and with the one it replaces.
      await Promise.all([page.waitForURL(/\/secret$/), item.getByRole("button", { name: `New secret for the webhook to ${receiver.url(path)}` }).click()]);
      const rotated = await page.locator("#new-webhook-secret").inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await shoot(page, `settings-webhook-new-secret-${size}`);
      const seen = receiver.at(path).length;
      await Promise.all([page.waitForURL(/\/test$/), item.getByRole("button", { name: `Send a test event to ${receiver.url(path)}` }).click()]);
      await until("a test event after the new secret", () => receiver.at(path).length > seen);
      const signedTwice = receiver.at(path)[seen]!;
      expect([Receiver.verifies(rotated, signedTwice), Receiver.verifies(secret, signedTwice)]).toEqual([true, true]);

      await Promise.all([page.waitForURL(/\/delete$/), item.getByRole("button", { name: `Delete the webhook to ${receiver.url(path)}` }).click()]);
      expect(await page.locator("#no-webhooks").innerText()).toBe("No webhooks yet.");
      expect(tab.foreign).toEqual([]);
      expect(tab.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
      await tab.context.close();
    }, 60_000);
  }
});
