import { randomBytes } from "./secure.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const ID_LENGTH = 20;

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

// An id's characters are gathered here and decoded at once: added to a string one at a time, they
// made a chain of twenty pieces to be joined later, which took twice as long.
const chars = new Uint8Array(ID_LENGTH);
const latin1 = new TextDecoder("latin1");

/** A 20-character alphanumeric identifier, the form the hosted service's `_id`s take. */
export function newId(): string {
  for (let n = 0; n < ID_LENGTH; ) {
    const b = randomByte();
    // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
    if (b < 248) chars[n++] = ALPHABET_CODES[b % 62];
  }
  return latin1.decode(chars);
}
