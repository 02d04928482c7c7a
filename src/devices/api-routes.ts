import { bodyOrThrow } from "../http/body.ts";
import type { Deps } from "../http/deps.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { badRequest, ERRORS, notFound, TEXT } from "../http/errors.ts";
import { canonicalJson, type Doc } from "../lib/json.ts";
import { DEVICE_DOCS } from "./docs.ts";
import { findItem } from "./items.ts";
import { checkSettings } from "./model.ts";
import type { Store } from "../store/types.ts";
import { DEVICE_TYPES, deviceKey, isDeviceName, type DeviceType } from "./parse.ts";
import { attachToBatch, detachFromBatch, deviceNamed } from "./service.ts";

// Beyond the hosted API (README): a batch's devices as a sub-resource, and the account's devices.
// Scopes batches.read / batches.write; errors as the document's (plain text; 401, 403, 404, then 400).

const ITEM = "/v2/batches/:id/devices/:type/:name";

/**
 * The device a path names, as the account knows it (deviceNamed: its name in any case); an unknown type
 * is 404, as an unknown route. The router has decoded the name once already. A Tilt's name is its
 * colour in capitals. A name no device may have (isDeviceName) is 404 here: no such device exists;
 * attaching refuses it with 400 (PUT).
 */
async function deviceOf(store: Store, userId: string, params: Record<string, string>): Promise<{ type: DeviceType; name: string; valid: boolean }> {
  if (!(DEVICE_TYPES as readonly string[]).includes(params.type!)) throw notFound();
  const type = params.type as DeviceType;
  const given = params.name ?? "";
  const name = type === "tilt" ? given.toUpperCase() : given;
  if (!isDeviceName(name)) return { type, name, valid: false };
  return { ...(await deviceNamed(store, userId, { type, name })), valid: true };
}

/** deviceOf, for reading or detaching: a name no device may have is 404. */
async function knownDeviceOf(store: Store, userId: string, params: Record<string, string>): Promise<{ type: DeviceType; name: string }> {
  const { valid, ...id } = await deviceOf(store, userId, params);
  if (!valid) throw notFound();
  return id;
}

export function deviceApiRoutes(deps: Deps): void {
  const { store } = deps;
  const batchDoc = async (userId: string, id: string): Promise<Doc | undefined> => {
    const text = await store.get(userId, "batch", id);
    return text === undefined ? undefined : (JSON.parse(text) as Doc);
  };
  const read = "batches.read" as const;
  const write = "batches.write" as const;
  new ApiRoutes(deps, { version: 2, tag: "Devices", addition: true })
    .get("/v2/devices", { scope: read, answer: "json", doc: DEVICE_DOCS.list }, async ({ userId }) => canonicalJson(await store.devices(userId)))
    .get("/v2/devices/:type/:name/readings", { scope: read, answer: "json", doc: DEVICE_DOCS.readings }, async ({ params, userId }) => {
      const readings = await store.deviceReadings(userId, await knownDeviceOf(store, userId, params));
      if (readings === undefined) throw notFound();
      return readings;
    })
    .get(ITEM, { scope: read, answer: "json", doc: DEVICE_DOCS.item }, async ({ params, userId }) => {
      const id = await knownDeviceOf(store, userId, params);
      const batch = await batchDoc(userId, params.id!);
      const item = batch && findItem(batch, id.type, deviceKey(id.name));
      if (!item) throw notFound();
      return canonicalJson(item);
    })
    .put(ITEM, { scope: write, body: "held", answer: "json", doc: DEVICE_DOCS.attach }, async ({ params, userId, body }) => {
      const { valid, ...id } = await deviceOf(store, userId, params);
      // A missing batch is 404 before a bad name's or body's 400 (precedence).
      if ((await store.get(userId, "batch", params.id!)) === undefined) throw notFound();
      if (!valid) throw badRequest(ERRORS.invalidField("name"));
      const item = await attachToBatch(store, userId, id, params.id!, checkSettings(bodyOrThrow(body)));
      if (!item) throw notFound();
      return canonicalJson(item);
    })
    .delete(ITEM, { scope: write, answer: "text", doc: DEVICE_DOCS.detach }, async ({ params, userId }) => {
      const id = await knownDeviceOf(store, userId, params);
      if (!(await detachFromBatch(store, userId, id, params.id!))) throw notFound();
      return TEXT.deleted;
    });
}
