// In-process harness for the recipe tests: the app over an in-memory store with accounts of every
// scope combination the recipe endpoints care about, a call that fails the test on any 5xx, and a
// table runner for `{ name, method, url, as, body, status, text | json }` scenarios.
import { expect, test } from "bun:test";
import { testApp, type Account, type CallOptions, type CallResult } from "../helpers/app.ts";

export type Doc = Record<string, any>;
export type { Account, CallResult };

/** Who the tables can name. `v1` holds a version 1 key with every version 1 scope. */
export type Who = "alice" | "bob" | "writer" | "reader" | "batchesOnly" | "v1";

export async function openWorld(data: { alice?: unknown; bob?: unknown } = {}) {
  // The rate limit is the rate-limit tests' business; here it must never interfere.
  const h = await testApp({ rateLimitV2PerHour: 1_000_000, rateLimitV1PerHour: 1_000_000 });
  const accounts: Record<Who, Account> = {
    alice: await h.account("alice"),
    bob: await h.account("bob"),
    writer: await h.account("writer", ["recipes.read", "recipes.write"]),
    reader: await h.account("reader", ["recipes.read"]),
    batchesOnly: await h.account("batches-only", ["batches.read", "batches.write", "batches.delete"]),
    v1: await h.account("alice-v1", ["recipes.read", "batches.read"], 1),
  };
  if (data.alice) await h.load("alice", data.alice);
  if (data.bob) await h.load("bob", data.bob);

  async function call(method: string, path: string, who: Who | null, opts: CallOptions = {}): Promise<CallResult> {
    const res = await h.call(method, path, who === null ? null : accounts[who], opts);
    if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res;
  }

  /** Creates a recipe as `who` and returns its id; fails the test unless the answer is 201. */
  async function create(body: unknown, who: Who = "alice"): Promise<string> {
    const res = await call("POST", "/v2/recipes", who, { body });
    expect([res.status, res.text]).toEqual([201, expect.stringMatching(/^\{"id":"[A-Za-z0-9]{20}"\}$/)]);
    return res.json().id;
  }

  /** The stored recipe as GET one returns it; fails the test unless the answer is 200. */
  async function read(id: string, who: Who = "alice"): Promise<Doc> {
    const res = await call("GET", `/v2/recipes/${id}`, who);
    expect(res.status).toBe(200);
    return res.json();
  }

  return { h, accounts, call, create, read };
}

export type World = Awaited<ReturnType<typeof openWorld>>;

export interface Scenario {
  name: string;
  method: string;
  url: string;
  as: Who | null;
  auth?: string;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
  status: number;
  /** Exact body text, or for JSON answers the parsed value expected. */
  text?: string;
  json?: unknown;
  /** A pattern the body text must match, for answers carrying a new id. */
  match?: RegExp;
  /** Checks after the call: what the request stored or left alone. */
  after?: (w: World, res: CallResult) => Promise<void> | void;
}

/** One test per scenario, each on a fresh world, so a scenario that writes cannot disturb another. */
export function runTable(scenarios: readonly Scenario[], makeWorld: () => Promise<World>): void {
  for (const s of scenarios) {
    test(s.name, async () => {
      const w = await makeWorld();
      const opts: CallOptions = { headers: s.headers, raw: s.raw };
      if (s.body !== undefined) opts.body = s.body;
      if (s.auth !== undefined) opts.auth = s.auth;
      const res = await w.call(s.method, s.url, s.as, opts);
      if (s.match) expect([res.status, res.text]).toEqual([s.status, expect.stringMatching(s.match)]);
      else expect({ status: res.status, body: s.json === undefined ? res.text : res.json() }).toEqual({ status: s.status, body: s.json === undefined ? s.text : s.json });
      await s.after?.(w, res);
    });
  }
}
