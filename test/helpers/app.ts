import { createApp } from "../../src/app.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { SCOPES, type Scope } from "../../src/lib/scopes.ts";
import { parseImport } from "../../src/import.ts";
import { issueApiKey } from "../../src/store/keys.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { checkResponse } from "./openapi-responses.ts";

export interface Account {
  userId: string;
  key: string;
  auth: string;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  auth?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  text: string;
  headers: Headers;
  json<T = any>(): T;
}

export const basic = (userId: string, key: string) => `Basic ${Buffer.from(`${userId}:${key}`).toString("base64")}`;

/**
 * The app in process over a given store, with helpers to make accounts, load data and call it. The
 * host must be a real-looking name: Elysia finds the path after the third slash of the URL.
 */
export function appOnStore<S extends Store>(store: S, configOverrides: Partial<Config> = {}) {
  const config = { ...loadConfig({ DEMO: "0", LOG_LEVEL: "silent" }), ...configOverrides };
  const app = createApp(config, store);

  async function account(userId: string, scopes: readonly Scope[] = SCOPES, apiVersion: 1 | 2 = 2): Promise<Account> {
    if (!(await store.userExists(userId))) await store.createUser(userId, null);
    const key = await issueApiKey(store, userId, scopes, apiVersion);
    return { userId, key, auth: basic(userId, key) };
  }

  async function load(userId: string, document: unknown): Promise<void> {
    await store.importAll(userId, parseImport(document));
  }

  const openApiDocument = async () => (await app.handle(new Request("http://localhost/swagger/json"))).json();

  async function call(method: string, path: string, who: Account | null, opts: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.auth !== undefined ? opts.auth : who?.auth;
    if (auth) headers.authorization = auth;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    await checkResponse(openApiDocument, method, path, res.status, res.headers.get("content-type"), text);
    return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) };
  }

  return { app, store, config, account, load, call };
}

/**
 * An app over a fresh store: in-memory SQLite, or with TEST_STORE=postgres an emptied PostgreSQL
 * database (npm test runs the in-process suites both ways; see scripts/test.sh).
 */
export async function testApp(configOverrides: Partial<Config> = {}) {
  if (process.env.TEST_STORE === "postgres") {
    const { sharedPostgresStore } = await import("./stores.ts");
    return appOnStore((await sharedPostgresStore()) as Store, configOverrides);
  }
  return appOnStore(SqliteStore.open(":memory:") as Store, configOverrides);
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;
