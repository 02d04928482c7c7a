// Defensive readers: a recipe arrives as whatever the client sent, so every
// read tolerates missing, null, string or garbage values instead of throwing.

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

/** Plain objects of an array; anything else in the array is skipped. */
export function objList(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** A finite number, also from a numeric string (real exports carry `grainTemperature: "20"`). */
export function num(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** First finite value among the candidates, else the fallback. */
export function pick(fallback: number, ...candidates: unknown[]): number {
  for (const c of candidates) {
    const n = num(c);
    if (n !== undefined) return n;
  }
  return fallback;
}

/** A finite, non-negative number or the fallback. */
export function nonNeg(v: unknown, fallback = 0): number {
  const n = num(v);
  return n !== undefined && n >= 0 ? n : fallback;
}

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Lower-cased, trimmed text for matching enumeration-like values. */
export function key(v: unknown): string {
  return str(v).trim().toLowerCase();
}

/** Rounded to `decimals`; anything non-finite becomes 0 so JSON can carry it. */
export function round(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return 0;
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return Number.isFinite(r) ? r : 0;
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** A percentage field that real data sometimes carries as a fraction (0.81 for 81 %). */
export function fraction(v: unknown): number | undefined {
  const n = num(v);
  if (n === undefined || n < 0) return undefined;
  return n > 1 ? n / 100 : n;
}
