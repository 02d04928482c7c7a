/**
 * A record's place in a list ordered by one field, as one text: the field's sort key (records.ts
 * `sortKey`) and then the record's id, written so that SQLite's BINARY order of the texts (bytes of
 * UTF-8, shorter first on a common prefix) is the order of (key, id) as SQLite compares the pair:
 * every number before every text, numbers by value, texts by their bytes, then ids by their bytes.
 *
 * An index on this one column serves a page and its keyset seek with a single scalar comparison,
 * where a (key, id) row value made SQLite seek on both columns and then test the pair again on
 * every row it returned (docs/performance.md).
 *
 * - A number: "n", then the 16 hex digits of its IEEE 754 bits, ordered (the sign bit set for a
 *   positive number, every bit flipped for a negative one; -0 as 0), then the id.
 * - A text: "t", then the text with each NUL written as NUL SOH, then NUL NUL, then the id. Within
 *   the text, NUL NUL sorts before any character the text may hold next, so a text sorts before
 *   every longer text it begins, as SQLite sorts them.
 */
export function positionKey(key: number | string, id: string): string {
  if (typeof key === "string") return `t${key.includes("\0") ? key.replaceAll("\0", "\0\x01") : key}\0\0${id}`;
  // A missing field, the most common key of all (an inventory item has no brewDate or batchNo).
  if (key === -Infinity) return MISSING + id;
  bits[0] = key === 0 ? 0 : key; // -0 sorts with 0, as SQLite compares them
  let hi = words[HI];
  let lo = words[LO];
  if (hi & 0x80000000) {
    hi = ~hi;
    lo = ~lo;
  } else {
    hi |= 0x80000000;
  }
  return `n${hex8(hi >>> 0)}${hex8(lo >>> 0)}${id}`;
}

/** The sort key a position key was made from (a number exactly, a text as it was). */
export function keyOfPosition(position: string): number | string {
  if (position[0] === "t") {
    const text = position.slice(1, endOfText(position));
    return text.includes("\0") ? text.replaceAll("\0\x01", "\0") : text;
  }
  let hi = parseInt(position.slice(1, 9), 16);
  let lo = parseInt(position.slice(9, 17), 16);
  if (hi & 0x80000000) {
    hi &= 0x7fffffff;
  } else {
    hi = ~hi;
    lo = ~lo;
  }
  words[HI] = hi;
  words[LO] = lo;
  return bits[0];
}

// Where a text's NUL NUL ends it: the first NUL not followed by SOH is the first of the pair.
function endOfText(position: string): number {
  let at = position.indexOf("\0", 1);
  while (position[at + 1] === "\x01") at = position.indexOf("\0", at + 2);
  return at;
}

const bits = new Float64Array(1);
/** The position key of -Infinity, less the id: the bits of -Infinity, every one flipped. */
const MISSING = "n000fffffffffffff";
const words = new Uint32Array(bits.buffer);
// The high word of the double is the second on a little-endian machine.
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE ? 1 : 0;
const LO = LITTLE ? 0 : 1;
const hex8 = (n: number) => n.toString(16).padStart(8, "0");
