// In-process harness for the inventory tests: the app over a fresh in-memory store, accounts with
// the scope sets the tables name, and a call that fails the test on any 5xx (no answer of this
// suite may be a server failure). The rate limit is raised: property tests send thousands of calls.
import { expect, test } from "bun:test";
import type { Scope } from "../../src/lib/scopes.ts";
import { testApp, type Account, type CallOptions, type CallResult } from "../helpers/app.ts";
import { canonical, COLLECTIONS, ITEMS, ladderItems, type Doc } from "./fixtures.ts";

export type { Account, CallResult };

export const SCOPE_SETS: Record<string, readonly Scope[] | undefined> = {
  alice: undefined, // every scope
  bob: undefined,
  reader: ["inventory.read"],
  writer: ["inventory.read", "inventory.write"],
  deleter: ["inventory.read", "inventory.delete"],
  brewer: ["batches.read", "batches.write", "batches.delete", "recipes.read", "recipes.write", "recipes.delete"],
};

export interface World {
  call(method: string, path: string, as: string | null, opts?: CallOptions): Promise<CallResult>;
  accounts: Record<string, Account>;
  /** The stored item as the owner reads it, parsed; undefined on 404. */
  read(as: string, collection: string, id: string): Promise<Doc | undefined>;
  /** The exact text the owner reads (to prove a refused request changed no byte). */
  readText(as: string, collection: string, id: string): Promise<string>;
  stock(as: string, collection: string, id: string): Promise<unknown>;
  /** Imports documents into an account (the import format of src/import.ts). */
  load(userId: string, doc: unknown): Promise<void>;
}

/**
 * A world where alice holds the four fixture items and the stock ladder of every collection
 * (unless `empty`), and every other account holds nothing.
 */
export async function inventoryWorld(opts: { empty?: boolean } = {}): Promise<World> {
  const app = await testApp({ rateLimitV2PerHour: 1_000_000 });
  const accounts: Record<string, Account> = {};
  for (const [userId, scopes] of Object.entries(SCOPE_SETS)) accounts[userId] = await app.account(userId, scopes);
  if (!opts.empty) {
    const doc: Record<string, Doc[]> = {};
    for (const c of COLLECTIONS) doc[c] = [ITEMS[c], ...ladderItems(c)];
    await app.load("alice", doc);
  }
  async function call(method: string, path: string, as: string | null, o: CallOptions = {}): Promise<CallResult> {
    const who = as === null ? null : accounts[as];
    if (as !== null && !who) throw new Error(`no account ${as}`);
    const res = await app.call(method, path, who, o);
    if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res;
  }
  async function readText(as: string, c: string, id: string): Promise<string> {
    return (await call("GET", `/v2/inventory/${c}/${encodeURIComponent(id)}`, as)).text;
  }
  async function read(as: string, c: string, id: string): Promise<Doc | undefined> {
    const res = await call("GET", `/v2/inventory/${c}/${encodeURIComponent(id)}`, as);
    if (res.status === 404) return undefined;
    expect(res.status).toBe(200);
    return res.json();
  }
  async function stock(as: string, c: string, id: string): Promise<unknown> {
    return (await read(as, c, id))?.inventory;
  }
  return { call, accounts, read, readText, stock, load: app.load };
}

export interface Scenario {
  name: string;
  method: string;
  url: string;
  as: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  status: number;
  /** Exact body text, or for JSON answers the parsed value expected. */
  text?: string;
  json?: unknown;
  /** What the request changed, or left alone, checked after the call. */
  after?: (w: World, res: CallResult) => Promise<void> | void;
}

/** One test per scenario, each on a fresh world, so a scenario that writes cannot disturb another. */
export function runTable(scenarios: readonly Scenario[], makeWorld: () => Promise<World> = inventoryWorld): void {
  for (const s of scenarios) {
    test(s.name, async () => {
      const w = await makeWorld();
      const opts: CallOptions = { raw: s.raw, headers: s.headers };
      if (s.body !== undefined) opts.body = s.body;
      const res = await w.call(s.method, s.url, s.as, opts);
      expect({ status: res.status, body: s.json === undefined ? res.text : res.json() }).toEqual({
        status: s.status,
        body: s.json === undefined ? s.text : s.json,
      });
      const type = res.headers.get("content-type");
      expect(type).toBe(s.json === undefined ? "text/plain; charset=utf-8" : "application/json; charset=utf-8");
      await s.after?.(w, res);
    });
  }
}

/** The canonical text of a document, as the service serves it. */
export const text = (doc: Doc) => JSON.stringify(canonical(doc));
