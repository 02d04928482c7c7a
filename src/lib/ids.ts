import { randomBytes } from "./secure.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// Random bytes drawn 4 KB at a time: one call to the system's source per hundred-odd ids, not per id.
let pool: Uint8Array = new Uint8Array(0);
let at = 0;

function randomByte(): number {
  if (at === pool.length) {
    pool = randomBytes(4096);
    at = 0;
  }
  return pool[at++];
}

/** A 20-character alphanumeric identifier, the form the hosted service's `_id`s take. */
export function newId(): string {
  let id = "";
  while (id.length < 20) {
    const b = randomByte();
    // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
    if (b < 248) id += ALPHABET[b % 62];
  }
  return id;
}
