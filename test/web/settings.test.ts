import { describe, expect, test } from "bun:test";
import { SCOPES } from "../../src/lib/scopes.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { basic, webHarness } from "./helpers.ts";

async function signedIn() {
  const h = await webHarness();
  await h.user("alice");
  const c = h.client();
  await c.signIn("alice");
  return { h, c };
}

const keyOf = (html: string) => /<input id="new-key" class="api-key" type="text" readonly value="([\w-]+)"/.exec(html)?.[1];
const api = (h: Awaited<ReturnType<typeof signedIn>>["h"], path: string, key: string) =>
  h.api.handle(new Request(`http://localhost${path}`, { headers: { authorization: basic("alice", key) } }));

describe("settings › API key", () => {
  test("without a key: the user id, nine scope boxes with labels, only the three read scopes ticked, and Generate key", async () => {
    const { c } = await signedIn();
    const page = await c.get("/settings");
    expect(page.text).toContain(`<code id="settings-user-id">alice</code>`);
    expect(page.text).toContain("This account has no API key yet.");
    const boxes = [...page.text.matchAll(/<input type="checkbox" id="scope-[a-z]+-[a-z]+" name="scope" value="([a-z.]+)"( checked)?>/g)];
    expect(boxes).toHaveLength(9);
    expect(boxes.filter((b) => b[2]).map((b) => b[1])).toEqual(["recipes.read", "batches.read", "inventory.read"]);
    for (const s of SCOPES) expect(page.text).toContain(`<label for="scope-${s.replace(".", "-")}"><code>${s}</code>`);
    expect(page.text).toContain(`<button type="submit" id="generate">Generate key</button>`);
  });

  test("Generate key with two scopes shows the key once with a curl line; the API honours exactly those scopes", async () => {
    const { h, c } = await signedIn();
    const page = await c.post("/settings/api-key", { csrf: await c.token(), scope: ["batches.read", "recipes.read"] });
    expect(page.status).toBe(200);
    const key = keyOf(page.text)!;
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(page.text).toContain(`<code id="curl-example">curl -u &#39;alice:${key}&#39; &#39;http://localhost/v2/batches&#39;</code>`);
    expect(page.text).toContain(`<script src="/static/copy.js" defer></script>`);
    expect((await api(h, "/v2/batches", key)).status).toBe(200);
    expect((await api(h, "/v2/recipes", key)).status).toBe(200);
    const lacking = await api(h, "/v2/inventory/fermentables", key);
    expect(lacking.status).toBe(403);
    expect(await lacking.text()).toBe("Forbidden");

    const later = await c.get("/settings");
    expect(later.text).not.toContain(key);
    expect(later.text).toContain(`<ul class="scopes" id="current-scopes"><li><code>recipes.read</code></li><li><code>batches.read</code></li></ul>`);
    // What the key can and cannot do, in plain words; the scopes left out are no fault to alarm about.
    expect(later.text).toContain(`<p id="key-can">It can read recipes; read batches with their readings and brew tracker.</p>`);
    expect(later.text).toContain(`<p id="key-cannot">It cannot create and edit recipes; delete recipes; edit batches; delete batches; read inventory; create and edit inventory; delete inventory.`);
    expect(later.text).not.toContain("regenerate to gain");
    expect(later.text).not.toContain(`class="error"`);
    // A new key starts from the current key's choice.
    expect(later.text).toContain(`<input type="checkbox" id="scope-batches-read" name="scope" value="batches.read" checked>`);
    expect(later.text).toContain(`<input type="checkbox" id="scope-inventory-read" name="scope" value="inventory.read">`);
  });

  test("regenerating refuses the old key at once and grants the new scopes", async () => {
    const { h, c } = await signedIn();
    const first = keyOf((await c.post("/settings/api-key", { csrf: await c.token(), scope: "batches.read" })).text)!;
    const second = keyOf((await c.post("/settings/api-key", { csrf: await c.token(), scope: ["batches.read", "inventory.read"] })).text)!;
    expect(second).not.toBe(first);
    expect((await api(h, "/v2/batches", first)).status).toBe(401);
    expect((await api(h, "/v2/inventory/fermentables", second)).status).toBe(200);
  });

  test("the form sent again (a reload of its answer, a second tab) generates no second key: 409, the key shown still works", async () => {
    const { h, c } = await signedIn();
    const form = (await c.get("/settings")).text;
    const fields = { csrf: /name="csrf" value="([^"]+)"/.exec(form)![1]!, replaces: /name="replaces" value="([^"]*)"/.exec(form)![1]!, scope: "batches.read" };
    expect(fields.replaces).toBe("none");
    const first = await c.post("/settings/api-key", fields);
    const key = keyOf(first.text)!;
    const again = await c.post("/settings/api-key", fields);
    expect(again.status).toBe(409);
    expect(again.text).toContain(`<p class="error" role="alert" id="generate-error">This form was sent before, or the key changed since the page was shown: no key was generated, and the key shown when it was first sent still works. Generate again to replace it.</p>`);
    expect(keyOf(again.text)).toBeUndefined();
    expect((await api(h, "/v2/batches", key)).status).toBe(200);
    // The page shown after carries the current key's tag: its form generates.
    const next = (await c.get("/settings")).text;
    expect(/name="replaces" value="([^"]*)"/.exec(next)![1]).toBe(String((await h.store.getApiKey("alice"))!.createdAt));
    const fresh = await c.post("/settings/api-key", { csrf: fields.csrf, replaces: /name="replaces" value="([^"]*)"/.exec(next)![1]!, scope: "batches.read" });
    expect(fresh.status).toBe(200);
    expect((await api(h, "/v2/batches", key)).status).toBe(401);
  });

  test("a post without the CSRF token or with a wrong one is 403 and leaves the key alone", async () => {
    const { h, c } = await signedIn();
    const key = await issueApiKey(h.store, "alice", ["batches.read"]);
    const forged: Array<Record<string, string>> = [{ scope: "inventory.read" }, { csrf: "x".repeat(43), scope: "inventory.read" }];
    for (const fields of forged) {
      const page = await c.post("/settings/api-key", fields);
      expect(page.status).toBe(403);
      expect(page.text).toContain("its security token is missing or does not match your session. Nothing was changed.");
    }
    expect((await api(h, "/v2/batches", key)).status).toBe(200);
  });

  test("no scope, an unknown scope or a version 1 request is refused with 400 and nothing changes", async () => {
    const { h, c } = await signedIn();
    const key = await issueApiKey(h.store, "alice", ["batches.read"]);
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{}, "Choose at least one scope."],
      [{ scope: ["batches.read", "beer.drink"] }, "Unknown scope: beer.drink."],
      [{ scope: "batches.read", apiVersion: "1" }, "Version 1 keys cannot be generated here."],
    ];
    for (const [fields, message] of cases) {
      const page = await c.post("/settings/api-key", { csrf: await c.token(), ...fields });
      expect(page.status).toBe(400);
      expect(page.text).toContain(`<p class="error" role="alert" id="generate-error">${message}`);
    }
    expect((await api(h, "/v2/batches", key)).status).toBe(200);
  });

  test("a version 1 key is described as such, with what it can and cannot do", async () => {
    const { h, c } = await signedIn();
    await issueApiKey(h.store, "alice", ["recipes.read", "batches.read"], 1);
    const page = await c.get("/settings");
    expect(page.text).toContain("Current key: version 1, created");
    expect(page.text).toContain("Version 1 keys cannot be generated here: Generate key replaces it with a version 2 key.");
    expect(page.text).toContain(`<p id="key-can">It can read recipes; read batches with their readings and brew tracker.</p>`);
    // A version 2 key is chosen afresh, from reading only.
    expect(page.text.match(/ checked>/g)).toHaveLength(3);
  });

  test("a key with every scope says it can do everything and nothing about what it cannot", async () => {
    const { h, c } = await signedIn();
    await issueApiKey(h.store, "alice", [...SCOPES]);
    const page = await c.get("/settings");
    expect(page.text).toContain(`<p id="key-can">It can do everything: read recipes;`);
    expect(page.text).not.toContain(`id="key-cannot"`);
  });

  test("the curl line uses https behind a proxy that says so", async () => {
    const { c } = await signedIn();
    const page = await c.post("/settings/api-key", { csrf: await c.token(), scope: "inventory.read" }, { "x-forwarded-proto": "https" });
    expect(page.text).toContain("&#39;https://localhost/v2/inventory/fermentables&#39;</code>");
  });
});
