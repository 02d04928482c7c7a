// fast-check generators for stock amounts and numeric text, and an independent oracle for "a finite
// decimal number" (API document, Inventory PATCH rule 3; issue: optional sign, digits, optional
// fraction and exponent, surrounding spaces allowed; hex, empty, NaN and Infinity refused).
import fc from "fast-check";

/**
 * An amount with at most 6 decimals, held as an integer count of millionths so the model adds
 * exactly; `value` is how it is sent: a JSON number or one of several numeric spellings.
 */
export interface Amount {
  micro: number;
  value: number | string;
}

const MAX_MICRO = 1_000_000_000_000; // ±1,000,000 units: sums of a few stay far inside 2^53 millionths

/** The exact decimal text of micro / 10^6 ("-12.500000"). */
export function decimalText(micro: number): string {
  const abs = Math.abs(micro);
  const int = Math.floor(abs / 1e6);
  const frac = String(abs % 1e6).padStart(6, "0");
  return `${micro < 0 ? "-" : ""}${int}.${frac}`;
}

export const amountArb: fc.Arbitrary<Amount> = fc
  .tuple(
    fc.oneof(fc.integer({ min: -MAX_MICRO, max: MAX_MICRO }), fc.integer({ min: -2_000_000, max: 2_000_000 }), fc.integer({ min: -100, max: 100 }).map((n) => n * 100_000)),
    fc.constantFrom("number", "plain", "exponent", "spaced", "signed", "trimmed"),
  )
  .map(([micro, form]): Amount => {
    const sign = micro < 0 ? "-" : "";
    switch (form) {
      case "number":
        return { micro, value: micro / 1e6 };
      case "plain":
        return { micro, value: decimalText(micro) };
      case "exponent":
        return { micro, value: `${sign}${Math.abs(micro)}E-6` };
      case "spaced":
        return { micro, value: ` \t${decimalText(micro)}\n ` };
      case "signed":
        return { micro, value: micro < 0 ? decimalText(micro) : `+00${decimalText(micro)}` };
      default:
        // Trailing zeros of the fraction dropped, and the point too when nothing is left.
        return { micro, value: decimalText(micro).replace(/0+$/, "").replace(/\.$/, "") };
    }
  });

/** Values rule 3 refuses, whatever their spelling. */
export const notNumberArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("", " ", "NaN", "Infinity", "-Infinity", "+Infinity", "0x10", "0b101", "0o7", "1e", "1e+", ".", "-", "+", "1.2.3", "1,5", "12abc", "abc12", "1_000", "∞", "1e999", "-1e999"),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.tuple(fc.integer({ min: 0, max: 999 }), fc.constantFrom("kg", "g", "x", "abc", " 1", "e", "..")).map(([n, tail]) => `${n}${tail}`),
);

// ECMAScript WhiteSpace and LineTerminator code points: what may surround a number.
const SPACES = new Set(
  [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
    0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff].map((c) => String.fromCharCode(c)),
);
const SPACE_CHARS = [...SPACES];
const digit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** The finite number a text spells as a decimal number, or undefined: a scanner, not a regex. */
export function decimalValue(s: string): number | undefined {
  let i = 0;
  let end = s.length;
  while (i < end && SPACES.has(s[i]!)) i++;
  while (end > i && SPACES.has(s[end - 1]!)) end--;
  const start = i;
  if (s[i] === "+" || s[i] === "-") i++;
  let digits = 0;
  while (i < end && digit(s[i])) (i++, digits++);
  if (i < end && s[i] === ".") {
    i++;
    while (i < end && digit(s[i])) (i++, digits++);
  }
  if (digits === 0) return undefined;
  if (i < end && (s[i] === "e" || s[i] === "E")) {
    i++;
    if (i < end && (s[i] === "+" || s[i] === "-")) i++;
    let exp = 0;
    while (i < end && digit(s[i])) (i++, exp++);
    if (exp === 0) return undefined;
  }
  if (i !== end) return undefined;
  // parseFloat reads the longest decimal prefix; the scan above proved the prefix is all of it.
  const n = parseFloat(s.slice(start, end));
  return Number.isFinite(n) ? n : undefined;
}

const piece = <T>(arb: fc.Arbitrary<T>, show: (v: T) => string) => fc.option(arb.map(show), { nil: "" });

/** Texts built from the grammar's parts, each part possibly missing or malformed, plus stray characters. */
export const numericLikeArb: fc.Arbitrary<string> = fc
  .tuple(
    piece(fc.array(fc.constantFrom(...SPACE_CHARS, "_", "x"), { minLength: 1, maxLength: 2 }), (a) => a.join("")),
    fc.constantFrom("", "", "+", "-", "--", "+-"),
    piece(fc.stringMatching(/^\d{1,4}$/), (d) => d),
    piece(fc.stringMatching(/^\d{0,3}$/), (d) => `.${d}`),
    piece(fc.tuple(fc.constantFrom("e", "E", "x", "e+", "e-", "E-"), fc.stringMatching(/^\d{0,3}$/)), ([e, d]) => `${e}${d}`),
    piece(fc.array(fc.constantFrom(...SPACE_CHARS, "a", ",", "0x", "\u180e"), { minLength: 1, maxLength: 2 }), (a) => a.join("")),
  )
  .map((parts) => parts.join(""));

export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: numericLikeArb },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom("NaN", "Infinity", "-Infinity", "0x10", "0X1F", "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308") },
);

/** fast-check settings of this suite: modest runs, and the seed printed on failure. */
export const RUNS = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, verbose: 1 });
