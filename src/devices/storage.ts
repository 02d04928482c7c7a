import type { Doc } from "../lib/json.ts";
import type { DeviceType } from "./parse.ts";
import type { DeviceRecord } from "./rules.ts";

/** What a device post writes when it is stored: the device's new state, its reading, the batch document. */
export interface DevicePostWrite {
  device: DeviceRecord;
  reading: Doc;
  /** The attached batch's document with its device item updated. */
  batch?: Doc;
}

/** A device as listed: its record, and the batch it feeds (null for none). */
export type ListedDevice = DeviceRecord;

/**
 * The storage the device endpoints need, as the store offers it (src/store/types.ts). Every write is
 * atomic; `devicePost` runs `decide` inside one write transaction holding the device's row, so the
 * interval rule is exact when posts race, also across server processes on one database.
 */
export interface DeviceStorage {
  /** The account whose logging id has this digest. */
  loggingUser(digest: string): Promise<string | undefined>;
  /** Sets the account's logging id digest, replacing the old one at once. */
  setLoggingDigest(userId: string, digest: string): Promise<void>;
  hasLoggingDigest(userId: string): Promise<boolean>;
  devicePost<T>(
    userId: string,
    type: DeviceType,
    key: string,
    decide: (device: DeviceRecord | undefined, batch: Doc | undefined) => { write?: DevicePostWrite; result: T },
  ): Promise<T>;
  listDevices(userId: string): Promise<ListedDevice[]>;
}
