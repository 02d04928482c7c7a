import { badRequest, ERRORS } from "./errors.ts";
import type { ListQuery } from "../store/types.ts";

// Common list query parameters (API document, Endpoints). An empty value counts as absent, so a
// client that always sends `include=` or `start_after=` gets the defaults; any other value is taken
// as sent: ` asc` is not `asc` ("any other value gives 400").

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const MAX_INCLUDE_PATHS = 200;

export interface ListRequest {
  query: ListQuery;
  complete: boolean;
  /** Extra dot paths asked for with `include` (empty when none). */
  include: string[];
}

function value(params: URLSearchParams, name: string): string | undefined {
  const v = params.get(name);
  return v === null || v === "" ? undefined : v;
}

/** `True`/`False` in any letter case; absent is false. */
export function parseBoolean(params: URLSearchParams, name: string): boolean {
  const v = value(params, name);
  if (v === undefined) return false;
  const lower = v.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  throw badRequest(name === "complete" ? ERRORS.invalidComplete : ERRORS.invalidBoolean(name));
}

/** Every `include` value (repeated parameters too), split at commas, blanks dropped. */
export function parseInclude(params: URLSearchParams): string[] {
  const given = params.getAll("include");
  if (given.length === 0) return [];
  const paths = given
    .flatMap((v) => v.split(","))
    .map((p) => p.trim())
    .filter(Boolean);
  return paths.slice(0, MAX_INCLUDE_PATHS);
}

export function parseLimit(params: URLSearchParams): number {
  const v = value(params, "limit");
  if (v === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(v)) throw badRequest(ERRORS.invalidLimit);
  const n = Number(v);
  if (n < 1) throw badRequest(ERRORS.invalidLimit);
  return Math.min(n, MAX_LIMIT);
}

/** A whole, non-negative number of milliseconds (`since`, `until`, beyond the hosted API); absent when not given. */
export function parseTime(params: URLSearchParams, name: string): number | undefined {
  const v = value(params, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw badRequest(ERRORS.invalidField(name));
  return Number(v);
}

/** A comma list of values each one of `allowed` (`status_in`, beyond the hosted API); absent when not given. */
export function parseOneOf<T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] | undefined {
  const v = value(params, name);
  if (v === undefined) return undefined;
  const values = v.split(",");
  if (!values.every((x): x is T => (allowed as readonly string[]).includes(x))) throw badRequest(ERRORS.invalidField(name));
  return [...new Set(values)];
}

export function parseOffset(params: URLSearchParams): number {
  const v = value(params, "offset");
  if (v === undefined) return 0;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw badRequest(ERRORS.invalidOffset);
  return Number(v);
}

export function parseListRequest(params: URLSearchParams): ListRequest {
  const complete = parseBoolean(params, "complete");
  const include = complete ? [] : parseInclude(params);
  const orderBy = value(params, "order_by") ?? "_id";
  if (!FIELD_PATH.test(orderBy)) throw badRequest(ERRORS.invalidOrderBy);
  const direction = value(params, "order_by_direction") ?? "asc";
  if (direction !== "asc" && direction !== "desc") throw badRequest(ERRORS.invalidOrderByDirection);
  return {
    complete,
    include,
    query: {
      limit: parseLimit(params),
      startAfter: value(params, "start_after"),
      orderBy,
      desc: direction === "desc",
      fields: complete || include.length ? "body" : "summary",
    },
  };
}

/** Version 1 pages with `offset` in `_id` order; `start_after` and `order_by` are version 2 only. */
export function parseListRequestFor(version: 1 | 2, params: URLSearchParams): ListRequest {
  // A list asked for with no parameters (most are) gets its version's defaults, parsed once.
  if (params.size === 0) return DEFAULTS[version];
  return parseFor(version, params);
}

function parseFor(version: 1 | 2, params: URLSearchParams): ListRequest {
  if (version === 2) return parseListRequest(params);
  const complete = parseBoolean(params, "complete");
  const include = complete ? [] : parseInclude(params);
  return {
    complete,
    include,
    query: {
      limit: parseLimit(params),
      offset: parseOffset(params),
      orderBy: "_id",
      desc: false,
      fields: complete || include.length ? "body" : "summary",
    },
  };
}

const frozen = (r: ListRequest): ListRequest => Object.freeze({ ...r, include: Object.freeze(r.include) as string[], query: Object.freeze(r.query) });
const DEFAULTS = { 1: frozen(parseFor(1, new URLSearchParams())), 2: frozen(parseFor(2, new URLSearchParams())) };
