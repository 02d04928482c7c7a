import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { webHarness } from "./helpers.ts";

// Settings › Webhooks' forms in process (the browser test walks the happy path): each form acts on the
// signed-in account's webhooks only, needs the page's CSRF token, and a refused change leaves the
// webhook as it was.

const HOOK = "http://127.0.0.1:9/hook";

async function twoAccounts() {
  const h = await webHarness(3600, { webhookAllowHosts: ["127.0.0.1"] });
  await h.user("alice");
  await h.user("bob");
  const alice = h.client();
  const bob = h.client();
  await alice.signIn("alice");
  await bob.signIn("bob");
  const made = await alice.post("/settings/webhooks", { csrf: await alice.token(), url: HOOK, event: ["batch.updated"] });
  expect(made.status).toBe(200);
  const id = /id="webhook-(wh_[\w-]+)"/.exec(made.text)![1]!;
  const listed = async () => (await h.store.webhooks("alice")).map((w) => [w.id, w.url, w.events, w.pending]);
  return { h, alice, bob, id, listed };
}

/** The subscription's sealed secret as stored. */
const sealed = async (h: Awaited<ReturnType<typeof webHarness>>, id: string) =>
  ((h.store as unknown as { db: Database }).db.query("SELECT secret FROM webhooks WHERE id = ?").get(id) as { secret: string }).secret;

describe("settings › webhooks forms", () => {
  test("the add form sent again adds no second webhook: 409, the list as it is", async () => {
    const { h, alice, listed } = await twoAccounts();
    const page = (await alice.get("/settings")).text;
    const fields = { csrf: await alice.token(), beside: /name="beside" value="([^"]*)"/.exec(page)![1]!, url: "http://127.0.0.1:9/second", event: ["recipe.created"] };
    expect(fields.beside).toBe((await h.store.webhooks("alice"))[0]!.id);
    expect((await alice.post("/settings/webhooks", fields)).status).toBe(200);
    const twice = await listed();
    expect(twice).toHaveLength(2);
    const again = await alice.post("/settings/webhooks", fields);
    expect(again.status).toBe(409);
    expect(again.text).toContain("This form was sent before, or the webhooks changed since the page was shown: no webhook was added. The list above is the current one.");
    expect(again.text).not.toContain("new-webhook-secret");
    expect(await listed()).toEqual(twice);
  });

  test("another account's webhook: change, test, new secret and delete are 404 and leave it as it was", async () => {
    const { bob, id, listed } = await twoAccounts();
    const before = await listed();
    const posts: Array<[string, Record<string, string | string[]>]> = [
      [`/settings/webhooks/${id}/change`, { url: "http://127.0.0.1:9/bob", event: ["recipe.created"] }],
      [`/settings/webhooks/${id}/test`, {}],
      [`/settings/webhooks/${id}/secret`, {}],
      [`/settings/webhooks/${id}/delete`, {}],
    ];
    for (const [path, fields] of posts) {
      const res = await bob.post(path, { csrf: await bob.token(), ...fields });
      expect([path, res.status, res.text.includes(`<p class="error" role="alert" id="webhook-error">That webhook no longer exists.</p>`)]).toEqual([path, 404, true]);
    }
    expect(await listed()).toEqual(before);
  });

  test("without the page's CSRF token nothing changes, no test event is recorded and the secret stays", async () => {
    const { h, alice, id, listed } = await twoAccounts();
    const before = await listed();
    const sealedBefore = await sealed(h, id);
    for (const path of [`/settings/webhooks/${id}/change`, `/settings/webhooks/${id}/test`, `/settings/webhooks/${id}/secret`]) {
      const res = await alice.post(path, { csrf: "forged", url: "http://127.0.0.1:9/forged", event: ["recipe.created"] });
      expect([path, res.status]).toEqual([path, 403]);
    }
    expect(await listed()).toEqual(before);
    expect(await sealed(h, id)).toBe(sealedBefore);
  });

  test("a change with no event is refused in the webhook's own card, with what was posted, and changes nothing", async () => {
    const { alice, id, listed } = await twoAccounts();
    const before = await listed();
    const res = await alice.post(`/settings/webhooks/${id}/change`, { csrf: await alice.token(), url: "http://127.0.0.1:9/elsewhere" });
    expect(res.status).toBe(400);
    const card = res.text.slice(res.text.indexOf(`id="webhook-${id}"`));
    expect(card).toContain(`<details class="change" open>`);
    expect(card).toContain(`<p class="error" role="alert">Choose at least one event.</p>`);
    expect(card).toContain(`value="http://127.0.0.1:9/elsewhere"`);
    expect(await listed()).toEqual(before);
  });

  test("a test event from the page is recorded for that webhook and named by its id", async () => {
    const { alice, id, listed } = await twoAccounts();
    const res = await alice.post(`/settings/webhooks/${id}/test`, { csrf: await alice.token() });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<p class="test-sent" role="status">A test event \(<code>msg_[\w-]{22}<\/code>\) is on its way; reload to see how it went\.<\/p>/);
    expect(await listed()).toEqual([[id, HOOK, ["batch.updated"], 1]]);
  });
});

test("a new secret from the page is shown once, says until when the previous one signs, and is never listed", async () => {
  const { h, alice, id } = await twoAccounts();
  const before = await sealed(h, id);
  const res = await alice.post(`/settings/webhooks/${id}/secret`, { csrf: await alice.token() });
  expect(res.status).toBe(200);
  const secret = /<input id="new-webhook-secret" class="api-key" type="text" readonly value="(whsec_[A-Za-z0-9+/]{43}=)"/.exec(res.text)?.[1];
  expect(secret).toBeDefined();
  expect(res.text).toContain(`<h3 id="new-webhook-heading">The webhook&#39;s new secret</h3>`);
  expect(res.text).toMatch(/Until <time datetime="[^"]+">[^<]+<\/time> deliveries are signed with the previous secret too/);
  expect(await sealed(h, id)).not.toEqual(before);
  expect((await alice.get("/settings")).text).not.toContain(secret!.slice(6));
});
