import { Elysia } from "elysia";
import { newRateLimiter } from "../../src/api.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { Authenticator } from "../../src/http/auth.ts";
import { parseImport } from "../../src/import.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { WebOptions } from "../../src/web/options.ts";
import { webRoutes } from "../../src/web/routes.ts";
import { hashPassword } from "../../src/web/password.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import type { Scope } from "../../src/lib/scopes.ts";
import { importDocument } from "./data.ts";

export const PASSWORD = "malt and hops 42";

export type Send = (path: string, init?: RequestInit & { cookie?: string }) => Promise<Page>;

export interface Page {
  status: number;
  location: string | null;
  setCookie: string | null;
  headers: Headers;
  text: string;
}

/**
 * The web pages in process over a fresh in-memory store, with a clock the test moves. `api` is the
 * whole application on the same store, for calls with the keys the pages generate.
 */
export async function webHarness(sessionTtlSeconds = 3600, options: Partial<WebOptions> = {}, env: Record<string, string> = {}) {
  const store = SqliteStore.open(":memory:");
  const config = loadConfig({ DEMO: "0", LOG_LEVEL: "warn", ...env });
  const clock = { now: Date.UTC(2025, 0, 1) };
  const deps = { config, store, auth: new Authenticator(store, newRateLimiter(config)) };
  const app = new Elysia().use(webRoutes(deps, { sessionTtlSeconds, now: () => clock.now, ...options }));
  const api = createApp(config, store);

  async function user(userId: string, password: string | null = PASSWORD) {
    await store.createUser(userId, password === null ? null : await hashPassword(password));
  }

  async function load(userId: string, document: unknown) {
    await store.importAll(userId, parseImport(document));
  }

  const request: Send = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set("cookie", init.cookie);
    // What a browser sends on navigation; the pages answer only requests that accept HTML.
    if (!headers.has("accept")) headers.set("accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    const res = await app.handle(new Request(`http://localhost${path}`, { ...init, headers }));
    return { status: res.status, location: res.headers.get("location"), setCookie: res.headers.get("set-cookie"), headers: res.headers, text: await res.text() };
  };

  return { store, config, clock, app, api, user, load, request, client: (): Client => new Client(request) };
}

export type WebHarness = Awaited<ReturnType<typeof webHarness>>;

export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

/** A browser's cookie handling in miniature: keeps the one session cookie the pages set. */
export class Client {
  cookie?: string;
  constructor(private readonly send: Send) {}

  private keep(page: Page): Page {
    const set = page.setCookie;
    if (set) {
      const pair = set.split(";")[0]!;
      this.cookie = /Max-Age=0(;|$)/.test(set) ? undefined : pair;
    }
    return page;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.keep(await this.send(path, { cookie: this.cookie, headers }));
  }

  async post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Page> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    return this.keep(await this.send(path, { method: "POST", cookie: this.cookie, body: body.toString(), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } }));
  }

  /** Signs in through the form; returns the sign-in answer. */
  async signIn(userId: string, password = PASSWORD): Promise<Page> {
    const form = await this.get("/signin");
    return this.post("/signin", { csrf: csrfOf(form.text)!, userId, password });
  }

  /** The CSRF token the signed-in pages carry. */
  async token(): Promise<string> {
    return csrfOf((await this.get("/settings")).text)!;
  }
}

export const basic = (userId: string, key: string) => `Basic ${Buffer.from(`${userId}:${key}`).toString("base64")}`;

/**
 * Alice with the test records (test/web/data.ts), signed in on the pages, and bob with none; `api` calls
 * the API as alice with a key of the given scopes, to see what the pages did as a client would.
 */
export async function aliceWithRecords(scopes: Scope[]) {
  const h = await webHarness();
  await h.user("alice");
  await h.user("bob");
  await h.load("alice", importDocument());
  const c = h.client();
  await c.signIn("alice");
  const key = await issueApiKey(h.store, "alice", scopes);
  const api = async (path: string, init: RequestInit = {}) => {
    const res = await h.api.handle(new Request(`http://localhost${path}`, { ...init, headers: { authorization: basic("alice", key), "content-type": "application/json" } }));
    return { status: res.status, text: await res.text() };
  };
  return { h, c, api };
}
