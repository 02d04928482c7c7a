// What a planted deviation sees and returns. The proxy hands each request to the chosen
// deviation, which answers it itself, corrupts the target's answer, or lets it through.
import type { AreaName } from "../config.ts";

export interface Upstream { status: number; headers: Headers; body: string }

export interface Override { path?: string; search?: string; authorization?: string; body?: string; method?: string }

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body?: string;
  /** The body parsed as JSON, or undefined. */
  json(): any;
  forward(override?: Override): Promise<Upstream>;
  /** The query with some parameters changed (undefined deletes), as a `?…` search string. */
  search(changes: Record<string, string | undefined>): string;
  /** State kept across the requests of one proxy. */
  state: Map<string, any>;
  /** Authorizations of the main and the other account, for deviations that leak records. */
  mainAuthorization?: string;
  otherAuthorization?: string;
}

export interface Deviation {
  name: string;
  area: AreaName;
  what: string;
  /** Part of the name of a check that must fail: the check that catches this deviation. */
  caughtBy: string;
  /** The check that catches it is the only one to fail (each check of an addition or a nested bound has such a deviation). */
  alone?: boolean;
  /** Settings the run needs beyond the accounts (data the API cannot make). */
  settings?: Record<string, string>;
  handle(c: Call): Promise<Response | Upstream | undefined>;
}

export function text(body: string, status: number): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

export function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

/** The target's answer, with the plain-text body `from` (at `status`) replaced by `to`. */
export async function retext(c: Call, status: number, from: string, to: string): Promise<Upstream> {
  const u = await c.forward();
  return u.status === status && u.body === from ? { ...u, body: to } : u;
}

/** The upstream answer with its JSON body changed by `f`, when it is a 2xx JSON answer. */
export function mapJson(u: Upstream, f: (v: any) => unknown): Upstream {
  if (u.status < 200 || u.status >= 300) return u;
  let v: unknown;
  try { v = JSON.parse(u.body); } catch { return u; }
  return { ...u, body: JSON.stringify(f(v)) };
}

export const LIST = /^\/v2\/(batches|recipes|inventory\/(fermentables|hops|miscs|yeasts))$/;
export const ONE = /^\/v2\/(batches|recipes|inventory\/(fermentables|hops|miscs|yeasts))\/([^/]+)$/;
export const STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"];

/** Fields a deviation keeps although they are server-managed: remembered per record, shown on reads. */
export function keepOnRead(c: Call, id: string, fields: Record<string, unknown>): void {
  c.state.set(`kept ${id}`, { ...(c.state.get(`kept ${id}`) ?? {}), ...fields });
}

export async function readWithKept(c: Call): Promise<Upstream | undefined> {
  const m = c.method === "GET" ? ONE.exec(c.path) : null;
  const kept = m ? c.state.get(`kept ${m[3]}`) : undefined;
  if (!kept) return undefined;
  return mapJson(await c.forward(), (v) => ({ ...v, ...kept }));
}
