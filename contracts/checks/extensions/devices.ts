// Additions: device logging, `POST /stream|/ispindel|/tilt?id=<logging id>` (a stored post answers
// `{"result":"OK"}`; readings go to the batch the device is attached to, in SG and °C), and a batch's
// devices: `GET /v2/devices` (batches.read) with the batch each feeds, `GET/PUT/DELETE
// /v2/batches/{id}/devices/{type}/{name}` (batches.read / batches.write; offsets within -100..100 SG
// points and -20..20 °C). Posts need CONTRACTS_LOGGING_ID. The devices are named with the run prefix;
// each posts once, so the target's minimum interval between stored posts never matters.
import type { Exchange } from "../../client.ts";
import type { Check, Ctx } from "../../engine.ts";
import { assert, deepEqual, expectArray, expectObject, expectStatus, expectText, fail, show } from "../../expect.ts";
import { missingId, type Entry } from "../../data.ts";
import { call, kitBatch, skipUnlessOffered } from "./made.ts";

type DeviceType = "stream" | "iSpindel" | "tilt";
/** A Tilt is named by its colour, which senders write in capitals: the kit's is all capitals already. */
const deviceName = (ctx: Ctx, type: DeviceType) => (type === "tilt" ? `${ctx.runPrefix}tilt`.toUpperCase() : `${ctx.runPrefix}${type.toLowerCase()}`);
const itemPath = (batch: string, type: DeviceType, name: string) => `/v2/batches/${batch}/devices/${type}/${encodeURIComponent(name)}`;

/** The kit's batch for devices, with the device of this type attached (the PUT's answer). */
function attached(ctx: Ctx, type: DeviceType): Promise<{ batch: string; name: string; put: Exchange }> {
  return ctx.once(`extensions device ${type}`, async () => {
    const batch = await kitBatch(ctx, "devices");
    const name = deviceName(ctx, type);
    const put = await call(ctx, { method: "PUT", path: itemPath(batch, type, name) });
    skipUnlessOffered(ctx, put, "PUT /v2/batches/{id}/devices/{type}/{name}");
    return { batch, name, put };
  });
}

/** A device's post with the logging id; a target without the endpoint gets a skip. */
async function post(ctx: Ctx, path: string, body: { json?: unknown; form?: string }, id = ctx.config.loggingId): Promise<Exchange> {
  const ex = await ctx.client.call({ method: "POST", path, query: { id }, ...(body.form === undefined ? { json: body.json } : { raw: body.form, contentType: "application/x-www-form-urlencoded" }) });
  skipUnlessOffered(ctx, ex, `POST ${path}`);
  return ex;
}

type Body = (name: string) => { json?: unknown; form?: string };

/** The device's one post of the run (attached first), however many checks look at it. */
function postedOnce(ctx: Ctx, type: DeviceType, path: string, body: Body): Promise<{ batch: string; ex: Exchange }> {
  return ctx.once(`extensions posted ${type}`, async () => {
    const { batch, name, put } = await attached(ctx, type);
    expectStatus(put, 200);
    return { batch, ex: await post(ctx, path, body(name)) };
  });
}

/** The post's answer must be the stored one; returns the batch's reading that has the values. */
async function loggedReading(ctx: Ctx, type: DeviceType, path: string, body: Body, match: (r: Entry) => boolean): Promise<{ reading: Entry; list: Exchange }> {
  const { batch, ex } = await postedOnce(ctx, type, path, body);
  const answer = expectObject(ex);
  if (!deepEqual(answer, { result: "OK" })) fail(`a stored post answers {"result":"OK"}, got ${ex.body}`, ex);
  const list = await call(ctx, { method: "GET", path: `/v2/batches/${batch}/readings` });
  const found = expectArray(list).find(match);
  if (!found) fail(`no reading of the post in the batch's readings: ${list.body.slice(0, 600)}`, list);
  return { reading: found, list };
}

const streamBody: Body = (name) => ({ json: { name, temp: 18.5, gravity: 1.012 } });

const near = (v: unknown, x: number, tolerance: number) => typeof v === "number" && Math.abs(v - x) <= tolerance;

async function devicesList(ctx: Ctx, type: DeviceType, name: string): Promise<{ ex: Exchange; entry?: Entry }> {
  const ex = await call(ctx, { method: "GET", path: "/v2/devices" });
  return { ex, entry: expectArray(ex).find((d) => d.type === type && d.name === name) };
}

