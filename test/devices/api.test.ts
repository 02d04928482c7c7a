// A batch's devices through the API, beyond the hosted API (README; docs/decisions.md, Devices): one
// table per endpoint, exact statuses and bodies, and what a refused write left unchanged.
import { describe, expect } from "bun:test";
import { runTable, world, type Scenario, type World } from "../http/harness.ts";
import { ATTACHED_BATCH_ID, attachedBatch } from "./fixtures.ts";

const ITEM = `/v2/batches/${ATTACHED_BATCH_ID}/devices/iSpindel/Ispindel000`;
const makeWorld = () =>
  world({
    alice: { data: { batches: [attachedBatch(), { _id: "b-other", name: "other", status: "Planning" }] } },
    reader: { scopes: ["batches.read"], data: { batches: [{ _id: "b-own", name: "own" }] } },
    mallory: {},
  });
const as = (who: string, method: string, url: string, rest: Partial<Scenario> & Pick<Scenario, "name" | "status">): Scenario => ({ method, url, as: who, ...rest });

const batchDoc = async (w: World, id: string) => JSON.parse((await w.h.call("GET", `/v2/batches/${id}`, w.accounts.alice!)).text);
const itemsOf = async (w: World, id: string, type: string) => (await batchDoc(w, id)).devices?.[type]?.items ?? [];
const deviceBatches = async (w: World) =>
  (JSON.parse((await w.h.call("GET", "/v2/devices", w.accounts.alice!)).text) as Array<{ name: string; batchId: string | null }>).map((d) => [d.name, d.batchId]);
const unchanged = async (w: World) => expect(await batchDoc(w, ATTACHED_BATCH_ID)).toEqual(JSON.parse(JSON.stringify(attachedBatch())));

const IMPORTED_ITEM = (attachedBatch().devices as { iSpindel: { items: unknown[] } }).iSpindel.items[0];

describe("GET /v2/batches/{id}/devices/{type}/{name}", () => {
  runTable(
    [
      as("alice", "GET", ITEM, { name: "an imported batch's item is read by the device's name", status: 200, json: IMPORTED_ITEM }),
      as("alice", "GET", `/v2/batches/${ATTACHED_BATCH_ID}/devices/iSpindel/ISPINDEL000`, { name: "the name is read in any letter case", status: 200, json: IMPORTED_ITEM }),
      as("alice", "GET", `/v2/batches/${ATTACHED_BATCH_ID}/devices/tilt/RED`, { name: "a device the batch does not hold is 404", status: 404, text: "Not Found" }),
      as("alice", "GET", `/v2/batches/${ATTACHED_BATCH_ID}/devices/plaato/x`, { name: "an unknown device type is 404", status: 404, text: "Not Found" }),
      as("alice", "GET", "/v2/batches/nope/devices/iSpindel/Ispindel000", { name: "a missing batch is 404", status: 404, text: "Not Found" }),
      as("mallory", "GET", ITEM, { name: "another account's batch is 404", status: 404, text: "Not Found" }),
      { name: "no credentials is 401", method: "GET", url: ITEM, as: null, status: 401, text: "Unauthorized" },
    ],
    makeWorld,
  );
});

