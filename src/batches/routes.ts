import { Type } from "@sinclair/typebox";
import type { ApiVersion } from "../http/auth.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments, readDocument, removeDocument } from "../http/documents.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { badRequest, ERRORS } from "../http/errors.ts";
import { parseListRequestFor, parseOneOf, parseTime } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { badRequestText, ID_PARAMETER, INCLUDE, json, jsonBody, listParameters, NOT_FOUND, ok, READINGS_RANGE, ref, STATUS_FILTER, STATUS_IN } from "../openapi/operations.ts";
import { BATCH_STATUSES, isBatchStatus } from "../resources.ts";
import { BatchStatusSchema } from "./model.ts";
import type { TimeRange } from "../store/types.ts";
import { batchReadings, brewTracker, lastReading, patchBatch, refuseOnBatch } from "./service.ts";

/**
 * Batches (API document, Endpoints › Batches). Version 1 (Versioning): offset paging, `Planning` as the
 * default status filter, PATCH of `status` only, no delete.
 */
export function batchRoutes(deps: Deps, version: ApiVersion): void {
  const { store } = deps;
  const base = `${prefix(version)}/batches`;
  const readOne = (summary: string, schema: Record<string, unknown>, description?: string, extra: Record<string, unknown>[] = []) => ({
    scope: "batches.read" as const,
    answer: "json" as const,
    doc: { summary, description, parameters: [ID_PARAMETER, ...extra], responses: { "200": json(schema, summary), "404": NOT_FOUND } },
  });
  const api = new ApiRoutes(deps, { version, tag: version === 1 ? "Version 1" : "Batches" })
    .get(
      base,
      {
        scope: "batches.read",
        answer: "json",
        doc: {
          summary: "List batches",
          parameters: [...listParameters(version), STATUS_FILTER(version), ...(version === 2 ? [STATUS_IN] : [])],
          responses: { "200": json({ type: "array", items: ref("BatchResponse") }, "One page of batches"), "400": badRequestText("Invalid order by direction") },
        },
      },
      ({ request, userId }) => {
        const params = searchParams(request.url);
        const list = parseListRequestFor(version, params);
        const status = params.get("status") || (version === 1 ? "Planning" : undefined);
        if (status !== undefined && !isBatchStatus(status)) throw badRequest(ERRORS.invalidStatus);
        // Several statuses at once: a parameter of its own (beyond the hosted API), on version 2.
        const statuses = version === 2 ? parseOneOf(params, "status_in", BATCH_STATUSES) : undefined;
        if (statuses !== undefined) return listDocuments(store, userId, "batch", list, status === undefined ? { statuses } : { status, statuses });
        return listDocuments(store, userId, "batch", list, status === undefined ? undefined : { status });
      },
    )
    .get(
      `${base}/:id`,
      {
        scope: "batches.read",
        answer: "json",
        doc: { summary: "Read a batch", parameters: [ID_PARAMETER, INCLUDE], responses: { "200": json(ref("BatchResponse"), "The batch"), "404": NOT_FOUND } },
      },
      ({ request, params, userId }) => readDocument(store, userId, "batch", params.id, searchParams(request.url)),
    )
    .patch(
      `${base}/:id`,
      {
        scope: "batches.write",
        body: "patch",
        answer: "text",
        doc: {
          summary: "Update a batch",
          parameters: [ID_PARAMETER],
          description:
            version === 1
              ? "Version 1 changes `status` only. Fields may also be sent as query parameters with no body."
              : "Only sent fields change; `null` clears a measured value. Fields may also be sent as query parameters with no body (numeric strings count as numbers).",
          requestBody: jsonBody(version === 1 ? Type.Object({ status: Type.Optional(BatchStatusSchema) }) : ref("BatchPatch"), "Fields to change"),
          responses: { "200": ok("Updated", "`Updated`, or `Nothing to update` when no valid field was sent"), "400": badRequestText("Invalid measuredOg"), "404": NOT_FOUND },
        },
      },
      ({ params, userId, body }) => patchBatch(store, userId, params.id, body, version === 2),
    )
    .get(
      `${base}/:id/readings`,
      readOne("List readings of a batch", { type: "array", items: ref("Reading") }, undefined, version === 2 ? READINGS_RANGE : []),
      ({ request, params, userId }) => {
        if (version === 1) return batchReadings(store, userId, params.id);
        // Readings since the last poll (beyond the hosted API): the same Reading Objects, in the same order.
        const query = searchParams(request.url);
        let range: TimeRange | undefined;
        try {
          const since = parseTime(query, "since");
          const until = parseTime(query, "until");
          if (since !== undefined || until !== undefined) range = { since, until };
        } catch (error) {
          return refuseOnBatch(store, userId, params.id, error);
        }
        return batchReadings(store, userId, params.id, range);
      },
    )
    .get(`${base}/:id/readings/last`, readOne("Read the last reading", ref("Reading"), "404 when the batch has no reading."), ({ params, userId }) =>
      lastReading(store, userId, params.id),
    )
    .get(`${base}/:id/brewtracker`, readOne("Read the brew tracker", ref("BrewTracker"), "404 when no tracker exists for the batch."), ({ params, userId }) =>
      brewTracker(store, userId, params.id),
    );
  if (version === 1) return;
  api.delete(
    `${base}/:id`,
    { scope: "batches.delete", answer: "text", doc: { summary: "Delete a batch", parameters: [ID_PARAMETER], responses: { "200": ok("Deleted"), "404": NOT_FOUND } } },
    ({ params, userId }) => removeDocument(store, userId, "batch", params.id),
  );
}
