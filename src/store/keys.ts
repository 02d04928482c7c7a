import { generateApiKey, keyDigest } from "../lib/keys.ts";
import type { Scope } from "../lib/scopes.ts";
import { randomBytes } from "../lib/secure.ts";
import type { Store } from "./types.ts";

/** The secret API keys (and logging ids) are digested with: kept in the database, made on first use. */
export function keySecret(store: Store): Promise<string> {
  return store.secret("api_key_hmac", () => randomBytes(32).toString("hex"));
}

/**
 * A tag of the digest secret, safe to write out: which database's secret a digest was made under. An
 * export carries it beside the logging id's digest, and an import into a database of another secret
 * leaves that digest out, since no id could ever match it there.
 */
export async function keySecretTag(store: Store): Promise<string> {
  return keyDigest(await keySecret(store), "brewrecords digest secret tag").slice(0, 16);
}

/**
 * Generates the account's one API key, replacing any earlier key at once, and returns it. The key
 * itself is never stored or logged: only its digest.
 */
export async function issueApiKey(store: Store, userId: string, scopes: readonly Scope[], apiVersion: 1 | 2 = 2): Promise<string> {
  const key = generateApiKey();
  await store.setApiKey({
    userId,
    digest: keyDigest(await keySecret(store), key),
    scopes: [...scopes],
    apiVersion,
    createdAt: Date.now(),
  });
  return key;
}
