// Random bytes, HMAC-SHA256 and constant-time comparison from Bun's own hasher and the Web Crypto
// random source: node:crypto took about 5 ms of the server's start-up just to load.

export function randomBytes(n: number): Buffer {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(n)));
}

export function hmacSha256(secret: string, data: string): Buffer {
  return new Bun.CryptoHasher("sha256", secret).update(data).digest();
}

/** Equal-length strings compared in constant time (no early exit); different lengths are simply unequal. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
