// A deep copy that JSON can carry: no NaN or Infinity (they become null), no
// functions or undefined values, no shared references with the caller's object.
const MAX_DEPTH = 64;

export function jsonSafe(value: unknown, depth = 0): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value !== "object") return undefined; // function, symbol, bigint, undefined
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v, depth + 1) ?? null);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value instanceof Date ? value.toISOString() : null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const safe = jsonSafe(v, depth + 1);
    // defineProperty keeps an own "__proto__" key a plain data property.
    if (safe !== undefined) Object.defineProperty(out, k, { value: safe, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
