import { bodyOrThrow } from "../http/body.ts";
import type { Deps } from "../http/deps.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { notFound, TEXT } from "../http/errors.ts";
import { canonicalJson, type Doc } from "../lib/json.ts";
import { DEVICE_DOCS } from "./docs.ts";
import { findItem } from "./items.ts";
import { checkSettings } from "./model.ts";
import { DEVICE_TYPES, deviceKey, type DeviceType } from "./parse.ts";
import { attachToBatch, detachFromBatch } from "./service.ts";

// Beyond the hosted API (README): a batch's devices as a sub-resource, and the account's devices.
// Scopes batches.read / batches.write; errors as the document's (plain text; 401, 403, 404, then 400).

const ITEM = "/v2/batches/:id/devices/:type/:name";

/** The device a path names; an unknown type is 404, as an unknown route. A Tilt's name is its colour in capitals. */
function deviceOf(params: Record<string, string>): { type: DeviceType; name: string } {
  if (!(DEVICE_TYPES as readonly string[]).includes(params.type!)) throw notFound();
  const type = params.type as DeviceType;
  let name: string;
  try {
    name = decodeURIComponent(params.name!);
  } catch {
    throw notFound();
  }
  return { type, name: type === "tilt" ? name.toUpperCase() : name };
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
      const readings = await store.deviceReadings(userId, deviceOf(params));
      if (readings === undefined) throw notFound();
      return readings;
    })
    .get(ITEM, { scope: read, answer: "json", doc: DEVICE_DOCS.item }, async ({ params, userId }) => {
      const id = deviceOf(params);
      const batch = await batchDoc(userId, params.id!);
      const item = batch && findItem(batch, id.type, deviceKey(id.name));
      if (!item) throw notFound();
      return canonicalJson(item);
    })
    .put(ITEM, { scope: write, body: "held", answer: "json", doc: DEVICE_DOCS.attach }, async ({ params, userId, body }) => {
      const id = deviceOf(params);
      // A missing batch is 404 before a bad body's 400 (precedence).
      if ((await store.get(userId, "batch", params.id!)) === undefined) throw notFound();
      const item = await attachToBatch(store, userId, id, params.id!, checkSettings(bodyOrThrow(body)));
      if (!item) throw notFound();
      return canonicalJson(item);
    })
    .delete(ITEM, { scope: write, answer: "text", doc: DEVICE_DOCS.detach }, async ({ params, userId }) => {
      const id = deviceOf(params);
      if (!(await detachFromBatch(store, userId, id, params.id!))) throw notFound();
      return TEXT.deleted;
    });
}
