// The logging endpoints in process, on SQLite and (TEST_STORE=postgres) PostgreSQL: exact statuses and
// bodies of every refusal, and the bodies real senders send (docs/decisions.md, Devices).
import { beforeEach, describe, expect, test } from "bun:test";
import { issueLoggingId } from "../../src/devices/logging-id.ts";
import { attachToBatch } from "../../src/devices/service.ts";
import { openApp, type Harness } from "../http/harness.ts";

let h: Harness;
let id: string;

beforeEach(async () => {
  h = await openApp({ loggingMinIntervalSeconds: 0 });
  await h.account("dora");
  await h.load("dora", { batches: [{ _id: "b1", name: "b1", devices: { stream: { items: [{ name: "S" }] } } }] });
  id = await issueLoggingId(h.store, "dora");
});

const post = (path: string, body: string | undefined, headers: Record<string, string> = {}) =>
  h.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers, body })).then(async (r) => [r.status, await r.text()]);
const readings = async () => (await h.store.readings("dora", "b1")) ?? "[]";

describe("refused posts store nothing", () => {
  const CASES: Array<[name: string, path: (id: string) => string, body: string | undefined, headers: Record<string, string>, status: number, text: string]> = [
    ["an empty body is 400 Missing body", (i) => `/stream?id=${i}`, undefined, {}, 400, "Missing body"],
    ["an empty id is 400 Missing logging id", () => "/stream?id=", '{"name":"S","temp":1}', {}, 400, "Missing logging id"],
    ["an id of the wrong shape is 400 Invalid logging id", () => "/stream?id=short", '{"name":"S","temp":1}', {}, 400, "Invalid logging id"],
    ["a JSON array is 400 Body must be a JSON object", (i) => `/stream?id=${i}`, "[1]", {}, 400, "Body must be a JSON object"],
    ["JSON nested past 64 levels is 400", (i) => `/stream?id=${i}`, "[".repeat(70) + "]".repeat(70), {}, 400, "Invalid JSON: nested too deeply"],
    ["a declared length past 16 KiB is 413", (i) => `/stream?id=${i}`, JSON.stringify({ name: "S", temp: 1, pad: "x".repeat(17_000) }), {}, 413, "Payload Too Large"],
    ["a form without Color is 400 Missing Color", (i) => `/tilt?id=${i}`, "SG=1.050&Temp=68", { "content-type": "application/x-www-form-urlencoded" }, 400, "Missing Color"],
  ];
  for (const [name, path, body, headers, status, text] of CASES) {
    test(name, async () => {
      expect(await post(path(id), body, headers)).toEqual([status, text]);
      expect(await readings()).toBe("[]");
    });
  }

  test("a streamed body past 16 KiB is 413", async () => {
    const big = new TextEncoder().encode(JSON.stringify({ name: "S", temp: 1, pad: "x".repeat(20_000) }));
    const stream = new ReadableStream({ start: (c) => (c.enqueue(big), c.close()) });
    const res = await h.app.handle(new Request(`http://localhost/stream?id=${id}`, { method: "POST", body: stream }));
    expect([res.status, await res.text()]).toEqual([413, "Payload Too Large"]);
    expect(await readings()).toBe("[]");
  });
});

describe("bodies as senders send them", () => {
  test("JSON sent as text/plain is read as JSON", async () => {
    expect(await post(`/stream?id=${id}`, '{"name":"S","temp":20}', { "content-type": "text/plain" })).toEqual([200, '{"result":"OK"}']);
    expect(JSON.parse(await readings())).toHaveLength(1);
  });

  test("JSON with no content type is read as JSON", async () => {
    expect(await post(`/stream?id=${id}`, '{"name":"S","temp":21}')).toEqual([200, '{"result":"OK"}']);
  });

  test("JSON labelled as a form (curl -d without a type, tilty) is read as JSON", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect(await post(`/stream?id=${id}`, ' {"name":"S","temp":22}', form)).toEqual([200, '{"result":"OK"}']);
    expect(await post(`/tilt?id=${id}`, '{"Color":"Black","SG":"1.012","Temp":"68"}', form)).toEqual([200, '{"result":"OK"}']);
    expect(JSON.parse(await readings())).toEqual([expect.objectContaining({ id: "S", temp: 22 })]);
    expect((await h.store.devices("dora")).find((d) => d.name === "BLACK")!.lastData!.sg).toBe(1.012);
  });

  test("a form repeating a key takes its first value", async () => {
    expect(await post(`/tilt?id=${id}`, "Color=RED&SG=1.050&SG=1.060", { "content-type": "application/x-www-form-urlencoded" })).toEqual([200, '{"result":"OK"}']);
    expect((await h.store.devices("dora")).find((d) => d.name === "RED")!.lastData!.sg).toBe(1.05);
  });

  test("two devices of one batch posting one time both keep their readings; a device's retry replaces its own", async () => {
    for (const name of ["ORANGE", "PINK"]) await attachToBatch(h.store, "dora", { type: "tilt", name }, "b1", {});
    const form = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };
    // TiltPi's form; a CraftBeerPi plugin sends every colour with one Timepoint, to the second.
    const tilt = (color: string, sg: string) => post(`/tilt?id=${id}`, `Timepoint=46354.25&Temp=66&SG=${sg}&Beer=Untitled&Color=${color}&Comment=`, form);
    expect(await tilt("ORANGE", "1.048")).toEqual([200, '{"result":"OK"}']);
    expect(await tilt("PINK", "1.050")).toEqual([200, '{"result":"OK"}']);
    expect(await tilt("PINK", "1.051")).toEqual([200, '{"result":"OK"}']);
    const stored = (JSON.parse(await readings()) as Array<{ id: string; sg: number; time: number }>).map((r) => [r.id, r.sg, r.time]);
    const at = stored[0]![2];
    expect(stored).toEqual([["ORANGE", 1.048, at], ["PINK", 1.051, at]]);
  });

  test("devices of one batch posting at once are all stored, whatever time they are received at", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `S${i}`);
    for (const name of names) await attachToBatch(h.store, "dora", { type: "stream", name }, "b1", {});
    const answers = await Promise.all(names.map((name, i) => post(`/stream?id=${id}`, JSON.stringify({ name, temp: 10 + i }))));
    expect(answers).toEqual(names.map(() => [200, '{"result":"OK"}']));
    const stored = JSON.parse(await readings()) as Array<{ id: string; temp: number }>;
    expect(stored.map((r) => [r.id, r.temp]).sort()).toEqual(names.map((name, i) => [name, 10 + i]).sort());
  });

  test("GET on a logging path is 404, as an unknown route", async () => {
    const res = await h.app.handle(new Request(`http://localhost/stream?id=${id}`));
    expect(res.status).toBe(404);
  });
});
