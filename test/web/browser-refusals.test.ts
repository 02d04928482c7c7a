import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { apiStatus, newTab, PASSWORD, shoot, signIn, startWorld, type World } from "./browser.ts";
import { FERMENTING_ID } from "./data.ts";

// What the pages refuse, in a real browser against the real server process: a wrong password, a
// form without its CSRF token, and a session past its lifetime (SESSION_TTL_SECONDS).

const TTL_SECONDS = 3;
let world: World;
beforeAll(async () => {
  world = await startWorld({ SESSION_TTL_SECONDS: String(TTL_SECONDS) });
}, 120_000);
afterAll(async () => {
  await world?.close();
});

/** A new tab signed in as alice, on `path`; when it signed in, for the session's end. */
async function signedInOn(path: string) {
  const tab = await newTab(world);
  await signIn(tab.page);
  const signedInAt = Date.now();
  await tab.page.goto(path);
  return { tab, page: tab.page, signedInAt };
}

/** Waits until the session signed in at `signedInAt` has ended. */
const untilEnded = (signedInAt: number) => Bun.sleep(Math.max(0, signedInAt + TTL_SECONDS * 1000 + 300 - Date.now()));

/** On the sign-in page after a session ended: sign in again, and wait to be back on `back`. */
async function signInAgain(page: Page, back: string) {
  expect(await page.getByRole("status").innerText()).toBe("Your session has ended. Please sign in again.");
  await page.fill("#user-id", "alice");
  await page.fill("#password", PASSWORD);
  await Promise.all([page.waitForURL(`**${back}`), page.getByRole("button", { name: "Sign in" }).click()]);
}

describe("in a browser, refused", () => {
  test("a wrong password stays on the sign-in page with 401 and says so", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    const response = await signIn(page, "not the password");
    expect(response.status()).toBe(401);
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect(await page.getByRole("alert").innerText()).toBe("Wrong user id or password.");
    // The user id is kept and the password field has the focus for the next try.
    expect(await page.inputValue("#user-id")).toBe("alice");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");
    await shoot(page, "signin-wrong-password");
    expect((await page.context().cookies()).map((c) => c.name)).toEqual(["brewrecords_session"]);
    await page.goto("/settings");
    expect(new URL(page.url()).pathname).toBe("/signin");
    await tab.context.close();
  }, 60_000);

  test("a form sent without its CSRF token is refused with 403 and changes nothing", async () => {
    const tab = await newTab(world);
    const { page } = tab;
    await signIn(page);
    await page.goto("/settings");
    await page.getByLabel("batches.read", { exact: false }).check();
    // New keys start at the three read scopes: this one is to lack inventory.read.
    await page.getByLabel("inventory.read", { exact: false }).uncheck();
    await page.getByRole("button", { name: "Generate key" }).click();
    const key = await page.inputValue("#new-key");
    expect(await apiStatus(world, "/v2/batches", key)).toBe(200);

    await page.goto("/settings");
    await page.getByLabel("inventory.read", { exact: false }).check();
    await page.evaluate(() => document.querySelector('form[action="/settings/api-key"] input[name="csrf"]')!.remove());
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/settings/api-key")), page.getByRole("button", { name: "Generate key" }).click()]);
    expect(response.status()).toBe(403);
    await page.waitForLoadState();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Form not accepted");
    expect(await page.getByRole("alert").innerText()).toContain("its security token is missing or does not match your session. Nothing was changed.");
    await shoot(page, "csrf-refused");
    expect(await apiStatus(world, "/v2/batches", key)).toBe(200);
    expect(await apiStatus(world, "/v2/inventory/fermentables", key)).toBe(403);
    await tab.context.close();
  }, 60_000);

  test("reloading the answer that showed a new key generates no other: 409, and the key shown still works", async () => {
    const { tab, page } = await signedInOn("/settings");
    await page.getByRole("button", { name: "Generate key" }).click();
    const key = await page.inputValue("#new-key");
    expect(await apiStatus(world, "/v2/batches", key)).toBe(200);
    // Headless Chromium sends the form again on reload without asking, as a user confirming would.
    const response = await page.reload();
    expect(response!.status()).toBe(409);
    expect(await page.getByRole("alert").innerText()).toContain("no key was generated, and the key shown when it was first sent still works");
    expect(await page.locator("#new-key").count()).toBe(0);
    expect(await apiStatus(world, "/v2/batches", key)).toBe(200);
    await tab.context.close();
  }, 60_000);

  test("after SESSION_TTL_SECONDS the session has ended: sign in again, then back to the page", async () => {
    const { tab, page, signedInAt } = await signedInOn("/settings");
    expect(new URL(page.url()).pathname).toBe("/settings");
    const [cookie] = await page.context().cookies();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe("Strict");
    expect(cookie!.path).toBe("/");
    expect(cookie!.secure).toBe(false);

    await untilEnded(signedInAt);
    // The browser still holds the cookie (it outlives the session by a day), so the server can say
    // the session ended instead of meeting a stranger.
    expect((await page.context().cookies()).map((c) => c.name)).toEqual(["brewrecords_session"]);
    await page.goto("/settings");
    const url = new URL(page.url());
    expect(url.pathname).toBe("/signin");
    expect(url.search).toBe("?next=%2Fsettings&expired=1");
    await shoot(page, "session-expired");
    await signInAgain(page, "/settings");
    expect(await page.locator("#settings-user-id").innerText()).toBe("alice");
    await tab.context.close();
  }, 60_000);

  test("an open batch page whose session ends says so instead of looking live, with the way back", async () => {
    const { tab, page } = await signedInOn(`/batches/${FERMENTING_ID}`);
    // The page asks for new readings every 5 s; the session ends after TTL_SECONDS.
    const note = page.locator("#live-stopped");
    await note.waitFor({ timeout: 15_000 });
    expect(await note.innerText()).toBe("New readings no longer show here: your session has ended. Sign in again");
    expect(await note.getByRole("link").getAttribute("href")).toBe(`/signin?next=%2Fbatches%2F${FERMENTING_ID}&expired=1`);
    expect(tab.errors.filter((e) => !e.includes("401"))).toEqual([]);
    await tab.context.close();
  }, 60_000);

  test("a form sent after the session ended: told so, signed in again, back on the form's page, nothing saved", async () => {
    const { tab, page, signedInAt } = await signedInOn(`/batches/${FERMENTING_ID}`);
    await page.getByLabel("Mash pH", { exact: true }).fill("5.4");
    await untilEnded(signedInAt);
    await Promise.all([page.waitForURL("**/signin?**"), page.getByRole("button", { name: "Save measured values" }).click()]);
    expect(new URL(page.url()).search).toBe(`?next=%2Fbatches%2F${FERMENTING_ID}&expired=1`);
    await signInAgain(page, `/batches/${FERMENTING_ID}`);
    expect(await page.getByLabel("Mash pH", { exact: true }).inputValue()).toBe("");
    await tab.context.close();
  }, 60_000);
});
