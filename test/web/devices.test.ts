import { describe, expect, test } from "bun:test";
import { CONFIRM_REGENERATE } from "../../src/web/devices.ts";
import { NOT_FEEDING, NOT_SEEN } from "../../src/web/batch-devices.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { FERMENTING_ID, importDocument, PLANNING_ID } from "./data.ts";
import { basic, webHarness, type Client, type WebHarness } from "./helpers.ts";

// Settings › Devices and a batch's devices on its page (README, Web pages; Devices), in process over
// one store, with devices posting through the real logging endpoints and the API reading back what the
// pages did.

const idOf = (html: string) => /<input id="new-logging-id" class="api-key" type="text" readonly value="([\w-]{43})"/.exec(html)?.[1];

async function account(options = {}) {
  // Every post is stored: the interval rule has its own tests (test/devices).
  const h = await webHarness(3600, options, { LOGGING_MIN_INTERVAL_SECONDS: "0" });
  await h.user("alice");
  await h.load("alice", importDocument());
  const c = h.client();
  await c.signIn("alice");
  const key = await issueApiKey(h.store, "alice", ["batches.read", "batches.write"]);
  const api = async (path: string, init: RequestInit = {}) => {
    const res = await h.api.handle(new Request(`http://localhost${path}`, { ...init, headers: { authorization: basic("alice", key), "content-type": "application/json" } }));
    return { status: res.status, text: await res.text() };
  };
  return { h, c, api };
}

async function makeId(c: Client): Promise<string> {
  return idOf((await c.post("/settings/logging-id", { csrf: await c.token() })).text)!;
}

async function post(h: WebHarness, id: string, body: object, path = "/stream") {
  const res = await h.api.handle(new Request(`http://localhost${path}?id=${id}`, { method: "POST", body: JSON.stringify(body) }));
  return [res.status, await res.text()];
}

