// parseBasicAuth: RFC 7617 Basic credentials. The scheme name is case-insensitive (RFC 7235 2.1),
// the user-id ends at the first colon (RFC 7617 2), the token is base64 (RFC 4648 4) of UTF-8 text.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parseBasicAuth } from "../../src/http/basic.ts";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

const ACCEPTED: Array<{ name: string; header: string; userId: string; key: string }> = [
  { name: "the plain form decodes to user and key", header: `Basic ${b64("alice:s3cret")}`, userId: "alice", key: "s3cret" },
  { name: "scheme in lower case is accepted", header: `basic ${b64("alice:k")}`, userId: "alice", key: "k" },
  { name: "scheme in upper case is accepted", header: `BASIC ${b64("alice:k")}`, userId: "alice", key: "k" },
  { name: "scheme in mixed case is accepted", header: `bAsIc ${b64("alice:k")}`, userId: "alice", key: "k" },
  { name: "several spaces after the scheme are accepted (1*SP)", header: `Basic   ${b64("alice:k")}`, userId: "alice", key: "k" },
  { name: "trailing whitespace after the token is ignored", header: `Basic ${b64("alice:k")}  `, userId: "alice", key: "k" },
  { name: "the split is at the first colon: the key keeps later colons", header: `Basic ${b64("alice:a:b::c")}`, userId: "alice", key: "a:b::c" },
  { name: "a key of one colon after the separator is kept", header: `Basic ${b64("alice::")}`, userId: "alice", key: ":" },
  { name: "UTF-8 text decodes as UTF-8", header: `Basic ${b64("jürgen:ключ")}`, userId: "jürgen", key: "ключ" },
  { name: "a real generated key (base64url) round-trips", header: `Basic ${b64("user-1:Zx_9-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab")}`, userId: "user-1", key: "Zx_9-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab" },
];

const REFUSED: Array<{ name: string; header: string | null | undefined }> = [
  { name: "no header (null)", header: null },
  { name: "no header (undefined)", header: undefined },
  { name: "an empty header", header: "" },
  { name: "the scheme alone", header: "Basic" },
  { name: "the scheme and a space only", header: "Basic " },
  { name: "another scheme (Bearer)", header: `Bearer ${b64("alice:k")}` },
  { name: "a token without scheme", header: b64("alice:k") },
  { name: "the credentials not base64-encoded", header: "Basic alice:k" },
  { name: "characters outside base64", header: "Basic YWxp!2U6aw==" },
  { name: "base64url characters (- and _) are not base64", header: "Basic _-_-" },
  { name: "base64 without its padding (RFC 4648 4 requires it)", header: `Basic ${b64("ab:c").replace(/=+$/, "")}` },
  { name: "padding in the middle", header: "Basic YW==xp" },
  { name: "two tokens", header: `Basic ${b64("alice:k")} ${b64("bob:k")}` },
  { name: "no colon in the credentials", header: `Basic ${b64("alicekey")}` },
  { name: "an empty user id", header: `Basic ${b64(":key")}` },
  { name: "an empty key", header: `Basic ${b64("alice:")}` },
  { name: "both parts empty", header: `Basic ${b64(":")}` },
  { name: "decoded bytes that are not UTF-8", header: `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString("base64")}` },
];

describe("parseBasicAuth accepts", () => {
  for (const c of ACCEPTED) {
    test(c.name, () => {
      expect(parseBasicAuth(c.header)).toEqual({ userId: c.userId, key: c.key });
    });
  }
});

describe("parseBasicAuth refuses", () => {
  for (const c of REFUSED) {
    test(c.name, () => {
      expect(parseBasicAuth(c.header)).toBeUndefined();
    });
  }
});

test("any user id without a colon and any non-empty key round-trip through the header", () => {
  const text = (minLength: number) => fc.string({ unit: "grapheme", minLength, maxLength: 40 });
  fc.assert(
    fc.property(text(1).filter((u) => !u.includes(":")), text(1), fc.constantFrom("Basic", "basic", "BASIC"), (userId, key, scheme) => {
      expect(parseBasicAuth(`${scheme} ${b64(`${userId}:${key}`)}`)).toEqual({ userId, key });
    }),
  );
});
