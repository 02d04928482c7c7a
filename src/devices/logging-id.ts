import { generateApiKey, keyDigest, keySecret } from "../lib/keys.ts";
import type { Store } from "../store/types.ts";
import type { DeviceStorage } from "./storage.ts";

// The logging id is a device's only credential: 256 random bits, one per account, stored only as its
// HMAC-SHA256 digest (as API keys are), so it is printed once, when made, and never logged.

const LOGGING_ID = /^[A-Za-z0-9_-]{43}$/;

/** Makes the account's logging id, replacing any earlier one at once, and returns it. */
export async function issueLoggingId(store: Store, devices: DeviceStorage, userId: string): Promise<string> {
  const id = generateApiKey();
  await devices.setLoggingDigest(userId, keyDigest(await keySecret(store), id));
  return id;
}

/** Looks up accounts by logging id; the digest secret is read once. */
export class LoggingIds {
  private secret?: Promise<string>;

  constructor(private readonly store: Store, private readonly devices: DeviceStorage) {}

  /** The account of a logging id; undefined for one of the wrong shape or unknown. */
  async userOf(id: string): Promise<string | undefined> {
    if (!LOGGING_ID.test(id)) return undefined;
    const digest = keyDigest(await (this.secret ??= keySecret(this.store)), id);
    return this.devices.loggingUser(digest);
  }
}
