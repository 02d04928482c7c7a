import { Elysia } from "elysia";
import type { ApiVersion } from "../http/auth.ts";
import { readPatchInput } from "../http/body.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments, readDocument } from "../http/documents.ts";
import { badRequest, ERRORS, jsonText, notFound, text, TEXT } from "../http/errors.ts";
import { parseListRequestFor } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { isBatchStatus } from "../resources.ts";
import { batchReadings, brewTracker, lastReading, patchBatch } from "./service.ts";

/**
 * Batches (API document, Endpoints › Batches). Version 1 (Versioning): offset paging, `Planning` as the
 * default status filter, PATCH of `status` only, no delete.
 */
export function batchRoutes({ auth, store, config }: Deps, version: ApiVersion) {
  const base = `${prefix(version)}/batches`;
  const app = new Elysia({ name: `batches-v${version}` })
    .get(base, async ({ request }) => {
      const { userId } = await auth.authorize(request, "batches.read", version);
      const params = searchParams(request.url);
      const req = parseListRequestFor(version, params);
      const status = params.get("status") || (version === 1 ? "Planning" : undefined);
      if (status !== undefined && !isBatchStatus(status)) throw badRequest(ERRORS.invalidStatus);
      return jsonText(await listDocuments(store, userId, "batch", req, { status }));
    })
    .get(`${base}/:id`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.read", version);
      return jsonText(await readDocument(store, userId, "batch", params.id, searchParams(request.url)));
    })
    .patch(
      `${base}/:id`,
      async ({ request, params }) => {
        const { userId } = await auth.authorize(request, "batches.write", version);
        const input = await readPatchInput(request, config.maxBodyBytes);
        return text(await patchBatch(store, userId, params.id, input, version === 2));
      },
      { parse: "none" },
    )
    .get(`${base}/:id/readings`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.read", version);
      return jsonText(await batchReadings(store, userId, params.id));
    })
    .get(`${base}/:id/readings/last`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.read", version);
      return jsonText(await lastReading(store, userId, params.id));
    })
    .get(`${base}/:id/brewtracker`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.read", version);
      return jsonText(await brewTracker(store, userId, params.id));
    });
  if (version === 1) return app;
  return app.delete(`${base}/:id`, async ({ request, params }) => {
    const { userId } = await auth.authorize(request, "batches.delete", version);
    if (!(await store.remove(userId, "batch", params.id))) throw notFound();
    return text(TEXT.deleted);
  });
}
