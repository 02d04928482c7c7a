import { badRequest, ERRORS } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { parseNumeric } from "../lib/numeric.ts";

// Reading one field of a device post. Real senders send numbers as strings, camelCase twins of the
// documented snake_case names (`auxTemp`, `tempUnit`), kebab-case ones (GravityMon before 1.0 sends
// `temp-units` in its iSpindel format), and empty strings or null for what they lack.

const camelTwin = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const kebabTwin = (name: string) => name.replaceAll("_", "-");

// The spellings of each field name, made once: the names are the parsers' own constants, and making
// them on every look was a tenth of a device post's JavaScript.
const spellings = new Map<string, readonly string[]>();
function spellingsOf(name: string): readonly string[] {
  let keys = spellings.get(name);
  if (keys === undefined) spellings.set(name, (keys = [...new Set([name, camelTwin(name), name.toLowerCase(), kebabTwin(name)])]));
  return keys;
}

/**
 * The value under a name, its camelCase or kebab-case twin or its lower-case spelling (`color` for a
 * Tilt's `Color`); null and blank strings count as absent.
 */
export function rawField(body: Doc, name: string): unknown {
  for (const key of spellingsOf(name)) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (typeof v === "string" && v.trim() === "") continue;
    return v;
  }
  return undefined;
}

/**
 * A number, or a numeric string; anything else under the name is 400 `Invalid <name>`. With
 * `zeroIsAbsent`, 0 counts as not sent (a popular template sends 0 for values it does not have).
 */
export function numberField(body: Doc, name: string, zeroIsAbsent = false): number | undefined {
  const v = rawField(body, name);
  if (v === undefined) return undefined;
  const n = parseNumeric(v);
  if (n === undefined) throw badRequest(ERRORS.invalidField(name));
  return zeroIsAbsent && n === 0 ? undefined : n;
}

/** Longest text kept of a name, comment or beer. */
export const MAX_TEXT = { name: 64, comment: 1000 } as const;

/** Text, trimmed; a number counts as its text (a batch number in `Beer`), anything else is 400. */
export function textField(body: Doc, name: string, max: number = MAX_TEXT.comment): string | undefined {
  const v = rawField(body, name);
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string" || v.length > max) throw badRequest(ERRORS.invalidField(name));
  return v.trim();
}

/** One of a closed set of unit names, any letter case; absent gives the default. */
export function unitField<T extends string>(body: Doc, name: string, units: readonly T[], fallback: T, aliases: Readonly<Record<string, T>> = {}): T {
  const v = rawField(body, name);
  if (v === undefined) return fallback;
  const given = typeof v === "string" ? v.trim().toUpperCase() : undefined;
  const unit = given === undefined ? undefined : (aliases[given] ?? given);
  if (!unit || !(units as readonly string[]).includes(unit)) throw badRequest(ERRORS.invalidField(name));
  return unit as T;
}
