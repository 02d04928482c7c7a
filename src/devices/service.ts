import type { DevicePost } from "./parse.ts";
import { decidePost, type PostOutcome } from "./rules.ts";
import type { DeviceStorage } from "./storage.ts";

/**
 * Records one device post in one write transaction: the store reads the device and its batch, the
 * rules decide, and the store writes the device, the reading and the batch's item, or nothing.
 */
export function recordPost(devices: DeviceStorage, userId: string, post: DevicePost, receivedAt: number, minIntervalSeconds: number): Promise<PostOutcome> {
  return devices.devicePost<PostOutcome>(userId, post.type, post.key, (device, batch) => {
    const outcome = decidePost(post, device, batch, receivedAt, minIntervalSeconds);
    return outcome.stored ? { write: outcome, result: outcome } : { result: outcome };
  });
}

/** The body of a stored post: exactly what real senders check for. */
export const STORED_BODY = JSON.stringify({ result: "OK" });

/**
 * The body of a post inside the interval: still `"result":"OK"` (senders that check it would otherwise
 * report a fault for a post the hosted service also just ignores), saying it was not stored and when
 * the next one will be.
 */
export function ignoredBody(retryAfterSeconds: number): string {
  return JSON.stringify({ result: "OK", stored: false, retryAfter: retryAfterSeconds });
}
