import { describe, expect, test } from "bun:test";
import { hashPassword } from "../../src/web/password.ts";
import { csrfOf, PASSWORD, webHarness } from "./helpers.ts";

describe("sign-in", () => {
  test("a page asked for without a session redirects to sign-in and back afterwards", async () => {
    const h = await webHarness();
    await h.user("alice");
    const c = h.client();
    const first = await c.get("/batches?status=Fermenting");
    expect(first.status).toBe(303);
    expect(first.location).toBe("/signin?next=%2Fbatches%3Fstatus%3DFermenting");
    const form = await c.get(first.location!);
    expect(form.text).toContain(`<input type="hidden" name="next" value="/batches?status=Fermenting">`);
    const done = await c.post("/signin", { csrf: csrfOf(form.text)!, userId: "alice", password: PASSWORD, next: "/batches?status=Fermenting" });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/batches?status=Fermenting");
    expect((await c.get("/batches")).status).toBe(200);
  });

  test("the session cookie is HttpOnly, SameSite=Strict, Path=/, outlives the configured time by a day, and is Secure behind HTTPS", async () => {
    const h = await webHarness(7200);
    await h.user("alice");
    const plain = await h.client().signIn("alice");
    // The session ends after 7,200 s (signed in the cookie); the browser keeps the cookie a day longer,
    // so the page asked for then can say the session ended.
    expect(plain.setCookie).toMatch(/^brewrecords_session=[\w-]+\.[\w-]{43}; Path=\/; Max-Age=93600; HttpOnly; SameSite=Strict$/);
    const c = h.client();
    const form = await c.get("/signin", { "x-forwarded-proto": "https" });
    expect(form.setCookie).toEndWith("; HttpOnly; SameSite=Strict; Secure");
    const secure = await c.post("/signin", { csrf: csrfOf(form.text)!, userId: "alice", password: PASSWORD }, { "x-forwarded-proto": "https" });
    expect(secure.status).toBe(303);
    expect(secure.setCookie).toMatch(/; Max-Age=93600; HttpOnly; SameSite=Strict; Secure$/);
  });

  test("a wrong password and an unknown user get the same 401 answer", async () => {
    const h = await webHarness();
    await h.user("alice");
    const wrong = await h.client().signIn("alice", "not the password");
    const unknown = await h.client().signIn("nobody", PASSWORD);
    for (const page of [wrong, unknown]) {
      expect(page.status).toBe(401);
      expect(page.setCookie).toBeNull();
      expect(page.text).toContain(`<p class="error" role="alert" id="signin-error">Wrong user id or password.</p>`);
    }
  });

  test("an account without a password cannot sign in", async () => {
    const h = await webHarness();
    await h.user("keyonly", null);
    expect((await h.client().signIn("keyonly", "")).status).toBe(400);
    expect((await h.client().signIn("keyonly", "anything at all")).status).toBe(401);
  });

  test("a sign-in post without the form's CSRF token is refused with 403", async () => {
    const h = await webHarness();
    await h.user("alice");
    const c = h.client();
    const form = await c.get("/signin");
    const missing = await c.post("/signin", { userId: "alice", password: PASSWORD });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain("<h1>Form not accepted</h1>");
    // A token from another visitor's cookie does not fit this one.
    const other = csrfOf((await h.client().get("/signin")).text)!;
    expect((await c.post("/signin", { csrf: other, userId: "alice", password: PASSWORD })).status).toBe(403);
    expect((await c.post("/signin", { csrf: csrfOf(form.text)!, userId: "alice", password: PASSWORD })).status).toBe(303);
  });

  test("the sixth wrong password from one address locks the account there for a second, even with the right password, then doubles", async () => {
    const h = await webHarness();
    await h.user("alice");
    const c = h.client();
    for (let i = 0; i < 6; i++) expect((await c.signIn("alice", `wrong ${i}`)).status).toBe(401);
    const locked = await c.signIn("alice", PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("1");
    expect(locked.text).toContain("Too many failed sign-ins. Wait 1 second and try again.");
    h.clock.now += 1000;
    expect((await c.signIn("alice", "wrong again")).status).toBe(401);
    expect((await c.signIn("alice", PASSWORD)).headers.get("retry-after")).toBe("2");
    h.clock.now += 2000;
    expect((await c.signIn("alice", PASSWORD)).status).toBe(303);
  });

  test("an ended session redirects to sign-in saying so, and drops the cookie", async () => {
    const h = await webHarness(60);
    await h.user("alice");
    const c = h.client();
    await c.signIn("alice");
    h.clock.now += 59_999;
    expect((await c.get("/settings")).status).toBe(200);
    h.clock.now += 1;
    const ended = await c.get("/settings");
    expect(ended.status).toBe(303);
    expect(ended.location).toBe("/signin?next=%2Fsettings&expired=1");
    expect(ended.setCookie).toStartWith("brewrecords_session=; Path=/; Max-Age=0;");
    expect((await c.get(ended.location!)).text).toContain(`<p class="notice" role="status">Your session has ended. Please sign in again.</p>`);
  });

  test("a form sent after the session ended goes to sign in saying so, then back to the form's page", async () => {
    const h = await webHarness(60);
    await h.user("alice");
    const c = h.client();
    await c.signIn("alice");
    const csrf = await c.token();
    h.clock.now += 60_000;
    const forms: Array<[string, string]> = [
      ["/batches/b%20one/measured", "/signin?next=%2Fbatches%2Fb%2520one&expired=1"],
      ["/batches/b1/devices/attach", "/signin?next=%2Fbatches%2Fb1&expired=1"],
      ["/inventory/hops/h1/stock", "/signin?next=%2Finventory%2Fhops&expired=1"],
      ["/settings/api-key", "/signin?next=%2Fsettings&expired=1"],
      ["/settings/webhooks/wh_1/delete", "/signin?next=%2Fsettings&expired=1"],
      ["/settings/logging-id", "/signin?next=%2Fsettings%2Fdevices&expired=1"],
    ];
    for (const [path, location] of forms) {
      const res = await h.request(path, { method: "POST", cookie: c.cookie!, headers: { "content-type": "application/x-www-form-urlencoded" }, body: `csrf=${csrf}&x=1` });
      expect([path, res.status, res.location]).toEqual([path, 303, location]);
    }
    // Signed in again from that page, the viewer is back on it.
    const back = h.client();
    const form = await back.get("/signin?next=%2Fbatches%2Fb1&expired=1");
    const done = await back.post("/signin", { csrf: csrfOf(form.text)!, userId: "alice", password: PASSWORD, next: "/batches/b1" });
    expect([done.status, done.location]).toEqual([303, "/batches/b1"]);
  });

  test("a password change ends the sessions signed in with the old one", async () => {
    const h = await webHarness();
    await h.user("alice");
    const c = h.client();
    await c.signIn("alice");
    expect((await c.get("/settings")).status).toBe(200);
    await h.store.setPassword("alice", await hashPassword("a whole new password"));
    expect((await c.get("/settings")).location).toBe("/signin?next=%2Fsettings&expired=1");
  });

  test("signing out needs the token, then the same cookie no longer works", async () => {
    const h = await webHarness();
    await h.user("alice");
    const c = h.client();
    await c.signIn("alice");
    const kept = c.cookie;
    expect((await c.post("/signout", {})).status).toBe(403);
    const out = await c.post("/signout", { csrf: await c.token() });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/signin?signedout=1");
    expect(c.cookie).toBeUndefined();
    expect((await h.request("/settings", { cookie: kept })).location).toBe("/signin?next=%2Fsettings");
  });

  test("next never leaves the site", async () => {
    const h = await webHarness();
    await h.user("alice");
    for (const next of ["//evil.example/", "/\\evil.example", "https://evil.example/", "javascript:alert(1)"]) {
      const c = h.client();
      const form = await c.get(`/signin?next=${encodeURIComponent(next)}`);
      expect(form.text).not.toContain('name="next"');
      const done = await c.post("/signin", { csrf: csrfOf(form.text)!, userId: "alice", password: PASSWORD, next });
      expect(done.location).toBe("/batches");
    }
  });

  test("pages are never cached and allow no foreign script, style or framing", async () => {
    const h = await webHarness();
    const page = await h.request("/signin");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.text).toStartWith(`<!doctype html>\n<html lang="en">`);
    expect(page.text).toContain(`<label for="user-id">User id</label>`);
    expect(page.text).toContain(`<label for="password">Password</label>`);
  });

  test("an API client that left out /v2 gets the API's 404, not a page", async () => {
    const h = await webHarness();
    const res = await h.api.handle(new Request("http://localhost/batches"));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("Not Found");
    const css = await h.api.handle(new Request("http://localhost/static/style.css"));
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });
});
