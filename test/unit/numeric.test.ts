// parseNumeric: a value counts as a number when it is a finite number, or a string holding a finite
// decimal number (optional sign, digits, optional fraction and exponent, surrounding white space).
// API document, Inventory PATCH rule 3 and Batch PATCH values (docs/decisions.md, Batches).
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parseNumeric } from "../../src/lib/numeric.ts";

// ECMAScript WhiteSpace and LineTerminator code points: what the language trims around a number.
const SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
].map((c) => String.fromCharCode(c)));
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** Independent oracle, written as a scanner: does the text match the decimal grammar above? */
function isDecimalText(s: string): boolean {
  let i = 0;
  let end = s.length;
  while (i < end && SPACES.has(s[i])) i++;
  while (end > i && SPACES.has(s[end - 1])) end--;
  if (s[i] === "+" || s[i] === "-") i++;
  let intDigits = 0;
  while (i < end && isDigit(s[i])) (i++, intDigits++);
  let fracDigits = 0;
  if (s[i] === "." && i < end) {
    i++;
    while (i < end && isDigit(s[i])) (i++, fracDigits++);
  }
  if (intDigits + fracDigits === 0) return false;
  if (i < end && (s[i] === "e" || s[i] === "E")) {
    i++;
    if (i < end && (s[i] === "+" || s[i] === "-")) i++;
    let expDigits = 0;
    while (i < end && isDigit(s[i])) (i++, expDigits++);
    if (expDigits === 0) return false;
  }
  return i === end;
}

function oracle(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || !isDecimalText(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

describe("parseNumeric accepts", () => {
  const cases: Array<[unknown, number]> = [
    [0, 0],
    [-12.5, -12.5],
    [Number.MAX_VALUE, Number.MAX_VALUE],
    ["1.052", 1.052],
    ["0", 0],
    ["-0.5", -0.5],
    ["+3", 3],
    [".5", 0.5],
    ["5.", 5],
    ["1e3", 1000],
    ["1E-3", 0.001],
    ["-2.5e+2", -250],
    ["  14  ", 14],
    ["\t7\n", 7],
    ["\u00a08\u3000", 8],
    ["007", 7],
  ];
  for (const [input, value] of cases) {
    test(`${JSON.stringify(input)} is ${value}`, () => expect(parseNumeric(input)).toBe(value));
  }
});

describe("parseNumeric refuses", () => {
  const cases: unknown[] = [
    "", "   ", "abc", "1.2.3", "1,5", "1_000", "12abc", "abc12", "0x10", "0b1", "0o7", "NaN", "Infinity", "-Infinity",
    "1e", "1e+", "e5", ".", "+", "-", "+-1", "--1", "1 2", "1e999", "-1e999", "١٢", NaN, Infinity, -Infinity, null,
    undefined, true, false, {}, [], [1], 10n,
  ];
  for (const input of cases) {
    test(`${Bun.inspect(input)} (${typeof input})`, () =>
      expect(parseNumeric(input)).toBeUndefined());
  }
});

describe("parseNumeric agrees with an independent scanner", () => {
  const piece = fc.constantFrom("0", "1", "7", "9", ".", "e", "E", "+", "-", " ", "\t", "\u00a0", "x", "a", "_", ",", "I", "n", "\u0661");
  const digits = fc.string({ unit: fc.constantFrom("0", "1", "2", "5", "9"), maxLength: 6 });
  const space = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2003", "\ufeff"), maxLength: 2 });
  // Mostly well-formed numbers, so the property sees accepted texts as well as refused ones.
  const shaped = fc
    .tuple(space, fc.constantFrom("", "+", "-"), digits, fc.constantFrom("", "."), digits, fc.constantFrom("", "e", "E-", "e+"), digits, space)
    .map((parts) => parts.join(""));
  test("for text built from number-like pieces and arbitrary text", () => {
    fc.assert(
      fc.property(fc.oneof(shaped, fc.string({ unit: piece, maxLength: 12 }), fc.string()), (s) => {
        expect(parseNumeric(s)).toBe(oracle(s));
      }),
      { numRuns: 2000 },
    );
  });
  test("for every double, given as a number or as its own text", () => {
    fc.assert(
      fc.property(fc.double(), (d) => {
        expect(parseNumeric(d)).toBe(oracle(d));
        expect(parseNumeric(String(d))).toBe(oracle(String(d)));
      }),
      { numRuns: 1000 },
    );
  });
});
