import { describe, expect, test } from "bun:test";
import { COMPLETED_ID, FERMENTING_ID, importDocument, PLANNING_ID } from "./data.ts";
import { webHarness } from "./helpers.ts";

/** Three hours after the fermenting batch's last reading (2024-03-09 16:00 UTC). */
export const NOW = Date.UTC(2024, 2, 9, 19);

async function withBatches() {
  const h = await webHarness();
  h.clock.now = NOW;
  await h.user("alice");
  await h.user("bob");
  await h.load("alice", importDocument());
  const c = h.client();
  await c.signIn("alice");
  return { h, c };
}

const rowIds = (html: string) => [...html.matchAll(/<a href="\/batches\/([^"?]+)(?:\?[^"]*)?">/g)].map((m) => m[1]);

describe("batch list", () => {
  test("lists name, batch number, recipe, brew date, status and the last gravity with its age, newest brew first", async () => {
    const { c } = await withBatches();
    const page = await c.get("/batches");
    expect(page.status).toBe(200);
    expect(rowIds(page.text)).toEqual([PLANNING_ID, FERMENTING_ID, COMPLETED_ID]);
    expect(page.text).toContain(
      `<tr>\n<td><a href="/batches/${FERMENTING_ID}">Spring Pale Ale</a><br><span class="sub">#12 · Test Pale Ale · brewed <time datetime="2024-03-02">2024-03-02</time></span></td>\n<td>Fermenting</td>\n<td class="num">1.013<br><span class="sub"><time datetime="2024-03-09T16:00:00.000Z">3 h ago</time></span></td>\n</tr>`,
    );
    expect(page.text).toContain(`<td>Planning</td>\n<td class="num"><span class="sub">none</span></td>`);
  });

  test("a batch named after its recipe shows the name once", async () => {
    const { h, c } = await withBatches();
    await h.load("alice", { batches: [{ _id: "same-name", name: "Test Pale Ale", batchNo: 14, status: "Brewing", brewDate: NOW, recipe: { name: "Test Pale Ale" } }] });
    const page = await c.get("/batches?status=Brewing");
    expect(page.text).toContain(`>Test Pale Ale</a><br><span class="sub">#14 · brewed <time`);
    expect(page.text.match(/Test Pale Ale/g)).toHaveLength(1);
  });

  test("the last gravity skips a later reading without one (a manual temperature check)", async () => {
    const { h, c } = await withBatches();
    const readings = [
      { time: NOW - 5 * 3_600_000, sg: 1.02, temp: 19, comment: "", type: "iSpindel", id: "s" },
      { time: NOW - 3_600_000, sg: null, temp: 18.5, comment: "", type: "manual", id: "manual" },
    ];
    await h.load("alice", { batches: [{ _id: "manual-last", name: "Manual last", status: "Conditioning", readings }] });
    const page = await c.get("/batches?status=Conditioning");
    expect(page.text).toContain(`<td class="num">1.020<br><span class="sub"><time datetime="${new Date(NOW - 5 * 3_600_000).toISOString()}">5 h ago</time></span></td>`);
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
    // The filter is kept on the way to a batch and back.
    expect(page.text).toContain(`<a href="/batches/${PLANNING_ID}?list=Planning">Winter Stout</a>`);
    const batch = await c.get(`/batches/${PLANNING_ID}?list=Planning`);
    expect(batch.text).toContain(`<p class="crumbs"><a href="/batches?status=Planning">Planning batches</a></p>`);
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
    // Drawn twice, wide and narrow (src/web/chart.ts).
    expect(page.text.match(/<circle class="reading-point gravity/g)).toHaveLength(2 * 29);
    expect(page.text.match(/<rect class="reading-point temperature/g)).toHaveLength(2 * 31);
    expect(page.text).toContain(`<caption>Latest readings (10 of 31), newest first</caption>`);
    expect(page.text).toContain(`<input id="m-measuredOg" name="measuredOg" type="text" inputmode="decimal" autocomplete="off" value="1.052"`);
    expect(page.text).toContain(`<input id="m-measuredBatchSize" name="measuredBatchSize" type="text" inputmode="decimal" autocomplete="off" value="21.5"`);
    expect(page.text).toContain(`<tr><th scope="row">Original gravity</th><td class="num">1.050</td></tr>`);
    expect(page.text).toContain(`<p class="note-text">Pitched two packs.\nOxygenated 60 s.</p>`);
    expect(page.text).toContain(`2024-03-02 16:00 UTC</time>: status changed to Fermenting</li>`);
  });

  test("a batch without readings says so instead of drawing a chart", async () => {
    const { c } = await withBatches();
    const page = await c.get(`/batches/${PLANNING_ID}`);
    expect(page.text).toContain(`<p class="no-readings">This batch has no readings yet.</p>`);
    expect(page.text).not.toContain("<svg");
    expect(page.text).toContain(`<input id="m-measuredOg" name="measuredOg" type="text" inputmode="decimal" autocomplete="off" value=""`);
    expect(page.text).not.toContain(`id="fermentation-figures"`);
  });

  test("the figures of fermentation so far: gravity, attenuation and ABV from the measured OG, the last 24 h, the age", async () => {
    const { c } = await withBatches();
    const page = await c.get(`/batches/${FERMENTING_ID}`);
    const figure = (id: string) => new RegExp(`<dd id="${id}">(.*?)</dd>`).exec(page.text)?.[1];
    expect(figure("current-gravity")).toBe("1.013");
    // (1.052 − 1.013) / 0.052 = 75.0 %; (1.052 − 1.013) × 131.25 = 5.1 %
    expect(figure("attenuation-so-far")).toBe("75.0 %");
    expect(figure("abv-so-far")).toBe("5.1 %");
    // 2024-03-08 16:00 read 1.014.
    expect(figure("gravity-change")).toBe("−0.001");
    expect(page.text).toContain("<dt>Change, last 24 h</dt>");
    expect(figure("last-reading-age")).toBe(`<time datetime="2024-03-09T16:00:00.000Z">3 h ago</time>`);
    expect(page.text).toContain("From an original gravity of 1.052 (measured OG).");
    expect(page.text).toContain(`<script src="/static/chart.js" defer></script>`);
  });

  test("a missing batch is a 404 page", async () => {
    const { c } = await withBatches();
    const page = await c.get("/batches/no-such-batch");
    expect(page.status).toBe(404);
    expect(page.text).toContain("<h1>Batch not found</h1>");
  });
});
