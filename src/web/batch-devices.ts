import { checkSettings } from "../devices/model.ts";
import { DEVICE_TYPES, type DeviceType } from "../devices/parse.ts";
import { attachToBatch, detachFromBatch } from "../devices/service.ts";
import { ERRORS, HttpError } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { batchPage, batchReadings, listFilter, notFoundPage } from "./batches.ts";
import { batchDevices } from "./device-data.ts";
import { signedInPost, type Web } from "./guard.ts";
import { redirect, type Viewer } from "./layout.ts";
import { deviceNow, type BatchDevicesView } from "./pages/batch-devices.ts";
import { readingsLive } from "./pages/batch.ts";
import { batchHref } from "./pages/batches.ts";
import { deviceDomId } from "./pages/device-values.ts";

// The batch page's device forms (attach, detach, offsets) and the JSON its script polls for new
// readings. The forms attach and detach through the functions the API's device sub-resource uses, and
// check offsets with its rules and messages.

export const NOT_SEEN = "That device has not posted to this account. Nothing was changed.";
export const NOT_FEEDING = "That device does not feed this batch. Nothing was changed.";

/** The device a form names as `<type>/<name>`, when its type is one the logging endpoints take. */
export function namedDevice(value: string | null): { type: DeviceType; name: string } | undefined {
  const at = value?.indexOf("/") ?? -1;
  if (!value || at < 0) return undefined;
  const type = value.slice(0, at);
  const name = value.slice(at + 1);
  return (DEVICE_TYPES as readonly string[]).includes(type) && name ? { type: type as DeviceType, name } : undefined;
}

interface BatchForm {
  viewer: Viewer;
  form: URLSearchParams;
  doc: Doc;
  list?: string;
}

/** A signed-in form post about an existing batch, or the page that answers it instead. */
async function batchForm(web: Web, request: Request, id: string): Promise<BatchForm | Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const text = await web.store.get(posted.viewer.userId, "batch", id);
  if (text === undefined) return notFoundPage(posted.viewer);
  return { ...posted, doc: JSON.parse(text) as Doc, list: listFilter(request) };
}

const done = (id: string, list: string | undefined, outcome: NonNullable<BatchDevicesView["outcome"]>) => {
  const back = new URL(batchHref(id, list), "http://page");
  back.searchParams.set("devices", outcome);
  return redirect(`${back.pathname}${back.search}#devices-heading`);
};

const refuse = (web: Web, id: string, b: BatchForm, refused: NonNullable<BatchDevicesView["refused"]>) =>
  batchPage(web, b.viewer, id, b.doc, { devices: { refused: { ...refused, posted: b.form } } }, b.list, 400);

export async function postAttach(web: Web, request: Request, id: string): Promise<Response> {
  const b = await batchForm(web, request, id);
  if (b instanceof Response) return b;
  const device = namedDevice(b.form.get("device"));
  if (!device || !(await web.store.device(b.viewer.userId, device))) return refuse(web, id, b, { device: "attach", message: NOT_SEEN });
  if (!(await attachToBatch(web.store, b.viewer.userId, device, id, {}))) return notFoundPage(b.viewer);
  return done(id, b.list, "attached");
}

export async function postDetach(web: Web, request: Request, id: string): Promise<Response> {
  const b = await batchForm(web, request, id);
  if (b instanceof Response) return b;
  const device = namedDevice(b.form.get("device"));
  if (!device || !(await detachFromBatch(web.store, b.viewer.userId, device, id))) return refuse(web, id, b, { device: "section", message: NOT_FEEDING });
  return done(id, b.list, "detached");
}

/** The offsets boxes as the API's body: an emptied box is null (no offset), anything else as typed. */
function offsetsBody(form: URLSearchParams): Doc {
  const body: Doc = {};
  for (const field of ["gravityOffset", "tempOffset"]) {
    const typed = form.get(field);
    if (typed !== null) body[field] = typed.trim() === "" ? null : typed.trim();
  }
  return body;
}

export async function postOffsets(web: Web, request: Request, id: string): Promise<Response> {
  const b = await batchForm(web, request, id);
  if (b instanceof Response) return b;
  const ref = b.form.get("device") ?? "";
  const device = namedDevice(ref);
  const record = device && (await web.store.device(b.viewer.userId, device));
  if (!device || record?.batchId !== id) return refuse(web, id, b, { device: "section", message: NOT_FEEDING });
  let given;
  try {
    given = checkSettings(offsetsBody(b.form));
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    const field = (["gravityOffset", "tempOffset"] as const).find((f) => ERRORS.invalidField(f) === e.body);
    return refuse(web, id, b, { device: ref, message: e.body, field });
  }
  if (!(await attachToBatch(web.store, b.viewer.userId, device, id, given))) return notFoundPage(b.viewer);
  return done(id, b.list, "saved");
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });

/**
 * `GET /batches/:id/live?after=<ms>`, for the open batch page's script: `{after}` while no reading is
 * newer than `after`; else the new `after` and the page's parts drawn again, by element id (figures,
 * both chart drawings and the latest readings; each device's last values).
 */
export async function getLive(web: Web, request: Request, id: string): Promise<Response> {
  const visitor = await web.sessions.visitor(request);
  if (visitor.state !== "signed-in") return json(401, { error: "Signed out" });
  const { userId } = visitor;
  const raw = new URL(request.url).searchParams.get("after");
  const after = raw && /^\d{1,16}$/.test(raw) ? Number(raw) : -Infinity;
  const text = await web.store.get(userId, "batch", id);
  if (text === undefined) return json(404, { error: "Batch not found" });
  const last = await web.store.lastReading(userId, id);
  const lastTime = last === undefined ? undefined : (JSON.parse(last) as { time?: unknown }).time;
  if (typeof lastTime !== "number" || lastTime <= after) return json(200, { after: Number.isFinite(after) ? after : null });
  const doc = JSON.parse(text) as Doc;
  const readings = await batchReadings(web.store, userId, id);
  const now = web.options.now();
  const parts: Record<string, string> = { "readings-live": readingsLive(id, doc, readings, now).text };
  for (const d of (await batchDevices(web.store, userId, id, doc)).attached) parts[deviceDomId("now", d)] = deviceNow(d, now).text;
  return json(200, { after: readings.at(-1)?.time ?? null, parts });
}
