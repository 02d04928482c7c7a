import { generateApiKey, keyDigest } from "../lib/keys.ts";
import { EpochCache } from "../lib/epoch-cache.ts";
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

/**
 * Looks up accounts by logging id; the digest secret is read once. Ids found are kept while the store's
 * keys epoch stays the same (as API keys are, src/http/auth.ts): a regenerated id moves the epoch, so
 * the old one is refused at once, and a device posting again costs a map lookup. Unknown ids are not
 * kept, so posts with made-up ids cannot fill the memory.
 */
export class LoggingIds {
  private secret?: Promise<string>;
  private readonly known: EpochCache<string>;

  constructor(private readonly store: Store) {
    this.known = new EpochCache(() => store.keysEpoch?.());
  }

  /** The account of a logging id; undefined for one of the wrong shape or unknown. */
  async userOf(id: string): Promise<string | undefined> {
    if (!LOGGING_ID.test(id)) return undefined;
    const cached = this.known.get(id);
    if (cached !== undefined) return cached;
    const epoch = this.known.epoch;
    const userId = await this.store.userByLoggingId(keyDigest(await (this.secret ??= keySecret(this.store)), id));
    if (userId !== undefined) this.known.set(id, userId, epoch);
    return userId;
  }
}
