import type { Doc } from "./json.ts";
import { newId } from "./ids.ts";

/**
 * Revision and timestamp fields the service maintains on every write of a recipe or inventory item,
 * in the shapes real documents carry them (`_timestamp_ms` a number, `_created` and `_timestamp`
 * `{_seconds, _nanoseconds}`, `createdAt`/`updatedAt` ISO 8601), in the order they are added.
 */
function stampOf(now: number, created: boolean, rev: string): Doc {
  const iso = new Date(now).toISOString();
  // Keys in code unit order, so that JSON.stringify gives the canonical text (stampMembers).
  const time = () => ({ _nanoseconds: (now % 1000) * 1_000_000, _seconds: Math.floor(now / 1000) });
  const out: Doc = created ? { _created: time(), createdAt: iso } : {};
  out._rev = rev;
  out._timestamp = time();
  out._timestamp_ms = now;
  out.updatedAt = iso;
  return out;
}

/**
 * Stamps a write at `now` into `doc`, which the caller owns: members it has keep their place, new ones
 * come last. `rev` is the new revision id.
 */
export function stamp(doc: Doc, now: number, created: boolean, rev = newId()): Doc {
  return Object.assign(doc, stampOf(now, created, rev));
}

// The members of each kind of stamp in key order, the order canonical text gives them.
const IN_KEY_ORDER = { created: Object.keys(stampOf(0, true, "")).sort(), updated: Object.keys(stampOf(0, false, "")).sort() };

/** The members `stamp` may set. */
export const STAMP_MEMBERS: readonly string[] = Object.freeze(IN_KEY_ORDER.created);

/** The members of the last stamp rendered, all of them the time's but the revision id at `rev`. */
let rendered = { now: Number.NaN, created: false, members: [] as ReadonlyArray<readonly [string, string]>, rev: -1 };

/**
 * The members `stamp` sets, as [key, canonical JSON text] in key order: for a store that sets them in
 * the stored text without parsing it (Store.setFields). Each value's text is its JSON.stringify, the
 * canonical form of these values (test/unit/stamps.test.ts). Under load many writes share a
 * millisecond: the time's members are rendered once for them, only the revision id for each.
 */
export function stampMembers(now: number, created: boolean, rev = newId()): Array<readonly [string, string]> {
  if (rendered.now !== now || rendered.created !== created) {
    const values = stampOf(now, created, "");
    const keys = created ? IN_KEY_ORDER.created : IN_KEY_ORDER.updated;
    rendered = { now, created, members: keys.map((key) => [key, JSON.stringify(values[key])] as const), rev: keys.indexOf("_rev") };
  }
  const members = rendered.members.slice();
  members[rendered.rev] = ["_rev", JSON.stringify(rev)];
  return members;
}