describe("PUT /v2/batches/{id}/devices/{type}/{name}", () => {
  runTable(
    [
      as("alice", "PUT", "/v2/batches/b-other/devices/tilt/Red", {
        name: "attaching a device never seen makes the item with no offsets",
        status: 200,
        json: { name: "RED", key: "RED", type: "tilt", batchId: "b-other", enabled: true, hidden: false, series: ["gravity", "temp"], lastLog: null, lastData: null, settings: { gravityOffset: null, tempOffset: null } },
        after: async (w) => expect(await deviceBatches(w)).toEqual([["Ispindel000", ATTACHED_BATCH_ID], ["RED", "b-other"]]),
      }),
      as("alice", "PUT", ITEM, {
        name: "offsets sent change, numeric strings count, the rest of the item stays",
        body: { tempOffset: "-0.5" },
        status: 200,
        json: { ...(IMPORTED_ITEM as object), settings: { gravityOffset: -6, tempOffset: -0.5 } },
      }),
      as("alice", "PUT", "/v2/batches/b-other/devices/iSpindel/Ispindel000", {
        name: "attaching to another batch moves the item, keeping its offsets",
        status: 200,
        json: { name: "Ispindel000", key: "ISPINDEL000", type: "iSpindel", batchId: "b-other", enabled: true, hidden: false, series: ["gravity", "temp"], lastLog: null, lastData: null, settings: { gravityOffset: -6, tempOffset: null } },
        after: async (w) => {
          expect(await itemsOf(w, ATTACHED_BATCH_ID, "iSpindel")).toEqual([]);
          expect(await itemsOf(w, "b-other", "iSpindel")).toHaveLength(1);
        },
      }),
      as("alice", "PUT", ITEM, { name: "a gravity offset past 100 points is 400 Invalid gravityOffset, nothing written", body: { gravityOffset: 101 }, status: 400, text: "Invalid gravityOffset", after: unchanged }),
      as("alice", "PUT", ITEM, { name: "a non-numeric temp offset is 400 Invalid tempOffset", body: { tempOffset: "warm" }, status: 400, text: "Invalid tempOffset", after: unchanged }),
      as("alice", "PUT", ITEM, { name: "malformed JSON is 400 Invalid JSON", raw: "{", headers: { "content-type": "application/json" }, status: 400, text: "Invalid JSON", after: unchanged }),
      as("alice", "PUT", "/v2/batches/b-other/devices/iSpindel/ispindel000", {
        name: "a name in another case attaches the device the account knows, not a second one",
        status: 200,
        json: { name: "Ispindel000", key: "ISPINDEL000", type: "iSpindel", batchId: "b-other", enabled: true, hidden: false, series: ["gravity", "temp"], lastLog: null, lastData: null, settings: { gravityOffset: -6, tempOffset: null } },
        after: async (w) => expect(await deviceBatches(w)).toEqual([["Ispindel000", "b-other"]]),
      }),
      as("alice", "PUT", "/v2/batches/b-other/devices/stream/100%25%20Brett", {
        name: "a name is decoded once: 100%25%20Brett is the device 100% Brett",
        status: 200,
        json: { name: "100% Brett", key: "100% BRETT", type: "stream", batchId: "b-other", enabled: true, hidden: false, series: ["gravity", "temp", "pressure"], lastLog: null, lastData: null, settings: { gravityOffset: null, tempOffset: null } },
        after: async (w) => expect((await w.h.call("GET", "/v2/batches/b-other/devices/stream/100%25%20brett", w.accounts.alice!)).json().name).toBe("100% Brett"),
      }),
      as("alice", "PUT", `/v2/batches/b-other/devices/stream/${"a".repeat(65)}`, { name: "a name of 65 characters is 400 Invalid name, as a post's", status: 400, text: "Invalid name", after: async (w) => expect(await deviceBatches(w)).toEqual([["Ispindel000", ATTACHED_BATCH_ID]]) }),
      as("alice", "PUT", "/v2/batches/b-other/devices/stream/a%2Fb", { name: "a name with a slash is 400 Invalid name", status: 400, text: "Invalid name", after: async (w) => expect(await deviceBatches(w)).toEqual([["Ispindel000", ATTACHED_BATCH_ID]]) }),
      as("alice", "PUT", "/v2/batches/b-other/devices/stream/%00x", { name: "a name with a control character is 400 Invalid name", status: 400, text: "Invalid name" }),
      as("alice", "PUT", "/v2/batches/nope/devices/stream/a%2Fb", { name: "a missing batch is 404 before a bad name's 400", status: 404, text: "Not Found" }),
      as("alice", "PUT", "/v2/batches/nope/devices/tilt/Red", { name: "a missing batch is 404 before a bad body's 400", body: { gravityOffset: "x" }, status: 404, text: "Not Found" }),
      as("reader", "PUT", "/v2/batches/b-own/devices/tilt/Red", { name: "a key without batches.write is 403", status: 403, text: "Forbidden" }),
      as("mallory", "PUT", ITEM, { name: "another account's batch is 404 and stays unchanged", status: 404, text: "Not Found", after: unchanged }),
    ],
    makeWorld,
  );
});

describe("DELETE /v2/batches/{id}/devices/{type}/{name}", () => {
  runTable(
    [
      as("alice", "DELETE", ITEM, {
        name: "detaching removes the item and keeps the entry of its type",
        status: 200,
        text: "Deleted",
        after: async (w) => {
          expect((await batchDoc(w, ATTACHED_BATCH_ID)).devices.iSpindel).toEqual({ enabled: true, items: [] });
          expect(await deviceBatches(w)).toEqual([["Ispindel000", null]]);
        },
      }),
      as("alice", "DELETE", `/v2/batches/${ATTACHED_BATCH_ID}/devices/iSpindel/ISPINDEL000`, {
        name: "a name in another case detaches the device the account knows",
        status: 200,
        text: "Deleted",
        after: async (w) => expect(await deviceBatches(w)).toEqual([["Ispindel000", null]]),
      }),
      as("alice", "DELETE", `/v2/batches/${ATTACHED_BATCH_ID}/devices/stream/a%2Fb`, { name: "a name no device may have is 404", status: 404, text: "Not Found", after: unchanged }),
      as("alice", "DELETE", "/v2/batches/b-other/devices/iSpindel/Ispindel000", { name: "a device the batch does not hold is 404", status: 404, text: "Not Found", after: unchanged }),
      as("reader", "DELETE", "/v2/batches/b-own/devices/tilt/Red", { name: "a key without batches.write is 403", status: 403, text: "Forbidden" }),
    ],
    makeWorld,
  );
});

describe("GET /v2/devices", () => {
  runTable(
    [
      as("alice", "GET", "/v2/devices", {
        name: "a device an imported batch names is listed, attached to it, before its first post",
        status: 200,
        json: [{ type: "iSpindel", name: "Ispindel000", batchId: ATTACHED_BATCH_ID, lastLog: null, lastData: null, settings: { gravityOffset: 0, tempOffset: 0 }, firstSeen: expect.any(Number) }],
      }),
      as("mallory", "GET", "/v2/devices", { name: "an account with no device has none", status: 200, text: "[]" }),
      { name: "no credentials is 401", method: "GET", url: "/v2/devices", as: null, status: 401, text: "Unauthorized" },
    ],
    makeWorld,
  );
});

describe("GET /v2/devices/{type}/{name}/readings", () => {
  runTable(
    [
      as("alice", "GET", "/v2/devices/iSpindel/Ispindel000/readings", { name: "a device that kept no reading has an empty list", status: 200, text: "[]" }),
      as("alice", "GET", "/v2/devices/iSpindel/ISPINDEL000/readings", { name: "the name is read in any letter case", status: 200, text: "[]" }),
      as("alice", "GET", "/v2/devices/stream/Nobody/readings", { name: "a device not known is 404", status: 404, text: "Not Found" }),
      as("mallory", "GET", "/v2/devices/iSpindel/Ispindel000/readings", { name: "another account's device is 404", status: 404, text: "Not Found" }),
      as("alice", "GET", "/v2/devices/plaato/x/readings", { name: "an unknown device type is 404", status: 404, text: "Not Found" }),
    ],
    makeWorld,
  );
});
