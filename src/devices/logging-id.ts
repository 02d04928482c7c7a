import { generateApiKey, keyDigest } from "../lib/keys.ts";
import { keySecret } from "../store/keys.ts";
import type { Store } from "../store/types.ts";

// The logging id is a device's only credential: 256 random bits, one per account, stored only as its
// HMAC-SHA256 digest (as API keys are), so it is printed once, when made, and never logged.

const LOGGING_ID = /^[A-Za-z0-9_-]{43}$/;

/** Makes the account's logging id, replacing any earlier one at once, and returns it. */
export async function issueLoggingId(store: Store, userId: string): Promise<string> {
  const id = generateApiKey();
  if (!(await store.setLoggingId({ userId, digest: keyDigest(await keySecret(store), id), createdAt: Date.now() }))) {
    throw new Error(`no user ${userId}`);
  }
  return id;
}

/** Looks up accounts by logging id; the digest secret is read once. */
export class LoggingIds {
  private secret?: Promise<string>;

  constructor(private readonly store: Store) {}

  /** The account of a logging id; undefined for one of the wrong shape or unknown. */
  async userOf(id: string): Promise<string | undefined> {
    if (!LOGGING_ID.test(id)) return undefined;
    return this.store.userByLoggingId(keyDigest(await (this.secret ??= keySecret(this.store)), id));
  }
}
