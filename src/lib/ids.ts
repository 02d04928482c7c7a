import { randomBytes } from "./secure.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A 20-character alphanumeric identifier, the form the hosted service's `_id`s take. */
export function newId(): string {
  const bytes = randomBytes(40);
  let id = "";
  // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
  for (let i = 0; i < bytes.length && id.length < 20; i++) if (bytes[i] < 248) id += ALPHABET[bytes[i] % 62];
  return id.length === 20 ? id : newId();
}
