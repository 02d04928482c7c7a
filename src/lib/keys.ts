import { constantTimeEqual, hmacSha256, randomBytes } from "./secure.ts";
import type { Scope } from "./scopes.ts";
import type { Store } from "../store/types.ts";

// API keys carry 256 random bits, so a keyed SHA-256 (HMAC) is as strong as a slow password hash
// against guessing, and cheap enough to check on every request. The HMAC secret stays with the
// database, so every server process on one database agrees on digests.
export function generateApiKey(): string {
  return randomBytes(32).toString("base64url");
}

export function keyDigest(secret: string, key: string): string {
  return hmacSha256(secret, key).toString("hex");
}

/** Constant-time comparison of two hex SHA-256 digests (always 64 characters). */
export function digestsEqual(a: string, b: string): boolean {
  return a.length === 64 && constantTimeEqual(a, b);
}

export function keySecret(store: Store): Promise<string> {
  return store.secret("api_key_hmac", () => randomBytes(32).toString("hex"));
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
