// "A numeric string counts as a number": a finite decimal number, optional sign, digits, optional
// fraction and exponent, surrounding spaces allowed. Hex, empty, NaN and Infinity are not numbers.
const DECIMAL = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

export function parseNumeric(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || !DECIMAL.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A sent value of a bounded number field: null (clearing it), a number or numeric string within the
 * inclusive bounds (no maximum: unbounded above), or undefined when it is neither.
 */
export function boundedNumeric(value: unknown, minimum: number, maximum?: number): number | null | undefined {
  if (value === null) return null;
  const n = parseNumeric(value);
  return n === undefined || n < minimum || (maximum !== undefined && n > maximum) ? undefined : n;
}
