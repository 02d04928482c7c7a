import { isBatchStatus } from "../resources.ts";
import { chartReadings } from "./chart.ts";
import { viewerOf, type Web } from "./guard.ts";
import { html } from "./html.ts";
import { messagePage, page } from "./layout.ts";
import { batchMain } from "./pages/batch.ts";
import { batchListMain, batchTitle, type BatchRow } from "./pages/batches.ts";

const PAGE_SIZE = 50;

export async function getBatchList(web: Web, request: Request): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const params = new URL(request.url).searchParams;
  const status = params.get("status")?.trim() || undefined;
  if (status !== undefined && !isBatchStatus(status)) return messagePage(400, "Unknown status", `There is no batch status "${status}".`, viewer, html`<p><a href="/batches">All batches</a></p>`);
  const after = params.get("after") || undefined;
  // The store's default list projection holds exactly the columns of this table.
  const texts = await web.store.list(viewer.userId, "batch", { limit: PAGE_SIZE, orderBy: "brewDate", desc: true, startAfter: after, fields: "summary", status });
  if (texts === "unknown-cursor") return messagePage(400, "Page not found", "That page of the batch list no longer exists.", viewer, html`<p><a href="/batches">First page</a></p>`);
  const rows = texts.map((t) => JSON.parse(t) as BatchRow);
  let next: string | undefined;
  if (rows.length === PAGE_SIZE) {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    q.set("after", rows[rows.length - 1]!._id);
    next = `/batches?${q}`;
  }
  return page({ title: "Batches", section: "batches", viewer, main: batchListMain({ rows, status, next, paged: Boolean(after) }) });
}

export async function getBatch(web: Web, request: Request, id: string): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const text = await web.store.get(viewer.userId, "batch", id);
  if (text === undefined) return messagePage(404, "Batch not found", "There is no such batch in this account.", viewer, html`<p><a href="/batches">All batches</a></p>`);
  const doc = JSON.parse(text) as Record<string, unknown>;
  const stored = await web.store.readings(viewer.userId, id);
  const parsed: unknown = stored === undefined ? [] : JSON.parse(stored);
  const readings = chartReadings(Array.isArray(parsed) ? parsed : []);
  return page({ title: batchTitle(doc), section: "batches", viewer, main: batchMain(doc, readings) });
}
