import type { Doc } from "../lib/json.ts";
import { findItem, NO_OFFSETS, placeItem, settingsOf, type DeviceSettings } from "./items.ts";
import { withoutAbsent, type DevicePost, type DeviceType } from "./parse.ts";
import { PLACES, roundTo } from "./units.ts";

// What a device post does: the interval rule, the Reading it appends and the batch item it updates.
// Plain functions of values; the store runs `decidePost` inside one write transaction.

/** A device as kept for its account. */
export interface DeviceRecord {
  type: DeviceType;
  key: string;
  name: string;
  /** The batch it feeds, or null. */
  batchId: string | null;
  /** When its last stored post was received (Unix ms). */
  lastLog: number | null;
  lastData: Doc | null;
  settings: DeviceSettings;
  firstSeen: number;
}

export const DEFAULT_MIN_INTERVAL_SECONDS = 900;

/**
 * Seconds until the device may store a post again; 0 when this one is stored. Measured from the time
 * the last stored post was received, so a sender's clock plays no part.
 */
export function waitSeconds(lastLog: number | null, receivedAt: number, minIntervalSeconds: number): number {
  if (lastLog === null || minIntervalSeconds === 0) return 0;
  const next = lastLog + minIntervalSeconds * 1000;
  return receivedAt >= next ? 0 : Math.ceil((next - receivedAt) / 1000);
}

function offset(value: number, by: number | null, places: number): number {
  return by ? roundTo(value + by, places) : value;
}

/** The values after calibration: gravity offset in SG points, temperature offset in °C. */
function calibrated(post: DevicePost, settings: DeviceSettings) {
  const { sg, temp } = post.values;
  return {
    sg: sg === undefined ? undefined : offset(sg, settings.gravityOffset === null ? null : settings.gravityOffset / 1000, PLACES.sg),
    temp: temp === undefined ? undefined : offset(temp, settings.tempOffset, PLACES.temp),
  };
}

/**
 * The Reading Object of a post (API document, Reading Object): every field present, null where the
 * post has no value, except `temp`, which the document types as a number and is left out instead.
 */
export function readingOf(post: DevicePost, settings: DeviceSettings, receivedAt: number): Doc {
  const v = post.values;
  const { sg, temp } = calibrated(post, settings);
  return {
    time: post.time ?? receivedAt,
    sg: sg ?? null,
    ...(temp === undefined ? {} : { temp }),
    comment: v.comment ?? null,
    type: post.type,
    pressure: v.pressure ?? null,
    ph: v.ph ?? null,
    battery: v.battery ?? null,
    rssi: v.rssi ?? null,
    angle: v.angle ?? null,
    id: post.key,
  };
}

/** An item's `lastData`: the reading's values that were sent, and what the Reading Object has no field for. */
export function lastDataOf(post: DevicePost, reading: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(reading)) if (v !== null) out[k] = v;
  const { auxTemp, extTemp, bpm, beer } = post.values;
  Object.assign(out, withoutAbsent({ auxTemp, extTemp, bpm, beer }), { status: "success" });
  return out;
}

export type PostOutcome =
  | { stored: false; retryAfterSeconds: number }
  | { stored: true; device: DeviceRecord; reading: Doc; batch?: Doc };

/**
 * A post against the device as stored (undefined: first seen) and, when it is attached, its batch
 * document. Inside the interval nothing changes. Otherwise the device takes the post as its last, and
 * the reading goes to the batch, whose item for the device gets `lastData` and `lastLog`, with the
 * item's own offsets; a device attached to no batch keeps the reading itself, with its own offsets.
 */
export function decidePost(post: DevicePost, device: DeviceRecord | undefined, batch: Doc | undefined, receivedAt: number, minIntervalSeconds: number): PostOutcome {
  const wait = waitSeconds(device?.lastLog ?? null, receivedAt, minIntervalSeconds);
  if (wait > 0) return { stored: false, retryAfterSeconds: wait };
  const base: DeviceRecord = device ?? {
    type: post.type,
    key: post.key,
    name: post.name,
    batchId: null,
    lastLog: null,
    lastData: null,
    settings: { ...NO_OFFSETS },
    firstSeen: receivedAt,
  };
  const item = batch ? findItem(batch, post.type, post.key) : undefined;
  const settings = item ? settingsOf(item) : base.settings;
  const reading = readingOf(post, settings, receivedAt);
  const next: DeviceRecord = { ...base, lastLog: receivedAt, lastData: lastDataOf(post, reading) };
  if (!batch) return { stored: true, device: next, reading };
  return { stored: true, device: next, reading, batch: placeItem(batch, next, { lastLog: receivedAt, lastData: next.lastData }) };
}
