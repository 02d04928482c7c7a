// Canonical JSON: object keys in alphabetical order at every level, so stored text can be served as is
// (the API document: "List endpoints return properties in alphabetical key order").

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Doc = Record<string, unknown>;

/** Deepest nesting accepted in any document; JSON deeper than this is refused before it is walked. */
export const MAX_DEPTH = 64;

/**
 * A copy with keys inserted in alphabetical order. Objects are created without a prototype, so a
 * `__proto__` member of parsed JSON stays data. JavaScript still enumerates integer-like keys first:
 * serialise with `canonicalJson`, which orders every key.
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const src = value as Doc;
    const out: Doc = Object.create(null);
    for (const key of Object.keys(src).sort()) {
      const v = src[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * True when every object's own keys are already in alphabetical order as JavaScript enumerates them
 * (so no integer-like key sits out of order): then JSON.stringify gives canonical text as is. Documents
 * parsed from stored canonical text pass, which keeps the write path from re-serialising key by key.
 */
function inCanonicalOrder(value: unknown): boolean {
  // Recursive: values here have passed the depth check (MAX_DEPTH) on their way in, and a call per
  // object walks a 15 KB batch in about half the time of an explicit stack.
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i])) return false;
    return true;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    const child = (value as Doc)[key];
    if (child === undefined || typeof child === "function") return false;
    if (child !== null && typeof child === "object" && !inCanonicalOrder(child)) return false;
  }
  return true;
}

/** JSON text with the keys of every object in alphabetical (UTF-16 code unit) order. */
export function canonicalJson(value: unknown): string {
  return canonicalValue(value).text;
}

// A key JavaScript enumerates before all others, in numeric order, whatever the text's order. In
// JSON text a quote after `{` or `,` opens a key: a quote inside a string is escaped.
const INTEGER_KEY = /[{,]"(?:0|[1-9][0-9]*)":/;

export interface CanonicalText {
  text: string;
  /** JSON.parse of the text gives every object's keys in canonical order (no integer-like key moves first). */
  parsesInOrder: boolean;
}

/**
 * Canonical JSON text of a document, and whether it parses back in canonical order. `fresh`, when
 * given, names the only top-level members that may not come, untouched, from JSON.parse of text that
 * parses in order: the others need no walk, so a one-field change to a 15 KB batch checks the top
 * level alone.
 */
export function canonicalText(doc: Doc, fresh?: readonly string[]): CanonicalText {
  if (fresh ? topLevelInOrder(doc, fresh) : inCanonicalOrder(doc)) return { text: JSON.stringify(doc), parsesInOrder: true };
  // Updates add members at the end of a parsed document: with its top level sorted, the nested objects
  // (in order when they come from stored text) are serialised in one pass, not key by key.
  const sorted = withSortedKeys(doc);
  if (sorted !== doc && (fresh ? topLevelInOrder(sorted, fresh) : inCanonicalOrder(sorted))) return { text: JSON.stringify(sorted), parsesInOrder: true };
  return unorderedText(doc);
}

/**
 * Canonical text of many documents that mostly share one order of keys, such as a device's readings:
 * the keys are sorted once for each run of documents with the same keys in the same order, and a
 * document whose members are all scalars is copied in that order and serialised in one pass (a third
 * of canonicalText's time for a reading). Any other document goes to canonicalText.
 */
export function sameShapeText(): (doc: Doc) => string {
  let keys: string[] = [];
  // The keys in canonical order; undefined when one starts with a digit (see orderedCopy).
  let sorted: string[] | undefined = [];
  return (doc) => {
    let i = 0;
    let same = true;
    for (const key in doc) {
      if (keys[i] !== key) {
        same = false;
        break;
      }
      i++;
    }
    if (!same || i !== keys.length) {
      keys = Object.keys(doc);
      sorted = keys.some(startsWithDigit) ? undefined : keys.slice().sort();
    }
    if (sorted === undefined || !isPlainProto(doc)) return canonicalText(doc).text;
    const out: Doc = Object.create(null);
    for (let j = 0; j < sorted.length; j++) {
      const key = sorted[j];
      const v = doc[key];
      if (v !== null && typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") return canonicalText(doc).text;
      out[key] = v;
    }
    return JSON.stringify(out);
  };
}

/** Canonical JSON text of any JSON value, and whether it parses back in canonical order. */
export function canonicalValue(value: unknown): CanonicalText {
  // An object whose top level alone is out of order (members added after parsing) is sorted shallowly.
  if (isPlainObject(value)) return canonicalText(value);
  if (inCanonicalOrder(value)) return { text: JSON.stringify(value), parsesInOrder: true };
  return unorderedText(value);
}

// A value whose keys are out of order somewhere below the top (an imported batch, as other programs
// write them): a copy in canonical order, serialised in one JSON.stringify, took a half to two thirds
// of the time of serialising key by key. What the copy cannot carry goes key by key, as before.
function unorderedText(value: unknown): CanonicalText {
  const copy = orderedCopy(value);
  if (copy !== UNCOPIED) return { text: JSON.stringify(copy), parsesInOrder: true };
  const text = canonicalSlow(value);
  return { text, parsesInOrder: !INTEGER_KEY.test(text) };
}

const UNCOPIED = Symbol("uncopied");

// An integer-like key ("0", "12") is enumerated before all others whatever its place: copies in key
// order leave out every key that starts with a digit, which is cheaper to tell and never wrong.
const startsWithDigit = (key: string) => {
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57;
};

/** An object JSON.stringify writes member by member: no toJSON or other members from a prototype. */
const isPlainProto = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * The value with the keys of every object in alphabetical order: the value itself where they already
 * are, else a copy (objects without a prototype, so a `__proto__` member stays data). UNCOPIED for
 * what JSON.stringify of such a copy would not write as canonicalSlow does: a key starting with a
 * digit (JavaScript enumerates integer-like keys first), an object that is not plain (its toJSON), a
 * value that is not JSON (undefined, a function, a symbol, a bigint).
 */
function orderedCopy(value: unknown): unknown {
  if (value === null) return value;
  const type = typeof value;
  if (type !== "object") return type === "string" || type === "number" || type === "boolean" ? value : UNCOPIED;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const copy = orderedCopy(v);
      if (copy === UNCOPIED) return UNCOPIED;
      if (copy !== v) (out ??= value.slice())[i] = copy;
    }
    return out ?? value;
  }
  if (!isPlainProto(value as object)) return UNCOPIED;
  const src = value as Doc;
  const keys = Object.keys(src);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1] < keys[i];
  if (!inOrder) keys.sort();
  let out: Doc | undefined = inOrder ? undefined : Object.create(null);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (startsWithDigit(key)) return UNCOPIED;
    const v = src[key];
    const copy = orderedCopy(v);
    if (copy === UNCOPIED) return UNCOPIED;
    if (out === undefined && copy !== v) {
      out = Object.create(null) as Doc;
      for (let j = 0; j < i; j++) out[keys[j]] = src[keys[j]];
    }
    if (out !== undefined) out[key] = copy;
  }
  return out ?? value;
}

