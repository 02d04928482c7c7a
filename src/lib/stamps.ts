import type { Doc } from "./json.ts";
import { newId } from "./ids.ts";

/**
 * Revision and timestamp fields the service maintains on every write of a recipe or inventory item,
 * in the shapes real documents carry them (`_timestamp_ms` a number, `_created` and `_timestamp`
 * `{_seconds, _nanoseconds}`, `createdAt`/`updatedAt` ISO 8601). Written into `doc`, which the caller
 * owns: members it has keep their place, new ones come last.
 */
export function stamp(doc: Doc, now: number, created: boolean): Doc {
  const iso = new Date(now).toISOString();
  const time = () => ({ _nanoseconds: (now % 1000) * 1_000_000, _seconds: Math.floor(now / 1000) });
  if (created) {
    doc._created = time();
    doc.createdAt = iso;
  }
  doc._rev = newId();
  doc._timestamp = time();
  doc._timestamp_ms = now;
  doc.updatedAt = iso;
  return doc;
}

/** The members `stamp` may set, read off a stamp of a new empty document, so the two cannot drift. */
export const STAMP_MEMBERS: readonly string[] = Object.freeze(Object.keys(stamp({}, 0, true)));
