import type { Doc } from "./json.ts";
import { newId } from "./ids.ts";

/**
 * Revision and timestamp fields the service maintains on every write of a recipe or inventory item,
 * in the shapes real documents carry them (`_timestamp_ms` a number, `_created` and `_timestamp`
 * `{_seconds, _nanoseconds}`, `createdAt`/`updatedAt` ISO 8601).
 */
export function stamp(doc: Doc, now: number, created: boolean): Doc {
  const firestoreTime = { _nanoseconds: (now % 1000) * 1_000_000, _seconds: Math.floor(now / 1000) };
  const iso = new Date(now).toISOString();
  return {
    ...doc,
    ...(created ? { _created: firestoreTime, createdAt: iso } : {}),
    _rev: newId(),
    _timestamp: firestoreTime,
    _timestamp_ms: now,
    updatedAt: iso,
  };
}
