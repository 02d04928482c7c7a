// Device posts over HTTP to the real server process, on SQLite and on PostgreSQL, read back exactly
// through the v2 API (README, Devices; docs/decisions.md, Devices).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, STORE_KINDS, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";
import { deviceAccount } from "./accounts.ts";

type Json = Record<string, unknown>;

const OK = '{"result":"OK"}';

/** One batch per device, each device attached to its own; the iSpindel by the imported batch's item. */
const IMPORT = {
  batches: [
    { _id: "b-spindle-p", name: "Plato spindle", status: "Fermenting", devices: { iSpindel: { enabled: true, items: [{ name: "Spindle P", key: "SPINDLE P", type: "iSpindel", batchId: "b-spindle-p", enabled: true, hidden: false, series: ["gravity", "temp"], lastLog: null, lastData: null, settings: { gravityOffset: null, tempOffset: null } }] }, tilt: { enabled: true, mode: "default", items: [] } } },
    ...["b-spindle-sg", "b-stream-c", "b-stream-f", "b-stream-k", "b-twins", "b-misspelled", "b-tilt-form", "b-tilt-json", "b-later", "b-bad"].map((id) => ({ _id: id, name: id, status: "Fermenting" })),
  ],
};

function envFor(dir: string, databaseUrl: string | undefined, extra: Record<string, string> = {}) {
  return { DATABASE_URL: databaseUrl ?? join(dir, "records.sqlite"), DEMO: "0", TZ: "UTC", LOGGING_PORT: "0", ...extra };
}

async function startWithLogging(env: Record<string, string>): Promise<ServerProcess & { loggingUrl: string }> {
  const server = await startServerProcess(env);
  const deadline = Date.now() + 5000;
  let m: RegExpExecArray | null = null;
  while (!(m = /device logging endpoints listening on (http\S+)/.exec(server.output())) && Date.now() < deadline) await Bun.sleep(10);
  if (!m) throw new Error(`no logging listener:\n${server.output()}`);
  return Object.assign(server, { loggingUrl: m[1]! });
}

