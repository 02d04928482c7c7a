import { readJsonObject } from "../http/body.ts";
import type { Deps } from "../http/deps.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText, notFound, text, TEXT } from "../http/errors.ts";
import { canonicalJson, type Doc } from "../lib/json.ts";
import { newDevice } from "../store/devices.ts";
import { attachEdits, detachEdit } from "./attach.ts";
import { findItem, storedSettings, type ItemSettings } from "./items.ts";
import { checkSettings } from "./model.ts";
import { DEVICE_TYPES, deviceKey, type DeviceType } from "./parse.ts";

// Beyond the hosted API (README): a batch's devices as a sub-resource, and the account's devices.
// Scopes batches.read / batches.write; errors as the document's (plain text; 401, 403, 404, then 400).

const ITEM = "/v2/batches/:id/devices/:type/:name";

/** The device a path names; an unknown type is 404, as an unknown route. A Tilt's name is its colour in capitals. */
function deviceOf(params: Record<string, string>): { type: DeviceType; name: string } {
  if (!(DEVICE_TYPES as readonly string[]).includes(params.type!)) throw notFound();
  const type = params.type as DeviceType;
  let name = params.name!;
  try {
    name = decodeURIComponent(name);
  } catch {
    throw notFound();
  }
  return { type, name: type === "tilt" ? name.toUpperCase() : name };
}

export function deviceApiRoutes(deps: Deps): void {
  const { auth, store, config } = deps;
  const batchDoc = async (userId: string, id: string): Promise<Doc | undefined> => {
    const text = await store.get(userId, "batch", id);
    return text === undefined ? undefined : (JSON.parse(text) as Doc);
  };
  new ApiRoutes(deps)
    .get("/v2/devices", async ({ request }) => {
      const { userId } = await auth.authorize(request, "batches.read", 2);
      return jsonText(canonicalJson(await store.devices(userId)));
    })
    .get("/v2/devices/:type/:name/readings", async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.read", 2);
      const readings = await store.deviceReadings(userId, deviceOf(params));
      if (readings === undefined) throw notFound();
      return jsonText(readings);
    })
    .get(ITEM, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.read", 2);
      const id = deviceOf(params);
      const batch = await batchDoc(userId, params.id!);
      const item = batch && findItem(batch, id.type, deviceKey(id.name));
      if (!item) throw notFound();
      return jsonText(canonicalJson(item));
    })
    .put(ITEM, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.write", 2);
      const id = deviceOf(params);
      // Read now, refused after the 404 check (precedence: a missing batch before a bad body).
      const body = await readJsonObject(request, config.maxBodyBytes).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
      if ((await store.get(userId, "batch", params.id!)) === undefined) throw notFound();
      if (body instanceof Error) throw body;
      const given = checkSettings(body);
      const device = (await store.device(userId, id)) ?? newDevice(id, Date.now());
      const edits = attachEdits({ ...device, type: id.type }, given);
      if (!(await store.attachDevice(userId, id, params.id!, edits.editBatch))) throw notFound();
      const item = edits.item()!;
      // The device keeps the offsets too, for its posts once it is detached.
      if (Object.keys(given).length) await store.setDeviceSettings(userId, id, storedSettings(item.settings as ItemSettings));
      return jsonText(canonicalJson(item));
    })
    .delete(ITEM, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.write", 2);
      const id = deviceOf(params);
      const device = await store.device(userId, id);
      if (!device || device.batchId !== params.id) throw notFound();
      await store.attachDevice(userId, id, null, detachEdit(id.type, id.name));
      return text(TEXT.deleted);
    });
}
