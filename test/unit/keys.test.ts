// API key digests (HMAC-SHA256), their constant-time comparison, and the random identifiers.
import { describe, expect, test } from "bun:test";
import { digestsEqual, generateApiKey, keyDigest } from "../../src/lib/keys.ts";
import { newId } from "../../src/lib/ids.ts";

describe("keyDigest", () => {
  test("is HMAC-SHA256 in hex (RFC 4231, test case 2)", () => {
    expect(keyDigest("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });
  test("another secret gives another digest of the same key", () => {
    expect(keyDigest("a", "key")).not.toBe(keyDigest("b", "key"));
  });
});

describe("digestsEqual", () => {
  const d = keyDigest("secret", "key");
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "0" ? "1" : "0") + s.slice(i + 1);
  test("equal digests are equal", () => expect(digestsEqual(d, keyDigest("secret", "key"))).toBe(true));
  test("one character off at the start, middle or end is unequal", () => {
    for (const i of [0, 31, 63]) expect(digestsEqual(d, flip(d, i))).toBe(false);
  });
  test("anything but 64 characters is unequal, also to itself", () => {
    expect(digestsEqual(d.slice(0, 63), d.slice(0, 63))).toBe(false);
    expect(digestsEqual("", "")).toBe(false);
    expect(digestsEqual(d + "0", d + "0")).toBe(false);
  });
});

describe("random values", () => {
  test("an API key is 43 base64url characters (32 bytes), a new one each time", () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
  test("an id is 20 letters and digits, a new one each time (over several refills of the random pool)", () => {
    const ids = new Set(Array.from({ length: 1000 }, newId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
  });
  test("every character of an id is equally likely, across many refills of the random pool", () => {
    // 10,000 ids are 200,000 characters, about 3,226 of each of the 62. A chi-square statistic with 61
    // degrees of freedom stays under 110 with probability above 0.9999 for uniform characters; bytes
    // taken modulo 62 without rejecting the top eight values (a quarter more of eight characters) give
    // about 1,000.
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) for (const ch of newId()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = 200_000 / 62;
    let chi = 0;
    for (const n of counts.values()) chi += (n - expected) ** 2 / expected;
    expect(chi).toBeLessThan(110);
  });
});
