// In-process harness for the HTTP tests: the app over an in-memory store, a call that fails the test
// on any 5xx (no response of this suite may be a server failure), and a table runner for
// `{ name, method, url, headers, body, status, text }` scenarios.
import { expect, test } from "bun:test";
import { basic, testApp, type Account, type CallOptions, type CallResult } from "../helpers/app.ts";
import type { Scope } from "../../src/lib/scopes.ts";

export { basic };
export type { Account, CallResult };

export async function openApp(overrides: Parameters<typeof testApp>[0] = {}) {
  const app = await testApp(overrides);
  async function call(method: string, path: string, who: Account | null, opts: CallOptions = {}): Promise<CallResult> {
    const res = await app.call(method, path, who, opts);
    if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res;
  }
  return { ...app, call };
}

export type Harness = Awaited<ReturnType<typeof openApp>>;

/** Accounts every table can name: their scopes, and the import each starts with. */
export interface World {
  h: Harness;
  accounts: Record<string, Account>;
}

export interface AccountSpec {
  scopes?: readonly Scope[];
  data?: unknown;
}

export async function world(specs: Record<string, AccountSpec>): Promise<World> {
  const h = await openApp();
  const accounts: Record<string, Account> = {};
  for (const [userId, spec] of Object.entries(specs)) {
    accounts[userId] = await h.account(userId, spec.scopes);
    if (spec.data) await h.load(userId, spec.data);
  }
  return { h, accounts };
}

export interface Scenario {
  name: string;
  method: string;
  url: string;
  /** The account whose key is sent; null sends no Authorization header. */
  as: string | null;
  /** A literal Authorization header, sent instead of the account's. */
  auth?: string;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
  status: number;
  /** Exact body text, or for JSON answers the parsed value expected. */
  text?: string;
  json?: unknown;
  /** Further checks on the world after the call (what the request changed or left alone). */
  after?: (w: World, res: CallResult) => Promise<void> | void;
}

export async function send(w: World, s: Omit<Scenario, "name" | "status">): Promise<CallResult> {
  const who = s.as === null ? null : w.accounts[s.as];
  if (s.as !== null && !who) throw new Error(`no account ${s.as}`);
  const opts: CallOptions = { headers: s.headers, raw: s.raw };
  if (s.body !== undefined) opts.body = s.body;
  if (s.auth !== undefined) opts.auth = s.auth;
  return w.h.call(s.method, s.url, who, opts);
}

/** One test per scenario, each on a fresh world, so a scenario that writes cannot disturb another. */
export function runTable(scenarios: readonly Scenario[], makeWorld: () => Promise<World>): void {
  for (const s of scenarios) {
    test(s.name, async () => {
      const w = await makeWorld();
      const res = await send(w, s);
      expect({ status: res.status, text: s.json === undefined ? res.text : res.json() }).toEqual({
        status: s.status,
        text: s.json === undefined ? s.text : s.json,
      });
      if (s.status === 401) expect(res.headers.get("www-authenticate")).toBe('Basic realm="brewrecords", charset="UTF-8"');
      await s.after?.(w, res);
    });
  }
}

/** Keys in alphabetical order at every level of a parsed JSON value (JSON.parse keeps text order). */
export function keysSortedEverywhere(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSortedEverywhere);
  if (value === null || typeof value !== "object") return true;
  const keys = Object.keys(value);
  const sorted = [...keys].sort();
  return keys.every((k, i) => k === sorted[i]) && Object.values(value).every(keysSortedEverywhere);
}

/** The same value with keys in alphabetical order at every level, written here independently of src/. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}
