import type { Doc } from "../lib/json.ts";
import { readingToAppend } from "../readings/append.ts";
import type { DevicePostOutcome, DevicePostState, TimedReading } from "../store/types.ts";
import { findItem, itemSettings, placeItem, settingsOf, type ItemSettings } from "./items.ts";
import { withoutAbsent, type DevicePost } from "./parse.ts";
import { PLACES, roundTo } from "./units.ts";

// What a device post does: the interval rule, the Reading it appends and the batch item it updates.
// Plain functions of values; the store runs `decidePost` inside one write transaction.

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

/**
 * The Reading Object of a post (API document, Reading Object) after calibration (gravity offset in SG
 * points, temperature offset in °C): every field present, null where the post has no value, except
 * `temp`, which the document types as a number and is left out instead.
 */
export function readingOf(post: DevicePost, settings: ItemSettings, receivedAt: number): TimedReading {
  const v = post.values;
  const sg = v.sg === undefined ? null : offset(v.sg, settings.gravityOffset === null ? null : settings.gravityOffset / 1000, PLACES.sg);
  const temp = v.temp === undefined ? undefined : offset(v.temp, settings.tempOffset, PLACES.temp);
  return readingToAppend({
    time: post.time ?? receivedAt,
    sg,
    ...(temp === undefined ? {} : { temp }),
    comment: v.comment ?? null,
    type: post.type,
    pressure: v.pressure ?? null,
    ph: v.ph ?? null,
    battery: v.battery ?? null,
    rssi: v.rssi ?? null,
    angle: v.angle ?? null,
    id: post.key,
  }, receivedAt);
}

/** An item's `lastData`: the reading's values that were sent, and what the Reading Object has no field for. */
export function lastDataOf(post: DevicePost, reading: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(reading)) if (v !== null) out[k] = v;
  const { auxTemp, extTemp, bpm, beer } = post.values;
  return Object.assign(out, withoutAbsent({ auxTemp, extTemp, bpm, beer }), { status: "success" });
}

export type PostResult = { stored: true } | { stored: false; retryAfterSeconds: number };

/**
 * A post against the device as stored (undefined: first seen) and the document of the batch it is
 * attached to. Inside the interval nothing is written. Otherwise the device takes the post as its
 * last; attached, the reading goes to the batch and the batch's item for the device gets `lastData`
 * and `lastLog` (made when the document lacks it), with the item's own offsets; attached to no batch,
 * the device keeps the reading itself, with its own offsets.
 */
export function decidePost(post: DevicePost, { device, batch }: DevicePostState, receivedAt: number, minIntervalSeconds: number): DevicePostOutcome<PostResult> {
  const wait = waitSeconds(device?.lastLog ?? null, receivedAt, minIntervalSeconds);
  if (wait > 0) return { result: { stored: false, retryAfterSeconds: wait } };
  const item = batch ? findItem(batch, post.type, post.key) : undefined;
  const settings = item ? settingsOf(item) : itemSettings(device?.settings);
  const reading = readingOf(post, settings, receivedAt);
  const lastData = lastDataOf(post, reading);
  const outcome: DevicePostOutcome<PostResult> = { device: { lastLog: receivedAt, lastData }, reading, result: { stored: true } };
  if (batch) {
    const source = { type: post.type, key: post.key, name: device?.name ?? post.name, lastLog: receivedAt, lastData, settings };
    outcome.batch = placeItem(batch, source, { lastLog: receivedAt, lastData });
  }
  return outcome;
}
