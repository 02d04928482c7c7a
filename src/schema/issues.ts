// Turns ajv errors into the service's validation issues: one issue per broken rule, with a dot
// path, the JSON Schema keyword and a message that names the path but never echoes the input.
import type { ErrorObject } from "ajv";
import { NUMERIC_STRING_PATTERN } from "./numeric-string";

export interface ValidationIssue {
  /** Dot path from the root, array indices as numbers ("fermentables.0.amount"; "" for the root). */
  path: string;
  /** The JSON Schema keyword broken ("required", "type", "minimum", "maximum", "enum", "minLength", …). */
  rule: string;
  /** Human readable; names the path. */
  message: string;
}

interface Item {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

const toItem = (e: ErrorObject): Item => ({
  instancePath: e.instancePath,
  schemaPath: e.schemaPath,
  keyword: e.keyword,
  params: e.params as Record<string, unknown>,
});

const typesOf = (p: Record<string, unknown>): string[] => (Array.isArray(p.type) ? p.type.map(String) : [String(p.type)]);

/**
 * A union (nullable value, closed set of literals) makes ajv report every branch plus the
 * `anyOf` itself. Fold them into what the caller needs to hear:
 *  - branches whose type fits are the candidates; if none fits, one `type` issue;
 *  - if every candidate only failed a literal, one `enum` issue listing the allowed values;
 *  - otherwise the errors of the closest candidate (fewest errors, first on a tie).
 */
function foldUnion(anyOf: Item, items: Item[]): Item[] {
  const prefix = `${anyOf.schemaPath}/`;
  const branches = new Map<string, Item[]>();
  for (const item of items) {
    const branch = item.schemaPath.slice(prefix.length).split("/")[0]!;
    branches.set(branch, [...(branches.get(branch) ?? []), item]);
  }
  const at = anyOf.instancePath;
  const typeMiss = (branch: Item[]) => branch.some((i) => i.keyword === "type" && i.instancePath === at);
  const candidates = [...branches.values()].filter((b) => !typeMiss(b));
  const base = { instancePath: at, schemaPath: anyOf.schemaPath };
  const allowsNull = [...branches.values()].some((b) => b.some((i) => i.keyword === "type" && i.instancePath === at && typesOf(i.params).includes("null")));

  if (candidates.length === 0) {
    const types = [...new Set([...branches.values()].flat().filter((i) => i.keyword === "type" && i.instancePath === at).flatMap((i) => typesOf(i.params)))];
    // "null" last reads naturally: "must be number or null".
    return [{ ...base, keyword: "type", params: { type: [...types.filter((t) => t !== "null"), ...types.filter((t) => t === "null")] } }];
  }
  const literalOnly = (b: Item[]) => b.every((i) => i.instancePath === at && (i.keyword === "const" || i.keyword === "enum"));
  if (candidates.every(literalOnly)) {
    const allowed = candidates.flat().flatMap((i) => (i.keyword === "const" ? [i.params.allowedValue] : (i.params.allowedValues as unknown[])));
    return [{ ...base, keyword: "enum", params: { allowedValues: [...new Set(allowed)], nullable: allowsNull || candidates.some((b) => b.some((i) => i.params.nullable === true)) } }];
  }
  return candidates.reduce((best, b) => (b.length < best.length ? b : best));
}

function foldUnions(items: Item[]): Item[] {
  let rest = items;
  // Innermost unions first, so an outer union sees its inner ones already folded.
  const unions = items.filter((i) => i.keyword === "anyOf").sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const union of unions) {
    const prefix = `${union.schemaPath}/`;
    const inside = rest.filter((i) => i.schemaPath.startsWith(prefix));
    const folded = foldUnion(union, inside);
    rest = rest.filter((i) => i !== union && !i.schemaPath.startsWith(prefix)).concat(folded);
  }
  return rest;
}

const unescape = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");
const dotPath = (pointer: string) => (pointer === "" ? "" : pointer.slice(1).split("/").map(unescape).join("."));
const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);

// Keys come from the schema or are array indices; keep them short anyway in case of odd input.
const MAX_PATH = 200;
const clip = (s: string) => (s.length > MAX_PATH ? `${s.slice(0, MAX_PATH)}…` : s);

const alternatives = (words: string[]) =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;

function describe(item: Item): string {
  const p = item.params;
  switch (item.keyword) {
    case "required": return "is required";
    case "type": return `must be ${alternatives(typesOf(p))}`;
    case "minimum": return `must be >= ${p.limit}`;
    case "maximum": return `must be <= ${p.limit}`;
    case "exclusiveMinimum": return `must be > ${p.limit}`;
    case "exclusiveMaximum": return `must be < ${p.limit}`;
    case "minLength": return p.limit === 1 ? "must not be empty" : `must have at least ${p.limit} characters`;
    case "maxLength": return `must have at most ${p.limit} characters`;
    case "enum": {
      const values = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ");
      return `must be one of ${values}${p.nullable ? " or null" : ""}`;
    }
    case "pattern": return p.pattern === NUMERIC_STRING_PATTERN ? "must be a number or a numeric string" : `must match ${JSON.stringify(p.pattern)}`;
    case "const": return `must be ${JSON.stringify(p.allowedValue)}`;
    default: return `must satisfy ${item.keyword}`;
  }
}

function toIssue(item: Item): ValidationIssue {
  const base = dotPath(item.instancePath);
  const path = clip(item.keyword === "required" ? join(base, String(item.params.missingProperty)) : base);
  return { path, rule: item.keyword, message: `${path === "" ? "document" : path} ${describe(item)}` };
}

/** Orders paths segment by segment, array indices numerically ("hops.2" before "hops.10"). */
export function comparePaths(a: string, b: string): number {
  const as = a === "" ? [] : a.split(".");
  const bs = b === "" ? [] : b.split(".");
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i]!, y = bs[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x), ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}

export function toIssues(errors: readonly ErrorObject[] | null | undefined): ValidationIssue[] {
  if (!errors || errors.length === 0) return [];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const issue of foldUnions(errors.map(toItem)).map(toIssue)) {
    const key = `${issue.path}\u0000${issue.rule}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues.sort((a, b) => comparePaths(a.path, b.path) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
}
