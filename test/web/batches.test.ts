import { describe, expect, test } from "bun:test";
import { COMPLETED_ID, FERMENTING_ID, importDocument, PLANNING_ID } from "./data.ts";
import { webHarness } from "./helpers.ts";

async function withBatches() {
  const h = await webHarness();
  await h.user("alice");
  await h.user("bob");
  await h.load("alice", importDocument());
  const c = h.client();
  await c.signIn("alice");
  return { h, c };
}

const rowIds = (html: string) => [...html.matchAll(/<a href="\/batches\/([^"]+)">/g)].map((m) => m[1]);

describe("batch list", () => {
  test("lists status, name, batch number and brew date, newest brew first", async () => {
    const { c } = await withBatches();
    const page = await c.get("/batches");
    expect(page.status).toBe(200);
    expect(rowIds(page.text)).toEqual([PLANNING_ID, FERMENTING_ID, COMPLETED_ID]);
    expect(page.text).toContain(
      `<tr>\n<td>Fermenting</td>\n<td><a href="/batches/${FERMENTING_ID}">Spring Pale Ale</a><br><span class="sub">Test Pale Ale</span></td>\n<td class="num">12</td>\n<td><time datetime="2024-03-02">2024-03-02</time></td>\n</tr>`,
    );
  });

  test("a name made of markup is shown as text", async () => {
    const { c } = await withBatches();
    const page = await c.get("/batches");
    expect(page.text).not.toContain("<script>window.__injected");
    expect(page.text).toContain(`&lt;script&gt;window.__injected = 1&lt;/script&gt; &quot;Quoted&quot; &amp; &#39;Co&#39;`);
  });

  test("filter by status", async () => {
    const { c } = await withBatches();
    const page = await c.get("/batches?status=Planning");
    expect(rowIds(page.text)).toEqual([PLANNING_ID]);
    expect(page.text).toContain(`<option value="Planning" selected>Planning</option>`);
    expect((await c.get("/batches?status=Archived")).text).toContain(`<p class="empty" id="no-batches">No batches with status Archived.</p>`);
    const bad = await c.get("/batches?status=%3Cb%3E");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("There is no batch status &quot;&lt;b&gt;&quot;.");
  });

  test("another account sees none of these batches", async () => {
    const { h } = await withBatches();
    const bob = h.client();
    await bob.signIn("bob");
    expect((await bob.get("/batches")).text).toContain("No batches yet.");
    expect((await bob.get(`/batches/${FERMENTING_ID}`)).status).toBe(404);
  });
});

describe("batch page", () => {
  test("shows facts, a chart with one point per value, latest readings, measured values and notes", async () => {
    const { c } = await withBatches();
    const page = await c.get(`/batches/${FERMENTING_ID}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1>Spring Pale Ale</h1>");
    expect(page.text).toContain("<dt>Status</dt><dd>Fermenting</dd><dt>Batch number</dt><dd>12</dd><dt>Recipe</dt><dd>Test Pale Ale</dd>");
    expect(page.text.match(/<circle class="reading-point gravity/g)).toHaveLength(29);
    expect(page.text.match(/<rect class="reading-point temperature/g)).toHaveLength(31);
    expect(page.text).toContain(`<caption>Latest readings (10 of 31), newest first</caption>`);
    expect(page.text).toContain(`<tr><th scope="row">Original gravity</th><td class="num">1.052</td></tr>`);
    expect(page.text).toContain(`<tr><th scope="row">Fermenter volume</th><td class="num">21.5 L</td></tr>`);
    expect(page.text).toContain(`<p class="note-text">Pitched two packs.\nOxygenated 60 s.</p>`);
    expect(page.text).toContain(`2024-03-02 16:00 UTC</time>: status changed to Fermenting</li>`);
  });

  test("a batch without readings says so instead of drawing a chart", async () => {
    const { c } = await withBatches();
    const page = await c.get(`/batches/${PLANNING_ID}`);
    expect(page.text).toContain(`<p class="no-readings">This batch has no readings yet.</p>`);
    expect(page.text).not.toContain("<svg");
    expect(page.text).toContain("No measured values yet.");
  });

  test("a missing batch is a 404 page", async () => {
    const { c } = await withBatches();
    const page = await c.get("/batches/no-such-batch");
    expect(page.status).toBe(404);
    expect(page.text).toContain("<h1>Batch not found</h1>");
  });
});