export const DEVICE_CHECKS: Check[] = [
  {
    name: "PUT /v2/batches/{id}/devices/stream/{name} attaches the device: 200 with its item, naming the batch",
    needs: ["creates"],
    async run(ctx) {
      const { batch, name, put } = await attached(ctx, "stream");
      const item = expectObject(put);
      if (item.name !== name || item.type !== "stream" || item.batchId !== batch) fail(`the item ${show(item)} does not name ${name}, stream and ${batch}`, put);
    },
  },
  {
    name: "POST /stream?id=<logging id> of an attached device answers {\"result\":\"OK\"} and its reading shows in the batch's readings and readings/last",
    needs: ["creates", "logging"],
    async run(ctx) {
      const { reading, list } = await loggedReading(ctx, "stream", "/stream", streamBody, (r) => r.sg === 1.012);
      assert(reading.temp === 18.5, `the reading's temp is ${show(reading.temp)}, posted 18.5 °C`, list);
      const { batch } = await attached(ctx, "stream");
      const ex = await call(ctx, { method: "GET", path: `/v2/batches/${batch}/readings/last` });
      const last = expectObject(ex);
      if (last.sg !== 1.012 || last.temp !== 18.5) fail(`readings/last ${show(last)} is not the posted reading`, ex);
    },
  },
  {
    name: "POST /ispindel of an attached device (gravity in °P, its name without [SG]) shows in the batch's readings in SG and °C",
    needs: ["creates", "logging"],
    async run(ctx) {
      const body = (name: string) => ({ json: { name, ID: 1234567, angle: 40.5, temperature: 20.5, temp_units: "C", battery: 4.1, gravity: 12, interval: 900, RSSI: -60 } });
      const { reading, list } = await loggedReading(ctx, "iSpindel", "/ispindel", body, (r) => r.temp === 20.5);
      // 12 °P is 1.048 to 1.049 by every common conversion.
      assert(near(reading.sg, 1.0485, 0.0015), `12 °P stored as sg ${show(reading.sg)}, expected about 1.0485`, list);
    },
  },
  {
    name: "POST /tilt of an attached Tilt (TiltPi's form, Temp in °F) shows in the batch's readings in °C",
    needs: ["creates", "logging"],
    async run(ctx) {
      const { reading, list } = await loggedReading(ctx, "tilt", "/tilt", (name) => ({ form: `Color=${encodeURIComponent(name)}&SG=1.015&Temp=68&Beer=Kit` }), (r) => r.sg === 1.015);
      assert(near(reading.temp, 20, 0.01), `68 °F stored as temp ${show(reading.temp)}, expected 20 °C`, list);
    },
  },
  {
    name: "GET /v2/devices lists an attached device with the batch it feeds",
    needs: ["creates"],
    async run(ctx) {
      const { batch, name } = await attached(ctx, "stream");
      const { ex, entry } = await devicesList(ctx, "stream", name);
      if (entry?.batchId !== batch) fail(`the device ${name} is listed as ${show(entry)}, expected batchId ${batch}`, ex);
    },
  },
  {
    name: "GET /v2/batches/{id}/devices/{type}/{name} reads an attached device's item",
    needs: ["creates"],
    async run(ctx) {
      const { batch, name } = await attached(ctx, "stream");
      const ex = await call(ctx, { method: "GET", path: itemPath(batch, "stream", name) });
      const item = expectObject(ex);
      if (item.name !== name || item.type !== "stream" || item.batchId !== batch) fail(`the item ${show(item)} does not name ${name}, stream and ${batch}`, ex);
    },
  },
  {
    name: "PUT of a device with gravityOffset 101 or tempOffset -21 (outside -100..100 and -20..20) is 400",
    needs: ["creates"],
    async run(ctx) {
      const { batch, name } = await attached(ctx, "iSpindel");
      for (const json of [{ gravityOffset: 101 }, { tempOffset: -21 }]) expectStatus(await call(ctx, { method: "PUT", path: itemPath(batch, "iSpindel", name), json }), 400);
    },
  },
  {
    name: "DELETE /v2/batches/{id}/devices/{type}/{name} answers 200 `Deleted`; then the item is 404 and the device feeds no batch",
    needs: ["creates"],
    tags: ["text"],
    async run(ctx) {
      const { batch, name } = await attached(ctx, "stream");
      expectText(ctx, await call(ctx, { method: "DELETE", path: itemPath(batch, "stream", name) }), 200, "Deleted");
      expectStatus(await call(ctx, { method: "GET", path: itemPath(batch, "stream", name) }), 404);
      const { ex, entry } = await devicesList(ctx, "stream", name);
      if (!entry || entry.batchId !== null) fail(`after detaching, the device ${name} is listed as ${show(entry)}, expected batchId null`, ex);
    },
  },
  {
    name: "PUT of a device on a missing batch is 404",
    needs: ["creates"],
    async run(ctx) {
      await attached(ctx, "stream");
      expectStatus(await call(ctx, { method: "PUT", path: itemPath(missingId(ctx), "stream", deviceName(ctx, "stream")) }), 404);
    },
  },
  {
    name: "a post with an unknown or without a logging id is refused with a 4xx, never {\"result\":\"OK\"} (the status and text are the server's choice)",
    needs: ["creates", "logging"],
    async run(ctx) {
      // Only on a target that offers the endpoint: without it, a 404 would pass for a refusal.
      await postedOnce(ctx, "stream", "/stream", streamBody);
      for (const id of [`${ctx.runPrefix}not-a-logging-id`, undefined]) {
        const ex = await ctx.client.call({ method: "POST", path: "/stream", query: { id }, json: { name: deviceName(ctx, "stream"), temp: 4 } });
        if (ex.status < 400 || ex.status >= 500) fail(`expected a 4xx refusal, got ${ex.status}`, ex);
      }
    },
  },
  {
    name: "device endpoints need their scopes: 401 `Unauthorized` for GET /v2/devices without credentials, 403 `Forbidden` for PUT and DELETE with a read-only key",
    needs: ["creates", "readonly"],
    tags: ["text"],
    async run(ctx) {
      await attached(ctx, "stream");
      expectText(ctx, await ctx.client.call({ method: "GET", path: "/v2/devices" }), 401, "Unauthorized");
      const account = ctx.account("readonly");
      const path = itemPath(missingId(ctx), "stream", deviceName(ctx, "stream"));
      for (const method of ["PUT", "DELETE"]) expectText(ctx, await ctx.client.call({ method, path, account }), 403, "Forbidden");
    },
  },
];
