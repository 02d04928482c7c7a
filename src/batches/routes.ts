import { Elysia } from "elysia";
import { listDocuments, readDocument } from "../http/documents.ts";
import { badRequest, ERRORS, jsonText, notFound, text, TEXT } from "../http/errors.ts";
import { readPatchInput } from "../http/body.ts";
import { parseListRequest } from "../http/list-params.ts";
import { isBatchStatus } from "../resources.ts";
import type { Deps } from "../http/deps.ts";
import { searchParams } from "../http/url.ts";
import { batchReadings, brewTracker, lastReading, patchBatch } from "./service.ts";

/** Batches (API document, Endpoints › Batches). Handlers authorize first, then parse, then act. */
export function batchRoutes({ auth, store, config }: Deps) {
  const authz = auth.authorize.bind(auth);
  return new Elysia({ name: "batches" })
    .get("/v2/batches", async ({ request }) => {
      const { userId } = await authz(request.headers.get("authorization"), "batches.read");
      const params = searchParams(request.url);
      const req = parseListRequest(params);
      const status = params.get("status")?.trim() || undefined;
      if (status !== undefined && !isBatchStatus(status)) throw badRequest(ERRORS.invalidStatus);
      return jsonText(await listDocuments(store, userId, "batch", req, { status }));
    })
    .get("/v2/batches/:id", async ({ request, params }) => {
      const { userId } = await authz(request.headers.get("authorization"), "batches.read");
      return jsonText(await readDocument(store, userId, "batch", params.id, searchParams(request.url)));
    })
    .patch(
      "/v2/batches/:id",
      async ({ request, params }) => {
        const { userId } = await authz(request.headers.get("authorization"), "batches.write");
        const input = await readPatchInput(request, searchParams(request.url), config.maxBodyBytes);
        return text(await patchBatch(store, userId, params.id, input));
      },
      { parse: "none" },
    )
    .delete("/v2/batches/:id", async ({ request, params }) => {
      const { userId } = await authz(request.headers.get("authorization"), "batches.delete");
      if (!(await store.remove(userId, "batch", params.id))) throw notFound();
      return text(TEXT.deleted);
    })
    .get("/v2/batches/:id/readings", async ({ request, params }) => {
      const { userId } = await authz(request.headers.get("authorization"), "batches.read");
      return jsonText(await batchReadings(store, userId, params.id));
    })
    .get("/v2/batches/:id/readings/last", async ({ request, params }) => {
      const { userId } = await authz(request.headers.get("authorization"), "batches.read");
      return jsonText(await lastReading(store, userId, params.id));
    })
    .get("/v2/batches/:id/brewtracker", async ({ request, params }) => {
      const { userId } = await authz(request.headers.get("authorization"), "batches.read");
      return jsonText(await brewTracker(store, userId, params.id));
    });
}
