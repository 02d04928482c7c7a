import type { ApiVersion } from "../http/auth.ts";
import { readPatchInput } from "../http/body.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments, readDocument } from "../http/documents.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { badRequest, ERRORS, jsonText, notFound, text, TEXT } from "../http/errors.ts";
import { parseListRequestFor } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { andThen } from "../lib/awaitable.ts";
import { isBatchStatus } from "../resources.ts";
import { batchReadings, brewTracker, lastReading, patchBatch } from "./service.ts";

/**
 * Batches (API document, Endpoints › Batches). Version 1 (Versioning): offset paging, `Planning` as the
 * default status filter, PATCH of `status` only, no delete.
 */
export function batchRoutes(deps: Deps, version: ApiVersion): void {
  const { auth, store, config } = deps;
  const base = `${prefix(version)}/batches`;
  const read = (request: Request) => auth.authorize(request, "batches.read", version);
  const api = new ApiRoutes(deps)
    .get(base, ({ request }) =>
      andThen(read(request), ({ userId }) => {
        const params = searchParams(request.url);
        const req = parseListRequestFor(version, params);
        const status = params.get("status") || (version === 1 ? "Planning" : undefined);
        if (status !== undefined && !isBatchStatus(status)) throw badRequest(ERRORS.invalidStatus);
        return andThen(listDocuments(store, userId, "batch", req, status === undefined ? undefined : { status }), jsonText);
      }),
    )
    .get(`${base}/:id`, ({ request, params }) =>
      andThen(read(request), ({ userId }) => andThen(readDocument(store, userId, "batch", params.id, searchParams(request.url)), jsonText)),
    )
    .patch(`${base}/:id`, ({ request, params }) =>
      andThen(auth.authorize(request, "batches.write", version), ({ userId }) =>
        readPatchInput(request, config.maxBodyBytes).then((input) => andThen(patchBatch(store, userId, params.id, input, version === 2), text)),
      ),
    )
    .get(`${base}/:id/readings`, ({ request, params }) =>
      andThen(read(request), ({ userId }) => andThen(batchReadings(store, userId, params.id), jsonText)),
    )
    .get(`${base}/:id/readings/last`, ({ request, params }) =>
      andThen(read(request), ({ userId }) => andThen(lastReading(store, userId, params.id), jsonText)),
    )
    .get(`${base}/:id/brewtracker`, ({ request, params }) =>
      andThen(read(request), ({ userId }) => andThen(brewTracker(store, userId, params.id), jsonText)),
    );
  if (version === 2) {
    api.delete(`${base}/:id`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "batches.delete", version);
      if (!(await store.remove(userId, "batch", params.id))) throw notFound();
      return text(TEXT.deleted);
    });
  }
}