describe("settings › devices: the logging id", () => {
  test("the settings page links to Settings › Devices", async () => {
    const { c } = await account();
    expect((await c.get("/settings")).text).toContain(`<a href="/settings/devices" id="devices-link">Settings › Devices</a>`);
  });

  test("without a logging id: says so, offers Make logging id, and shows the URLs with a placeholder", async () => {
    const { c } = await account();
    const page = await c.get("/settings/devices");
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<p id="logging-id-state">This account has no logging id yet.`);
    expect(page.text).toContain(`<button type="submit" id="make-logging-id">Make logging id</button>`);
    expect(page.text).not.toContain(`name="confirm"`);
    for (const path of ["stream", "ispindel", "tilt"]) expect(page.text).toContain(`<li><code class="url">http://localhost/${path}?id=&lt;logging id&gt;</code></li>`);
    expect(page.text).toContain(`<p id="devices-seen">No device has posted to this account yet.`);
  });

  test("the page says how often a device's post is stored: LOGGING_MIN_INTERVAL_SECONDS, or every post at 0", async () => {
    const fifteen = await webHarness(3600, { loggingMinIntervalSeconds: 900 });
    const every = await webHarness(3600, { loggingMinIntervalSeconds: 0 });
    for (const [h, text] of [[fifteen, "One post per device is stored every 15 min"], [every, "Every post is stored"]] as const) {
      await h.user("alice");
      const c = h.client();
      await c.signIn("alice");
      expect((await c.get("/settings/devices")).text).toContain(`<p class="hint" id="logging-interval">${text} (<code>LOGGING_MIN_INTERVAL_SECONDS</code>`);
    }
  });

  test("Make logging id shows it once, in the URLs too; devices post with it; the page never shows it again", async () => {
    const { h, c } = await account();
    const made = await c.post("/settings/logging-id", { csrf: await c.token() });
    expect(made.status).toBe(200);
    const id = idOf(made.text)!;
    expect(id).toMatch(/^[\w-]{43}$/);
    expect(made.text).toContain(`<code class="url">http://localhost/ispindel?id=${id}</code>`);
    expect(made.text).toContain(`<script src="/static/copy.js" defer></script>`);
    expect(made.text).not.toContain("The previous logging id no longer works.");
    expect(await post(h, id, { name: "Cellar", temp: 12 })).toEqual([200, '{"result":"OK"}']);
    const later = await c.get("/settings/devices");
    expect(later.text).not.toContain(id);
    expect(later.text).toContain(`<p id="logging-id-state">This account's logging id was made <time datetime=`);
    expect(later.text).toContain(`<button type="submit" id="make-logging-id">Regenerate logging id</button>`);
  });

  test("regenerating needs the box ticked: without it 400 and the old id keeps working; with it the old id is refused at once", async () => {
    const { h, c } = await account();
    const first = await makeId(c);
    const unconfirmed = await c.post("/settings/logging-id", { csrf: await c.token() });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.text).toContain(`<p class="error" role="alert" id="logging-id-error">${CONFIRM_REGENERATE}</p>`);
    expect(await post(h, first, { name: "Cellar", temp: 12 })).toEqual([200, '{"result":"OK"}']);

    const again = await c.post("/settings/logging-id", { csrf: await c.token(), confirm: "yes" });
    expect(again.status).toBe(200);
    const second = idOf(again.text)!;
    expect(second).not.toBe(first);
    expect(again.text).toContain("The previous logging id no longer works.");
    expect(await post(h, first, { name: "Cellar", temp: 13 })).toEqual([400, "Invalid logging id"]);
    expect(await post(h, second, { name: "Cellar", temp: 13 })).toEqual([200, '{"result":"OK"}']);
  });

  test("a post without the CSRF token is 403 and makes no logging id", async () => {
    const { h, c } = await account();
    const page = await c.post("/settings/logging-id", {});
    expect(page.status).toBe(403);
    expect(await h.store.getLoggingId("alice")).toBeUndefined();
  });

  test("with LOGGING_PORT set, each URL has a plain-HTTP twin on that port of the same host", async () => {
    const { c } = await account({ loggingPort: 8081 });
    const page = await c.get("/settings/devices");
    expect(page.text).toContain(`<ul><li><code class="url">http://localhost/tilt?id=&lt;logging id&gt;</code></li><li><code class="url">http://localhost:8081/tilt?id=&lt;logging id&gt;</code></li></ul>`);
    expect(page.text).toContain("plain-HTTP listener on port 8081 (<code>LOGGING_PORT</code>)");
  });

  test("every device seen: its last values, when, and the batch it feeds or that it feeds none", async () => {
    const { h, c, api } = await account();
    const id = await makeId(c);
    expect((await api(`/v2/batches/${FERMENTING_ID}/devices/stream/Cellar`, { method: "PUT" })).status).toBe(200);
    await post(h, id, { name: "Cellar", temp: 18.5, gravity: 1.012, battery: 4.1, pressure: 1, pressure_unit: "BAR" });
    await post(h, id, { name: "Garage [SG]", ID: 42, angle: 30.5, temperature: 64.4, temp_units: "F", gravity: 1.05, battery: 3.9, RSSI: -71 }, "/ispindel");
    const page = await c.get("/settings/devices");
    const items = [...page.text.matchAll(/<li class="device">([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items).toHaveLength(2);
    const cellar = items.find((i) => i.includes("<h3>Cellar <span class=\"sub\">Custom Stream</span></h3>"))!;
    expect(cellar).toContain(`<div><dt>Gravity</dt><dd>1.012</dd></div><div><dt>Temperature</dt><dd>18.5 °C</dd></div><div><dt>Pressure</dt><dd>14.5 PSI</dd></div><div><dt>Battery</dt><dd>4.10 V</dd></div>`);
    expect(cellar).toContain(`<p class="device-batch">Feeds <a href="/batches/${FERMENTING_ID}">Spring Pale Ale</a>.</p>`);
    expect(cellar).toMatch(/<p class="device-when">Last post <time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/);
    const garage = items.find((i) => i.includes("<h3>Garage <span class=\"sub\">iSpindel</span></h3>"))!;
    expect(garage).toContain(`<div><dt>Gravity</dt><dd>1.050</dd></div><div><dt>Temperature</dt><dd>18.0 °C</dd></div><div><dt>Battery</dt><dd>3.90 V</dd></div><div><dt>Angle</dt><dd>30.5°</dd></div><div><dt>Signal</dt><dd>-71 dBm</dd></div>`);
    expect(garage).toContain("Attached to no batch: its posts are kept with the device.");
  });
});

/** Alice with a logging id and a stream device `Cellar` that has posted once, attached to no batch. */
async function withDevice() {
  const a = await account();
  const id = await makeId(a.c);
  await post(a.h, id, { name: "Cellar", temp: 18.5, gravity: 1.012 });
  return { ...a, id };
}

const itemOf = async (api: Awaited<ReturnType<typeof account>>["api"], type = "stream", name = "Cellar") => api(`/v2/batches/${FERMENTING_ID}/devices/${type}/${name}`);

describe("a batch's devices on its page", () => {
  test("no device feeds a batch at first; Attach lists the account's device, with where it posts now", async () => {
    const { c } = await withDevice();
    const page = await c.get(`/batches/${FERMENTING_ID}`);
    expect(page.text).toContain(`<p id="batch-devices">No device feeds this batch.</p>`);
    expect(page.text).toContain(`<select id="attach-device" name="device"><option value="stream/Cellar">Cellar (Custom Stream), attached to no batch</option></select>`);
    expect(page.text).toContain(`<script src="/static/live.js" defer></script>`);
    expect(page.headers.get("content-security-policy")).toEndWith("; connect-src 'self'");
  });

  test("without any device, the page says where devices come from", async () => {
    const { c } = await account();
    expect((await c.get(`/batches/${FERMENTING_ID}`)).text).toContain(`<p id="attach-none">No other device has posted to this account.`);
  });

  test("Attach attaches as the API does; the device's next post is a reading of the batch and its values show on the page", async () => {
    const { h, c, api, id } = await withDevice();
    const done = await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
    expect([done.status, done.location]).toEqual([303, `/batches/${FERMENTING_ID}?devices=attached#devices-heading`]);
    const item = await itemOf(api);
    expect(item.status).toBe(200);
    expect(JSON.parse(item.text)).toMatchObject({ name: "Cellar", key: "CELLAR", type: "stream", batchId: FERMENTING_ID, settings: { gravityOffset: null, tempOffset: null } });

    await post(h, id, { name: "Cellar", temp: 19.25, gravity: 1.011 });
    const last = JSON.parse((await api(`/v2/batches/${FERMENTING_ID}/readings/last`)).text);
    expect(last).toMatchObject({ sg: 1.011, temp: 19.25, type: "stream", id: "CELLAR" });
    const page = await c.get(`/batches/${FERMENTING_ID}?devices=attached`);
    expect(page.text).toContain(`<p class="notice" role="status" id="devices-outcome">Device attached: its new posts go to this batch.</p>`);
    expect(page.text).toContain(`<h3>Cellar <span class="sub">Custom Stream</span></h3>`);
    expect(page.text).toContain(`<div><dt>Gravity</dt><dd>1.011</dd></div><div><dt>Temperature</dt><dd>19.3 °C</dd></div>`);
    expect(page.text).toContain(`<button type="submit" class="secondary">Detach Cellar</button>`);
    expect(page.text).toContain(`<p id="attach-none">`);
  });

  test("Detach detaches: the API no longer finds the item, the batch's readings stay, and new posts stay with the device", async () => {
    const { h, c, api, id } = await withDevice();
    await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
    await post(h, id, { name: "Cellar", temp: 19, gravity: 1.011 });
    const readings = (await api(`/v2/batches/${FERMENTING_ID}/readings`)).text;
    const done = await c.post(`/batches/${FERMENTING_ID}/devices/detach`, { csrf: await c.token(), device: "stream/Cellar" });
    expect([done.status, done.location]).toEqual([303, `/batches/${FERMENTING_ID}?devices=detached#devices-heading`]);
    expect((await itemOf(api)).status).toBe(404);
    await post(h, id, { name: "Cellar", temp: 20, gravity: 1.01 });
    expect((await api(`/v2/batches/${FERMENTING_ID}/readings`)).text).toBe(readings);
    expect(JSON.parse((await api("/v2/devices/stream/Cellar/readings")).text).map((r: { temp: number }) => r.temp)).toEqual([18.5, 20]);
  });

  test("offsets are saved on the batch's item with the API's rules and apply to the next post", async () => {
    const { h, c, api, id } = await withDevice();
    await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
    const done = await c.post(`/batches/${FERMENTING_ID}/devices/offsets`, { csrf: await c.token(), device: "stream/Cellar", gravityOffset: " 2 ", tempOffset: "" });
    expect([done.status, done.location]).toEqual([303, `/batches/${FERMENTING_ID}?devices=saved#devices-heading`]);
    expect(JSON.parse((await itemOf(api)).text).settings).toEqual({ gravityOffset: 2, tempOffset: null });
    expect((await c.get(`/batches/${FERMENTING_ID}`)).text).toMatch(/name="gravityOffset" type="text" inputmode="decimal" autocomplete="off" value="2"/);
    await post(h, id, { name: "Cellar", temp: 19, gravity: 1.011 });
    expect(JSON.parse((await api(`/v2/batches/${FERMENTING_ID}/readings/last`)).text)).toMatchObject({ sg: 1.013, temp: 19 });
  });

  const refusedOffsets: Array<[name: string, fields: Record<string, string>, message: string, field: string]> = [
    ["a word for the gravity offset", { gravityOffset: "two", tempOffset: "" }, "Invalid gravityOffset", "gravityOffset"],
    ["a gravity offset past 100 points", { gravityOffset: "100.5", tempOffset: "" }, "Invalid gravityOffset", "gravityOffset"],
    ["a temperature offset past 20 °C", { gravityOffset: "1", tempOffset: "-21" }, "Invalid tempOffset", "tempOffset"],
  ];
  for (const [name, fields, message, field] of refusedOffsets) {
    test(`${name} is 400 ${message} (the API's message), the box marked, and nothing changed`, async () => {
      const { c, api } = await withDevice();
      await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
      const before = (await itemOf(api)).text;
      const page = await c.post(`/batches/${FERMENTING_ID}/devices/offsets`, { csrf: await c.token(), device: "stream/Cellar", ...fields });
      expect(page.status).toBe(400);
      expect(page.text).toMatch(new RegExp(`<p class="error" role="alert" id="error-stream-[0-9a-f]+">${message}</p>`));
      expect(page.text).toMatch(new RegExp(`name="${field}" type="text" inputmode="decimal" autocomplete="off" value="${fields[field]}" aria-describedby="[^"]+" aria-invalid="true">`));
      expect((await itemOf(api)).text).toBe(before);
    });
  }

  test("attaching a device that never posted, or detaching one that feeds another batch, is 400 and changes nothing", async () => {
    const { c, api } = await withDevice();
    const forged = await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Nobody" });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain(`<p class="error" role="alert" id="attach-error">${NOT_SEEN}</p>`);
    expect(JSON.parse((await api("/v2/devices")).text).map((d: { name: string }) => d.name)).toEqual(["Cellar"]);
    for (const device of ["nothing", "brewPiLess/Cellar", "stream/"]) {
      expect((await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device })).status).toBe(400);
    }

    await c.post(`/batches/${PLANNING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
    const wrong = await c.post(`/batches/${FERMENTING_ID}/devices/detach`, { csrf: await c.token(), device: "stream/Cellar" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(`<p class="error" role="alert" id="devices-error">${NOT_FEEDING}</p>`);
    const offsets = await c.post(`/batches/${FERMENTING_ID}/devices/offsets`, { csrf: await c.token(), device: "stream/Cellar", gravityOffset: "1" });
    expect(offsets.status).toBe(400);
    expect(JSON.parse((await api("/v2/devices")).text)[0]).toMatchObject({ name: "Cellar", batchId: PLANNING_ID, settings: { gravityOffset: 0, tempOffset: 0 } });
  });

  test("device forms without the CSRF token are 403, and on a missing batch 404; nothing changes", async () => {
    const { c, api } = await withDevice();
    for (const form of ["attach", "detach", "offsets"]) {
      expect((await c.post(`/batches/${FERMENTING_ID}/devices/${form}`, { device: "stream/Cellar", gravityOffset: "1" })).status).toBe(403);
      expect((await c.post(`/batches/no-such-batch/devices/${form}`, { csrf: await c.token(), device: "stream/Cellar" })).status).toBe(404);
    }
    expect(JSON.parse((await api("/v2/devices")).text)[0]).toMatchObject({ batchId: null, settings: { gravityOffset: 0, tempOffset: 0 } });
  });
});

describe("the batch page's new readings (live.js's JSON)", () => {
  const live = (c: Client, path: string) => c.get(path, { accept: "application/json" });

  test("nothing newer than the newest shown: just `after`; a device's post: the parts drawn again with it", async () => {
    const { h, c, api, id } = await withDevice();
    await c.post(`/batches/${FERMENTING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
    const page = await c.get(`/batches/${FERMENTING_ID}`);
    const after = /<div id="readings-live" data-live="\/batches\/web-fermenting-0001\/live" data-after="(\d+)" data-every="5000">/.exec(page.text)?.[1];
    expect(after).toBe(String(Date.UTC(2024, 2, 9, 16)));

    const quiet = await live(c, `/batches/${FERMENTING_ID}/live?after=${after}`);
    expect([quiet.status, quiet.headers.get("content-type"), quiet.text]).toEqual([200, "application/json; charset=utf-8", `{"after":${after}}`]);

    await post(h, id, { name: "Cellar", temp: 19.5, gravity: 1.01 });
    const fresh = await live(c, `/batches/${FERMENTING_ID}/live?after=${after}`);
    const body = JSON.parse(fresh.text) as { after: number; parts: Record<string, string> };
    const last = JSON.parse((await api("/v2/devices")).text)[0].lastLog;
    expect(body.after).toBe(last);
    expect(Object.keys(body.parts)).toEqual(["readings-live", `now-stream-${Buffer.from("CELLAR").toString("hex")}`]);
    // Both drawings, each with the 29 + 1 gravity points, the new one marked last.
    expect(body.parts["readings-live"]!.match(/<circle class="reading-point gravity/g)).toHaveLength(60);
    expect(body.parts["readings-live"]!.match(/<circle class="reading-point gravity last"/g)).toHaveLength(2);
    expect(body.parts["readings-live"]).toContain(`data-after="${last}"`);
    expect(body.parts["readings-live"]).toContain(`<dd id="current-gravity">1.010</dd>`);
    expect(body.parts[`now-stream-${Buffer.from("CELLAR").toString("hex")}`]).toContain(`<div><dt>Gravity</dt><dd>1.010</dd></div>`);
  });

  test("signed out is 401 and a missing batch 404, both as JSON", async () => {
    const { h, c } = await withDevice();
    const stranger = h.client();
    const out = await live(stranger, `/batches/${FERMENTING_ID}/live?after=0`);
    expect([out.status, out.text]).toEqual([401, `{"error":"Signed out"}`]);
    const missing = await live(c, "/batches/no-such-batch/live");
    expect([missing.status, missing.text]).toEqual([404, `{"error":"Batch not found"}`]);
  });

  test("a batch without readings gives its parts at the first reading, with no `after` before it", async () => {
    const { h, c, id } = await withDevice();
    await c.post(`/batches/${PLANNING_ID}/devices/attach`, { csrf: await c.token(), device: "stream/Cellar" });
    expect((await c.get(`/batches/${PLANNING_ID}`)).text).toContain(`data-after=""`);
    expect((await live(c, `/batches/${PLANNING_ID}/live?after=`)).text).toBe(`{"after":null}`);
    await post(h, id, { name: "Cellar", temp: 19.5, gravity: 1.01 });
    const body = JSON.parse((await live(c, `/batches/${PLANNING_ID}/live?after=`)).text);
    expect(body.parts["readings-live"]).toContain(`<svg class="reading-chart wide"`);
  });
});
