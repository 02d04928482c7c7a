import { randomBytes } from "../lib/secure.ts";

// The Standard Webhooks wire format (https://www.standardwebhooks.com): a secret `whsec_<base64>`, and
// per attempt the headers webhook-id, webhook-timestamp (seconds) and webhook-signature
// `v1,<base64 HMAC-SHA256 over "id.timestamp.body" keyed with the secret's bytes>`.

const PREFIX = "whsec_";

/** A new signing secret: 32 random bytes. */
export function newSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${new Bun.CryptoHasher("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/**
 * The headers of one attempt, signed at its time with each secret given: after a rotation the new
 * secret and, for a while, the previous one, space-separated as Standard Webhooks lists signatures,
 * so a receiver holding either verifies the delivery.
 */
export function signedHeaders(secrets: readonly string[], id: string, at: number, body: string): Record<string, string> {
  const timestamp = Math.floor(at / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "brewrecords-webhooks",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signature(secret, id, timestamp, body)).join(" "),
  };
}
