import { createHash } from "node:crypto";
import type { Doc } from "../lib/json.ts";

// What a pull does with each document it reads, given the copy here and what the document was when it
// was last pulled (docs/decisions.md, Pull).

export type Change = "new" | "updated" | "unchanged" | "kept";

export interface Decision {
  change: Change;
  /** Why a changed remote document was not taken: a conflict the report lists. */
  conflict?: string;
}

/** A short, stable fingerprint of a document's canonical text, kept to tell later which side changed. */
export function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** `_timestamp_ms` as a number: real documents carry a number, some exports a numeric string. */
export function stampOf(doc: Doc): number | undefined {
  const v = doc._timestamp_ms;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

export interface Side {
  /** Canonical JSON text. */
  text: string;
  stamp: number | undefined;
}

/**
 * Remote against local, both as canonical text. In order: absent here is new; equal text is unchanged;
 * a remote copy still as last pulled keeps the local one (changed here since); a local copy still as last
 * pulled takes the remote one; a change on both sides since the last pull keeps the local one and is
 * reported, whatever the stamps: a change here does not always move `_timestamp_ms` (a batch PATCH, a
 * device attached), so a newer stamp there does not make that change the later one. With no earlier
 * pull to tell, the newer `_timestamp_ms` wins, else the remote one; stamps here that are newer keep
 * the local one, reported.
 */
export function decide(remote: Side, local: Side | undefined, pulled: string | undefined): Decision {
  if (!local) return { change: "new" };
  if (remote.text === local.text) return { change: "unchanged" };
  if (pulled !== undefined && digest(remote.text) === pulled) return { change: "kept" };
  if (pulled !== undefined && digest(local.text) === pulled) return { change: "updated" };
  if (pulled !== undefined) {
    const stamps = remote.stamp !== undefined && local.stamp !== undefined ? ` (_timestamp_ms here ${local.stamp}, there ${remote.stamp})` : "";
    return { change: "kept", conflict: `changed on both sides since the last pull; the copy here is kept${stamps}` };
  }
  if (remote.stamp !== undefined && local.stamp !== undefined && remote.stamp !== local.stamp) {
    return remote.stamp > local.stamp
      ? { change: "updated" }
      : { change: "kept", conflict: `changed on both sides; the copy here is newer (_timestamp_ms ${local.stamp} > ${remote.stamp})` };
  }
  return { change: "updated" };
}

const timeOf = (r: Doc) => (typeof r.time === "number" ? r.time : Number.NaN);

/**
 * Readings merged by `time`: every remote reading, as the remote has it (equal times included), and the
 * local readings at a time the remote lacks, unless `mirror` (then the remote's alone); in time order,
 * equal times in their order.
 */
export function mergeReadings(local: Doc[], remote: Doc[], mirror: boolean): Doc[] {
  const remoteTimes = new Set(remote.map(timeOf));
  const kept = mirror ? [] : local.filter((r) => !remoteTimes.has(timeOf(r)));
  return [...remote, ...kept].sort((a, b) => (timeOf(a) || 0) - (timeOf(b) || 0));
}

/** How many of `merged` were not among `local` by time: the readings a pull brought. */
export function readingsAdded(local: Doc[], merged: Doc[]): number {
  const had = new Set(local.map(timeOf));
  return merged.filter((r) => !had.has(timeOf(r))).length;
}