/** `inCanonicalOrder` for a document whose members outside `fresh` are known to be in order within. */
function topLevelInOrder(doc: Doc, fresh: readonly string[]): boolean {
  let previous: string | undefined;
  for (const key in doc) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    const child = doc[key];
    if (child === undefined || typeof child === "function") return false;
    if (child !== null && typeof child === "object" && fresh.includes(key) && !inCanonicalOrder(child)) return false;
  }
  return true;
}

/**
 * A shallow copy whose own keys are in alphabetical order (nested objects shared, not copied); the
 * document itself when its keys already are (a PATCH of fields it has keeps the stored order).
 */
function withSortedKeys(doc: Doc): Doc {
  let previous: string | undefined;
  let sorted = true;
  for (const key in doc) {
    if (previous !== undefined && !(previous < key)) {
      sorted = false;
      break;
    }
    previous = key;
  }
  if (sorted) return doc;
  const out: Doc = Object.create(null);
  for (const key of Object.keys(doc).sort()) out[key] = doc[key];
  return out;
}

function canonicalSlow(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      out += (i ? "," : "") + (v === undefined || typeof v === "function" ? "null" : canonicalSlow(v));
    }
    return out + "]";
  }
  const src = value as Doc;
  let out = "{";
  let first = true;
  for (const key of Object.keys(src).sort()) {
    const v = src[key];
    if (v === undefined || typeof v === "function") continue;
    out += (first ? "" : ",") + JSON.stringify(key) + ":" + canonicalSlow(v);
    first = false;
  }
  return out + "}";
}

/** Nesting depth of a parsed JSON value, computed without recursion so hostile input cannot overflow. */
export function depthOf(value: unknown, limit = MAX_DEPTH): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v as Doc)) {
      if (child !== null && typeof child === "object") stack.push([child, depth]);
    }
  }
  return max;
}

export function isPlainObject(value: unknown): value is Doc {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A projection as a tree of keys in canonical order, each copied whole or narrowed further.
type Shape = ReadonlyArray<{ key: string; sub: Shape | undefined }>;

function shapeOf(paths: ReadonlyArray<readonly string[]>): Shape {
  const byKey = new Map<string, Array<readonly string[]> | "whole">();
  for (const [key, ...rest] of paths) {
    const seen = byKey.get(key);
    // A whole member already asked for stays whole (include=recipe beside recipe.name).
    if (rest.length === 0) byKey.set(key, "whole");
    else if (seen === undefined) byKey.set(key, [rest]);
    else if (seen !== "whole") seen.push(rest);
  }
  return [...byKey.keys()].sort().map((key) => {
    const rest = byKey.get(key)!;
    return { key, sub: rest === "whole" ? undefined : shapeOf(rest) };
  });
}

// The members of `obj` that `shape` names, copied in its order; undefined when none is there.
function copyShape(obj: Doc, shape: Shape): Doc | undefined {
  let out: Doc | undefined;
  for (const { key, sub } of shape) {
    // Own members only: `in` also sees inherited names such as "constructor".
    if (!Object.hasOwn(obj, key)) continue;
    const value = obj[key];
    if (value === undefined) continue;
    const copy = sub === undefined ? value : isPlainObject(value) ? copyShape(value, sub) : undefined;
    if (copy !== undefined) (out ??= Object.create(null) as Doc)[key] = copy;
  }
  return out;
}

/**
 * The canonical JSON text of the values at the given dot paths, with the paths taken apart once for
 * many documents. Missing values are omitted rather than sent as null, as the hosted service does; a
 * path that crosses an array stops there. The copy is made with its keys in canonical order, so it is
 * serialised in one JSON.stringify.
 */
export function projector(paths: readonly string[]): (doc: Doc) => string {
  const shape = shapeOf(paths.map((p) => p.split(".")));
  return (doc) => canonicalJson(copyShape(doc, shape) ?? {});
}
