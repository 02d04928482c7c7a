import { constantTimeEqual, hmacSha256, randomBytes } from "./secure.ts";

// API keys carry 256 random bits, so a keyed SHA-256 (HMAC) is as strong as a slow password hash
// against guessing, and cheap enough to check on every request. The HMAC secret stays with the
// database (src/store/keys.ts), so every server process on one database agrees on digests.
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
