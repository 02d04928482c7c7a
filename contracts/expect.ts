// Assertions that fail a check with the exchange attached, so the report shows the request,
// the answer and a curl line to reproduce it.
import { parseJson, type Exchange } from "./client.ts";
import { CheckFailure, type Ctx } from "./engine.ts";

export function fail(message: string, ex?: Exchange): never {
  throw new CheckFailure(message, ex);
}

export function expectStatus(ex: Exchange, status: number | number[]): void {
  const ok = Array.isArray(status) ? status.includes(ex.status) : ex.status === status;
  if (!ok) fail(`expected status ${Array.isArray(status) ? status.join(" or ") : status}, got ${ex.status}`, ex);
}

/** Status and exact plain-text body; the body is compared only while text checks are on. */
export function expectText(ctx: Ctx, ex: Exchange, status: number, text: string): void {
  expectStatus(ex, status);
  if (ctx.textChecks && ex.body !== text) fail(`expected body ${JSON.stringify(text)}, got ${JSON.stringify(ex.body)}`, ex);
}

export function expectJson(ex: Exchange, status: number): unknown {
  expectStatus(ex, status);
  const parsed = parseJson(ex);
  if (!parsed.ok) fail("expected a JSON body", ex);
  return parsed.value;
}

export function expectArray(ex: Exchange, status = 200): Record<string, unknown>[] {
  const v = expectJson(ex, status);
  if (!Array.isArray(v)) fail("expected a JSON array", ex);
  return v as Record<string, unknown>[];
}

export function expectObject(ex: Exchange, status = 200): Record<string, unknown> {
  const v = expectJson(ex, status);
  if (!v || typeof v !== "object" || Array.isArray(v)) fail("expected a JSON object", ex);
  return v as Record<string, unknown>;
}

/** 201 with exactly `{"id": <non-empty string>}`; returns the id. */
export function expectCreated(ex: Exchange): string {
  const v = expectObject(ex, 201);
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== "id" || typeof v.id !== "string" || v.id === "") {
    fail(`expected {"id": <string>}, got ${ex.body}`, ex);
  }
  return v.id as string;
}

/**
 * The id of a record a POST made, whatever the check then makes of the answer: any success status
 * with `{"id": …}` (a target answering 200 where the document says 201 made it all the same), so the
 * kit deletes it again.
 */
export function madeId(ex: Exchange): string | undefined {
  if (ex.status < 200 || ex.status > 299) return undefined;
  const parsed = parseJson(ex);
  const id = parsed.ok ? (parsed.value as { id?: unknown } | null)?.id : undefined;
  return typeof id === "string" && id ? id : undefined;
}

export function assert(cond: unknown, message: string, ex?: Exchange): asserts cond {
  if (!cond) fail(message, ex);
}

/** Structural equality, key order ignored. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b as object, k) && deepEqual((a as any)[k], (b as any)[k]));
}

/** Value at a dot path, or undefined. */
export function atPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (!cur || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? "undefined" : s.length > 300 ? s.slice(0, 300) + "…" : s;
}
