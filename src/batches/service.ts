import { andThen, type Awaitable } from "../lib/awaitable.ts";
import type { Doc } from "../lib/json.ts";
import { boundedNumeric } from "../lib/numeric.ts";
import { isBatchStatus } from "../resources.ts";
import { badRequest, ERRORS, HttpError, notFound, orNotFound, TEXT } from "../http/errors.ts";
import type { BodyOrRefusal } from "../http/body.ts";
import type { Store, StoredJson, TimeRange } from "../store/types.ts";
import { MEASURED_BOUNDS } from "./model.ts";

export type PatchCheck = { changes: Doc } | { error: HttpError };

/**
 * Batch PATCH rules (API document, Batches): only sent fields change; a value must be a number (a
 * numeric string counts) within the field's inclusive bounds, or null to clear it; unknown fields
 * are ignored. The first failing field in the table's order names the error.
 */
export function checkBatchPatch(input: Doc, measured = true): PatchCheck {
  const changes: Doc = {};
  if ("status" in input) {
    if (!isBatchStatus(input.status)) return { error: badRequest(ERRORS.invalidStatus) };
    changes.status = input.status;
  }
  if (!measured) return { changes };
  for (const { field, minimum, maximum } of MEASURED_BOUNDS) {
    if (!(field in input)) continue;
    const value = boundedNumeric(input[field], minimum, maximum);
    if (value === undefined) return { error: badRequest(ERRORS.invalidField(field)) };
    changes[field] = value;
  }
  return { changes };
}

/** Applies a checked PATCH in one transaction. A missing batch is 404 before any 400 (precedence). */
export function patchBatch(store: Store, userId: string, id: string, input: BodyOrRefusal<Doc | undefined>, measured = true): Awaitable<string> {
  const check = "error" in input ? input : checkBatchPatch(input.value ?? {}, measured);
  // Valid changes set top-level fields only: the store may do that without parsing the document.
  if (!("error" in check) && Object.keys(check.changes).length > 0) {
    return andThen(store.setFields(userId, "batch", id, check.changes), (found) => {
      if (!found) throw notFound();
      return TEXT.updated;
    });
  }
  return andThen(store.get(userId, "batch", id), (current) => {
    if (current === undefined) throw notFound();
    if ("error" in check) throw check.error;
    return TEXT.nothingToUpdate;
  });
}

/** A batch's readings, served as stored (bytes where the store gives them); with a range, those within it. */
export function batchReadings(store: Store, userId: string, id: string, range?: TimeRange): Awaitable<StoredJson> {
  // An existing batch without readings has an empty list.
  return andThen(store.readings(userId, id, "bytes", range), (stored) =>
    stored !== undefined ? stored : andThen(store.get(userId, "batch", id), (batch) => orNotFound(batch === undefined ? undefined : "[]")),
  );
}

export function lastReading(store: Store, userId: string, id: string): Awaitable<string> {
  return andThen(store.lastReading(userId, id), orNotFound);
}

export function brewTracker(store: Store, userId: string, id: string): Awaitable<string> {
  return andThen(store.brewTracker(userId, id), orNotFound);
}

/** A refusal of a request on a batch, given once the batch is known to exist: a missing batch is 404 first (precedence). */
export async function refuseOnBatch(store: Store, userId: string, batchId: string, error: unknown): Promise<never> {
  if ((await store.get(userId, "batch", batchId)) === undefined) throw notFound();
  throw error;
}
