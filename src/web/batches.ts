import { patchBatch } from "../batches/service.ts";
import { HttpError, TEXT } from "../http/errors.ts";
import { isBatchStatus } from "../resources.ts";
import type { Store } from "../store/types.ts";
import { chartReadings, type ChartReading } from "./chart.ts";
import { batchDevices } from "./device-data.ts";
import { signedInPost, viewerOf, type Web } from "./guard.ts";
import { html } from "./html.ts";
import { messagePage, page, redirect, type Viewer } from "./layout.ts";
import { measuredPatch, refusedField } from "./measured.ts";
import type { BatchDevicesView } from "./pages/batch-devices.ts";
import { batchMain, type BatchView } from "./pages/batch.ts";
import { batchHref, batchListMain, batchTitle, type BatchRow, type LastGravity } from "./pages/batches.ts";

const PAGE_SIZE = 50;

/** The latest reading that carries a gravity: usually the last one; a manual temperature check may follow it. */
async function lastGravity(store: Store, userId: string, id: string): Promise<LastGravity | undefined> {
  const last = await store.lastReading(userId, id);
  if (last === undefined) return undefined;
  const [reading] = chartReadings([JSON.parse(last)]);
  if (reading && reading.sg !== null) return { sg: reading.sg, time: reading.time };
  const all = await store.readings(userId, id);
  const withGravity = chartReadings(all === undefined ? [] : (JSON.parse(all) as unknown[])).filter((r) => r.sg !== null);
  const found = withGravity[withGravity.length - 1];
  return found ? { sg: found.sg!, time: found.time } : undefined;
}

export async function getBatchList(web: Web, request: Request): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const params = new URL(request.url).searchParams;
  const status = params.get("status")?.trim() || undefined;
  if (status !== undefined && !isBatchStatus(status)) return messagePage(400, "Unknown status", `There is no batch status "${status}".`, viewer, html`<p><a href="/batches">All batches</a></p>`);
  const after = params.get("after") || undefined;
  const texts = await web.store.list(viewer.userId, "batch", { limit: PAGE_SIZE, orderBy: "brewDate", desc: true, startAfter: after, fields: "summary", status });
  if (texts === "unknown-cursor") return messagePage(400, "Page not found", "That page of the batch list no longer exists.", viewer, html`<p><a href="/batches">First page</a></p>`);
  const batches = texts.map((t) => JSON.parse(t) as BatchRow);
  const rows = await Promise.all(batches.map(async (batch) => ({ batch, gravity: await lastGravity(web.store, viewer.userId, batch._id) })));
  let next: string | undefined;
  if (batches.length === PAGE_SIZE) {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    q.set("after", batches[batches.length - 1]!._id);
    next = `/batches?${q}`;
  }
  const view = { rows, status, next, paged: Boolean(after), now: web.options.now() };
  return page({ title: "Batches", section: "batches", viewer, main: batchListMain(view) });
}

/** The list filter a batch page was reached from (`?list=`), kept for the way back. */
export function listFilter(request: Request): string | undefined {
  const status = new URL(request.url).searchParams.get("list") ?? undefined;
  return isBatchStatus(status) ? status : undefined;
}

export const notFoundPage = (viewer: Viewer) => messagePage(404, "Batch not found", "There is no such batch in this account.", viewer, html`<p><a href="/batches">All batches</a></p>`);

/** What a batch page shows beside the batch: the measured-value form's state and the devices' forms' state. */
export type BatchPageState = Omit<BatchView, "doc" | "readings" | "now" | "id" | "csrf" | "devices"> & { devices?: Pick<BatchDevicesView, "outcome" | "refused"> };

/** The chart's readings of a batch, in time order. */
export async function batchReadings(store: Store, userId: string, id: string): Promise<ChartReading[]> {
  const stored = await store.readings(userId, id);
  const parsed: unknown = stored === undefined ? [] : JSON.parse(stored);
  return chartReadings(Array.isArray(parsed) ? parsed : []);
}

export async function batchPage(web: Web, viewer: Viewer, id: string, doc: Record<string, unknown>, state: BatchPageState, list?: string, status = 200): Promise<Response> {
  const { devices: forms, ...form } = state;
  const readings = await batchReadings(web.store, viewer.userId, id);
  const devices = { ...(await batchDevices(web.store, viewer.userId, id, doc)), ...forms };
  const view: BatchView = { ...form, id, csrf: viewer.csrf, doc, readings, devices, now: web.options.now(), list };
  // The chart's script names readings under the pointer; the live one brings new readings in.
  return page({ title: batchTitle(doc), section: "batches", viewer, main: batchMain(view), scripts: ["chart.js", "live.js"], connects: true }, status);
}

/** What a device form did, as its redirect says it (`?devices=`). */
export const DEVICE_OUTCOMES = ["attached", "detached", "saved"] as const;

export async function getBatch(web: Web, request: Request, id: string): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const text = await web.store.get(viewer.userId, "batch", id);
  if (text === undefined) return notFoundPage(viewer);
  const params = new URL(request.url).searchParams;
  const saved = params.get("saved");
  const outcome = saved === "1" ? "saved" : saved === "0" ? "unchanged" : undefined;
  const devices = { outcome: DEVICE_OUTCOMES.find((o) => o === params.get("devices")) };
  return batchPage(web, viewer, id, JSON.parse(text) as Record<string, unknown>, { outcome, devices }, listFilter(request));
}

/**
 * The measured-values form: its answer is a batch PATCH under the API's own rules (patchBatch), so a
 * refused value gets the API's message and changes nothing.
 */
export async function postMeasured(web: Web, request: Request, id: string): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, form } = posted;
  const list = listFilter(request);
  const text = await web.store.get(viewer.userId, "batch", id);
  if (text === undefined) return notFoundPage(viewer);
  const doc = JSON.parse(text) as Record<string, unknown>;
  try {
    const result = await patchBatch(web.store, viewer.userId, id, { value: measuredPatch(form, doc) });
    const back = new URL(batchHref(id, list), "http://page");
    back.searchParams.set("saved", result === TEXT.updated ? "1" : "0");
    return redirect(`${back.pathname}${back.search}#measured-heading`);
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    if (e.status === 404) return notFoundPage(viewer);
    return batchPage(web, viewer, id, doc, { posted: form, error: { message: e.body, field: refusedField(e.body) } }, list, e.status);
  }
}
