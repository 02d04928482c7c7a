import type { Store } from "../store/types.ts";
import type { DevicePost } from "./parse.ts";
import { decidePost, type PostResult } from "./rules.ts";

/**
 * Records one device post in one write transaction: the store reads the device and its batch, the
 * rules decide, and the store writes the device, the reading and the batch's item, or nothing. The
 * store appends the reading as it appends every reading (Store.appendReading's way).
 */
export function recordPost(store: Store, userId: string, post: DevicePost, minIntervalSeconds: number, now: () => number = Date.now): Promise<PostResult> {
  // The time is read under the device's lock, so posts are timed in the order they are decided: the
  // one stored first has the earlier time, also when another process took its request earlier.
  return store.devicePost(userId, { type: post.type, name: post.name }, (state) => decidePost(post, state, now(), minIntervalSeconds));
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
