// The app in process with a rate limiter whose clock the test moves, over an in-memory store.
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { RateLimiter, WINDOW_MS } from "../../src/http/rate-limit.ts";
import { SCOPES, type Scope } from "../../src/lib/scopes.ts";
import { parseImport } from "../../src/import.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { basic, type Account } from "../helpers/app.ts";

export { basic, WINDOW_MS };
export type { Account };

/** A window start well inside the range of real clocks: 2024-01-01T00:00:00Z, a whole hour. */
export const HOUR0 = Date.UTC(2024, 0, 1);

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

export async function clockApp(limits: { 1: number; 2: number } = { 1: 150, 2: 500 }, start = HOUR0) {
  const clock = { now: start };
  const store = SqliteStore.open(":memory:");
  const limiter = new RateLimiter(limits, () => clock.now);
  const app = createApp(loadConfig({ DEMO: "0", LOG_LEVEL: "silent" }), store, limiter);

  async function account(userId: string, scopes: readonly Scope[] = SCOPES, apiVersion: 1 | 2 = 2): Promise<Account> {
    if (!(await store.userExists(userId))) await store.createUser(userId, null);
    const key = await issueApiKey(store, userId, scopes, apiVersion);
    return { userId, key, auth: basic(userId, key) };
  }

  async function load(userId: string, document: unknown): Promise<void> {
    await store.importAll(userId, parseImport(document));
  }

  async function call(method: string, path: string, auth: string | null): Promise<Answer> {
    const headers: Record<string, string> = auth === null ? {} : { authorization: auth };
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers }));
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  return { clock, store, limiter, app, account, load, call };
}

/** The five rate-limit headers of a response, by name; absent ones are null. */
export function rateHeadersOf(headers: Headers) {
  const names = ["ratelimit-policy", "ratelimit", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];
  return Object.fromEntries(names.map((n) => [n, headers.get(n)]));
}

/** The headers a counted response must carry, written out here from the documented formats. */
export function expectedHeaders(version: 1 | 2, limit: number, remaining: number, reset: number) {
  return {
    "ratelimit-policy": `"v${version}";q=${limit};w=3600`,
    ratelimit: `"v${version}";r=${remaining};t=${reset}`,
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(reset),
  };
}
