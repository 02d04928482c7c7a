import { randomBytes } from "../lib/secure.ts";
import type { Store } from "../store/types.ts";

// A signing secret must be recovered to sign, so it cannot be kept as a digest like an API key. It is
// kept sealed: AES-256-GCM under a key in the database's meta table (made on first use, moved with the
// database like the API key HMAC secret), bound to its subscription's id (docs/decisions.md, Webhooks).

const KEY_NAME = "webhook_secret_key";

/** Bytes as Web Crypto takes them. */
const bytes = (b: Buffer | string, encoding?: BufferEncoding) => new Uint8Array(typeof b === "string" ? Buffer.from(b, encoding) : b);

const keys = new WeakMap<Store, Promise<CryptoKey>>();

export function sealingKey(store: Store): Promise<CryptoKey> {
  let key = keys.get(store);
  if (!key) {
    key = store
      .secret(KEY_NAME, () => randomBytes(32).toString("hex"))
      .then((hex) => crypto.subtle.importKey("raw", bytes(hex, "hex"), "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(store, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext and tag>`, base64url. */
export async function seal(key: CryptoKey, secret: string, webhookId: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv: bytes(iv), additionalData: bytes(webhookId) }, key, bytes(secret));
  return `v1.${iv.toString("base64url")}.${Buffer.from(sealed).toString("base64url")}`;
}

export async function unseal(key: CryptoKey, sealed: string, webhookId: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("unknown sealed secret format");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(iv, "base64url"), additionalData: bytes(webhookId) }, key, bytes(data, "base64url"));
  return Buffer.from(plain).toString();
}
