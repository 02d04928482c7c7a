// Setting top-level members of stored canonical text without parsing it must give exactly the
// canonical text of the parsed document with those members set.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, type Doc } from "../../src/lib/json.ts";
import { membersSet, setMembers } from "../../src/lib/json-members.ts";

/** The parsing path: what setMembers must equal. */
function viaParse(text: string, members: Doc): string {
  return canonicalJson(Object.assign(Object.create(null) as Doc, JSON.parse(text), members));
}

const sorted = (members: Doc) => Object.keys(members).sort().map((k) => [k, JSON.stringify(members[k])] as const);

describe("setMembers", () => {
  const table: Array<[string, string, Doc, string]> = [
    ["replaces a value in place", '{"a":1,"b":2,"c":3}', { b: 20 }, '{"a":1,"b":20,"c":3}'],
    ["inserts where the key sorts", '{"a":1,"c":3}', { b: "x" }, '{"a":1,"b":"x","c":3}'],
    ["inserts before the first key", '{"b":1}', { a: null }, '{"a":null,"b":1}'],
    ["appends after the last key", '{"a":1}', { z: true }, '{"a":1,"z":true}'],
    ["fills an empty object", "{}", { b: 2, a: 1 }, '{"a":1,"b":2}'],
    ["replaces the last value", '{"a":"x","b":[1,{"c":"}"}]}', { b: 0 }, '{"a":"x","b":0}'],
    ["skips a nested member of the same name", '{"a":{"m":1},"n":2}', { m: 5 }, '{"a":{"m":1},"m":5,"n":2}'],
    ["skips strings that hold quotes, braces and backslashes", '{"a":"q\\"}{[,\\\\","b":1}', { b: 2 }, '{"a":"q\\"}{[,\\\\","b":2}'],
    ["reads escaped keys", '{"a\\"b":1,"c":2}', { 'a"b': 3 }, '{"a\\"b":3,"c":2}'],
    ["orders by UTF-16 code units", '{"Z":1,"a":2,"é":3}', { _: 0, "😀": 4 }, '{"Z":1,"_":0,"a":2,"é":3,"😀":4}'],
    ["keeps a number's full text", '{"a":1.5e-7,"b":-0.25}', { c: 1 }, '{"a":1.5e-7,"b":-0.25,"c":1}'],
  ];
  for (const [name, text, members, expected] of table) {
    test(name, () => {
      expect(setMembers(text, sorted(members))).toBe(expected);
      expect(viaParse(text, members)).toBe(expected);
    });
  }

  test("membersSet tells whether the text changed, and hands back the text itself when it did not", () => {
    const text = '{"a":1,"b":"x","c":[1,2]}';
    expect(membersSet(text, [["b", '"x"']])).toEqual({ text, changed: false });
    expect(membersSet(text, [["a", "1"], ["c", "[1,2]"]])).toEqual({ text, changed: false });
    expect(membersSet(text, [])).toEqual({ text, changed: false });
    // Same length, other characters; a longer value; a member added; only the last of two differs.
    expect(membersSet(text, [["b", '"y"']])).toEqual({ text: '{"a":1,"b":"y","c":[1,2]}', changed: true });
    expect(membersSet(text, [["a", "10"]])).toEqual({ text: '{"a":10,"b":"x","c":[1,2]}', changed: true });
    expect(membersSet(text, [["ab", "1"]])).toEqual({ text: '{"a":1,"ab":1,"b":"x","c":[1,2]}', changed: true });
    expect(membersSet(text, [["a", "1"], ["d", "null"]])).toEqual({ text: '{"a":1,"b":"x","c":[1,2],"d":null}', changed: true });
    expect(membersSet(text, [["a", "1"], ["c", "[1,3]"]])).toEqual({ text: '{"a":1,"b":"x","c":[1,3]}', changed: true });
    expect(membersSet("{", [["a", "1"]])).toBeUndefined();
  });

  test("text that is not one canonical object is refused, not guessed at", () => {
    for (const text of ["", "[]", '"a"', "{", '{"a":1', '{"a" :1}', '{"a":1,}x', '{"a":"x}', '{"a":[1}', '{"a":1}}', "{a:1}"]) {
      expect(setMembers(text, [["b", "1"]])).toBeUndefined();
    }
  });

  test("for any document and any scalar members: the text the parsing path gives", () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a", "b", "status", "measuredOg", "10", "__proto__", 'q"', "\\"));
    const scalar = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null));
    const doc = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });
    fc.assert(
      fc.property(doc, fc.dictionary(key, scalar, { minKeys: 1, maxKeys: 4 }), (d, members) => {
        const text = canonicalJson(d);
        const expected = viaParse(text, members);
        expect(setMembers(text, sorted(members))).toBe(expected);
        expect(membersSet(text, sorted(members))!.changed).toBe(expected !== text);
      }),
      { numRuns: 2000 },
    );
  });
});