for (const kind of STORE_KINDS) {
  describe(`device logging over HTTP (${kind})`, () => {
    const dir = tempDir();
    let db: Database | undefined;
    let env: Record<string, string>;
    let server: ServerProcess & { loggingUrl: string };
    let auth: string;
    let loggingId: string;

    beforeAll(async () => {
      if (kind === "postgres") db = await freshPostgres();
      env = envFor(dir.path, db?.url, { LOGGING_MIN_INTERVAL_SECONDS: "0", LOG_LEVEL: "debug" });
      ({ auth, loggingId } = deviceAccount(env, dir.path, "alice", IMPORT));
      server = await startWithLogging(env);
      for (const [batch, type, name] of [["b-spindle-sg", "iSpindel", "Spindle S"], ["b-stream-c", "stream", "Fermenter C"], ["b-stream-f", "stream", "Fermenter F"], ["b-stream-k", "stream", "Fermenter K"], ["b-twins", "stream", "Twins"], ["b-misspelled", "stream", "pitch"], ["b-tilt-form", "tilt", "RED"], ["b-tilt-json", "tilt", "BLUE"]]) {
        const res = await api(`/v2/batches/${batch}/devices/${type}/${encodeURIComponent(name!)}`, { method: "PUT" });
        expect(res.status).toBe(200);
      }
    });

    afterAll(async () => {
      await server?.stop();
      await db?.drop();
      dir.remove();
    }, DROP_TIMEOUT_MS);

    async function api(path: string, init: RequestInit = {}) {
      const res = await fetch(server.url + path, { ...init, headers: { authorization: auth, ...(init.headers as Record<string, string> | undefined) } });
      return { status: res.status, text: await res.text(), headers: res.headers };
    }

    async function post(path: string, body: string, contentType = "application/json", base = server.loggingUrl) {
      const before = Date.now();
      const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": contentType }, body });
      return { status: res.status, text: await res.text(), before, after: Date.now() };
    }

    /** The batch's readings, its last reading and its devices, each read back through the API. */
    async function readBack(batch: string) {
      const readings = await api(`/v2/batches/${batch}/readings`);
      const last = await api(`/v2/batches/${batch}/readings/last`);
      const doc = await api(`/v2/batches/${batch}`);
      return { readings: readings.text, list: JSON.parse(readings.text) as Json[], last: last.status === 200 ? JSON.parse(last.text) : last.status, devices: JSON.parse(doc.text).devices };
    }

    const CASES: Array<{ name: string; batch: string; path: string; body: string; type?: string; reading: Omit<Json, "time">; time?: number; lastData: Json }> = [
      {
        name: "an iSpindel without [SG] posts gravity in Plato, stored in SG, in the imported batch that names it",
        batch: "b-spindle-p", path: "/ispindel",
        body: JSON.stringify({ name: "Spindle P", ID: 6851234, token: "", angle: 52.8, temperature: 19.5, temp_units: "C", battery: 4.08, gravity: 12.5, interval: 900, RSSI: -75 }),
        reading: { sg: 1.0505, temp: 19.5, comment: null, type: "iSpindel", pressure: null, ph: null, battery: 4.08, rssi: -75, angle: 52.8, id: "SPINDLE P" },
        lastData: { sg: 1.0505, temp: 19.5, type: "iSpindel", battery: 4.08, rssi: -75, angle: 52.8, id: "SPINDLE P", status: "success" },
      },
      {
        name: "an iSpindel named with [SG] posts SG in °F",
        batch: "b-spindle-sg", path: "/ispindel",
        body: JSON.stringify({ name: "Spindle S[SG]", ID: 1, angle: 40.25, temperature: 68, temp_units: "F", battery: 3.9, gravity: 1.046, interval: 900, RSSI: -60 }),
        reading: { sg: 1.046, temp: 20, comment: null, type: "iSpindel", pressure: null, ph: null, battery: 3.9, rssi: -60, angle: 40.25, id: "SPINDLE S" },
        lastData: { sg: 1.046, temp: 20, type: "iSpindel", battery: 3.9, rssi: -60, angle: 40.25, id: "SPINDLE S", status: "success" },
      },
      {
        name: "a Custom Stream in C, SG and PSI is stored as sent",
        batch: "b-stream-c", path: "/stream",
        body: JSON.stringify({ name: "Fermenter C", temp: 18.25, aux_temp: 4.5, ext_temp: 21, temp_unit: "C", gravity: 1.0123, gravity_unit: "G", pressure: 12.4, pressure_unit: "PSI", ph: 4.4, bpm: 12, comment: "krausen", beer: "Pils", battery: 3.7, device_integration: "default", report_source: "HomeAutomation" }),
        reading: { sg: 1.0123, temp: 18.25, comment: "krausen", type: "stream", pressure: 12.4, ph: 4.4, battery: 3.7, rssi: null, angle: null, id: "FERMENTER C" },
        lastData: { sg: 1.0123, temp: 18.25, comment: "krausen", type: "stream", pressure: 12.4, ph: 4.4, battery: 3.7, id: "FERMENTER C", auxTemp: 4.5, extTemp: 21, bpm: 12, beer: "Pils", status: "success" },
      },
      {
        name: "a Custom Stream in F, Plato and BAR is converted to C, SG and PSI",
        batch: "b-stream-f", path: "/stream",
        body: JSON.stringify({ name: "Fermenter F", temp: 68, temp_unit: "F", gravity: 10, gravity_unit: "P", pressure: 1, pressure_unit: "BAR" }),
        reading: { sg: 1.04, temp: 20, comment: null, type: "stream", pressure: 14.504, ph: null, battery: null, rssi: null, angle: null, id: "FERMENTER F" },
        lastData: { sg: 1.04, temp: 20, type: "stream", pressure: 14.504, id: "FERMENTER F", status: "success" },
      },
      {
        name: "a Custom Stream in K and KPA with numbers as strings is converted",
        batch: "b-stream-k", path: "/stream",
        body: JSON.stringify({ name: "Fermenter K", temp: "293.15", temp_unit: "K", gravity: "1.050", pressure: "100", pressure_unit: "KPA" }),
        reading: { sg: 1.05, temp: 20, comment: null, type: "stream", pressure: 14.504, ph: null, battery: null, rssi: null, angle: null, id: "FERMENTER K" },
        lastData: { sg: 1.05, temp: 20, type: "stream", pressure: 14.504, id: "FERMENTER K", status: "success" },
      },
      {
        name: "camelCase twins are read as the documented keys",
        batch: "b-twins", path: "/stream",
        body: JSON.stringify({ name: "Twins", temp: 50, tempUnit: "F", auxTemp: 41, gravity: 12, gravityUnit: "P" }),
        reading: { sg: 1.0484, temp: 10, comment: null, type: "stream", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "TWINS" },
        lastData: { sg: 1.0484, temp: 10, type: "stream", id: "TWINS", auxTemp: 5, status: "success" },
      },
      {
        name: "a misspelled gravity_unity is ignored and the default SG applies",
        batch: "b-misspelled", path: "/stream",
        body: JSON.stringify({ name: "pitch", temp: 19, gravity: 1.04, gravity_unity: "P" }),
        reading: { sg: 1.04, temp: 19, comment: null, type: "stream", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "PITCH" },
        lastData: { sg: 1.04, temp: 19, type: "stream", id: "PITCH", status: "success" },
      },
      {
        name: "TiltPi's form: Temp in F, the Timepoint the reading's time (read in the server's zone, UTC here)",
        batch: "b-tilt-form", path: "/tilt", type: "application/x-www-form-urlencoded",
        body: "Timepoint=45658.5&Temp=68&SG=1.052&Beer=Saison&Color=RED&Comment=",
        time: Date.UTC(2025, 0, 1, 12),
        reading: { sg: 1.052, temp: 20, comment: null, type: "tilt", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "RED" },
        lastData: { sg: 1.052, temp: 20, type: "tilt", id: "RED", beer: "Saison", status: "success" },
      },
      {
        name: "Tilt JSON with string values",
        batch: "b-tilt-json", path: "/tilt",
        body: JSON.stringify({ Color: "BLUE", Temp: "50", SG: "1.010", Beer: "", Comment: "dry hop" }),
        reading: { sg: 1.01, temp: 10, comment: "dry hop", type: "tilt", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "BLUE" },
        lastData: { sg: 1.01, temp: 10, comment: "dry hop", type: "tilt", id: "BLUE", status: "success" },
      },
    ];

    for (const c of CASES) {
      test(`${c.name}: 200 OK, and readings, readings/last and the batch's devices show it exactly`, async () => {
        const res = await post(`${c.path}?id=${loggingId}`, c.body, c.type);
        expect(res).toMatchObject({ status: 200, text: OK });
        const back = await readBack(c.batch);
        expect(back.list).toHaveLength(1);
        const time = back.list[0]!.time as number;
        if (c.time !== undefined) expect(time).toBe(c.time);
        else expect(time >= res.before && time <= res.after).toBe(true);
        expect(Number.isInteger(time)).toBe(true);
        expect(back.list).toEqual([{ time, ...c.reading }]);
        expect(back.last).toEqual({ time, ...c.reading });
        const type = c.path === "/stream" ? "stream" : c.path === "/tilt" ? "tilt" : "iSpindel";
        const item = back.devices[type].items[0];
        expect(item.lastData).toEqual({ time, ...c.lastData });
        expect(item.lastLog >= res.before && item.lastLog <= res.after).toBe(true);
        if (c.reading.rssi !== null) expect(back.readings).toContain(`"rssi":${c.reading.rssi}`);
      });
    }

    test("the imported batch keeps its other device types and its item's own fields", async () => {
      const { devices } = await readBack("b-spindle-p");
      expect(devices.tilt).toEqual({ enabled: true, mode: "default", items: [] });
      expect(devices.iSpindel.items[0]).toMatchObject({ name: "Spindle P", key: "SPINDLE P", batchId: "b-spindle-p", series: ["gravity", "temp"] });
    });

    const BAD: Array<{ name: string; path: string; body: string; status: number; text: string }> = [
      { name: "no id", path: "/stream", body: JSON.stringify({ name: "Bad", temp: 1 }), status: 400, text: "Missing logging id" },
      { name: "a wrong id", path: "/stream?id=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", body: JSON.stringify({ name: "Bad", temp: 1 }), status: 400, text: "Invalid logging id" },
      { name: "no name", path: "/stream?id=ID", body: JSON.stringify({ temp: 1 }), status: 400, text: "Missing name" },
      { name: "no value", path: "/stream?id=ID", body: JSON.stringify({ name: "Bad", comment: "x" }), status: 400, text: "No value: send at least one of temp, gravity, pressure, ph, bpm, battery, angle" },
      { name: "a non-numeric value", path: "/ispindel?id=ID", body: JSON.stringify({ name: "Bad", gravity: "heavy" }), status: 400, text: "Invalid gravity" },
      { name: "malformed JSON", path: "/stream?id=ID", body: '{"name":"Bad",', status: 400, text: "Invalid JSON" },
      { name: "an oversized body", path: "/stream?id=ID", body: JSON.stringify({ name: "Bad", temp: 1, pad: "x".repeat(20_000) }), status: 413, text: "Payload Too Large" },
    ];

    for (const bad of BAD) {
      test(`${bad.name} is ${bad.status} ${bad.text}, and nothing is stored`, async () => {
        const before = { devices: (await api("/v2/devices")).text, batch: await readBack("b-bad") };
        const res = await post(bad.path.replace("=ID", `=${loggingId}`), bad.body);
        expect([res.status, res.text]).toEqual([bad.status, bad.text]);
        expect((await api("/v2/devices")).text).toBe(before.devices);
        expect(await readBack("b-bad")).toEqual(before.batch);
      });
    }

    test("a device attached to no batch is listed with its post, and attaching it sends only new posts to the batch", async () => {
      expect((await post(`/stream?id=${loggingId}`, JSON.stringify({ name: "Loose", temp: 17 }))).text).toBe(OK);
      const listed = (JSON.parse((await api("/v2/devices")).text) as Json[]).find((d) => d.name === "Loose")!;
      expect(listed).toMatchObject({ type: "stream", name: "Loose", batchId: null, lastData: { temp: 17, type: "stream", id: "LOOSE", status: "success" } });
      const kept = JSON.parse((await api("/v2/devices/stream/Loose/readings")).text);
      expect(kept).toEqual([{ time: listed.lastLog, sg: null, temp: 17, comment: null, type: "stream", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "LOOSE" }]);
      expect((await api("/v2/batches/b-later/devices/stream/Loose", { method: "PUT", body: JSON.stringify({ tempOffset: 0.5 }), headers: { "content-type": "application/json" } })).status).toBe(200);
      expect((await post(`/stream?id=${loggingId}`, JSON.stringify({ name: "Loose", temp: 18 }))).text).toBe(OK);
      const back = await readBack("b-later");
      expect(back.list.map((r) => r.temp)).toEqual([18.5]);
      expect(JSON.parse((await api("/v2/devices/stream/Loose/readings")).text)).toEqual(kept);
      expect(back.devices.stream.items[0]).toMatchObject({ key: "LOOSE", batchId: "b-later", settings: { gravityOffset: null, tempOffset: 0.5 } });
    });

    test("the logging listener serves only the logging endpoints", async () => {
      const res = await fetch(`${server.loggingUrl}/v2/batches`, { headers: { authorization: auth } });
      expect([res.status, await res.text()]).toEqual([404, "Not Found"]);
      expect((await fetch(`${server.loggingUrl}/healthz`)).status).toBe(404);
    });

    test("logging posts never spend the API key's rate limit", async () => {
      const first = await api("/v2/batches?limit=1");
      const remaining = Number(first.headers.get("x-ratelimit-remaining"));
      for (let i = 0; i < 20; i++) expect((await post(`/stream?id=${loggingId}`, JSON.stringify({ name: `Rate ${i % 3}`, temp: i }))).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await post(`/tilt?id=${loggingId}`, JSON.stringify({ Color: "GREEN", SG: 1.01 }), "application/json", server.url)).status).toBe(200);
      const second = await api("/v2/batches?limit=1");
      expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
    });

    test("the server's log names the logging routes and never the logging id", () => {
      expect(server.output()).toContain('"route":"/stream"');
      expect(server.output()).not.toContain(loggingId);
    });

    test("logging-id without --regenerate refuses to show the id again; --regenerate stops the old id at once", async () => {
      const nobody = cli(["logging-id", "nobody"], env);
      expect([nobody.code, nobody.stdout]).toEqual([1, ""]);
      expect(nobody.stderr).toContain("no user nobody");
      const again = cli(["logging-id", "alice"], env);
      expect(again.code).toBe(1);
      expect(again.stdout).toBe("");
      expect(again.stderr).toContain("cannot be shown again");
      const renewed = cli(["logging-id", "alice", "--regenerate"], env);
      expect(renewed.code).toBe(0);
      const next = renewed.stdout.trim();
      expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(next).not.toBe(loggingId);
      expect(await post(`/stream?id=${loggingId}`, JSON.stringify({ name: "Old", temp: 1 }))).toMatchObject({ status: 400, text: "Invalid logging id" });
      expect(await post(`/stream?id=${next}`, JSON.stringify({ name: "New", temp: 1 }))).toMatchObject({ status: 200, text: OK });
      loggingId = next;
    });
  });
}
