import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/store/open.ts";
import { apiFixture } from "../fixtures/api/index.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

// A remote for `pull`: a second brewrecords server process on 127.0.0.1 with a small rate limit, its
// accounts seeded with the project's fixtures; and the real `pull` command run against it.

const ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(ROOT, "src", "cli", "main.ts");

export const REMOTE_LIMIT = 120;

type Json = any;

/** A batch fixture under another id, name and status, with the given readings and tracker. */
function batchVariant(id: string, status: string, readings: Json[] | undefined, tracker: Json | undefined): Json {
  const { readings: _r, brewTracker: _t, ...batch } = apiFixture("complete-batch");
  return { ...batch, _id: id, name: `${batch.name} (${status})`, status, ...(readings ? { readings } : {}), ...(tracker ? { brewTracker: tracker } : {}) };
}

/**
 * The seeded account: five batches (one of each kind of readings and tracker), 55 recipes so that
 * recipes take two pages, and the inventory items of the fixtures. A full pull of it takes 17 calls:
 * 7 list pages and 2 for each batch.
 */
export function seedDocument(): Json {
  const complete = apiFixture("complete-batch");
  const readings = apiFixture("readings");
  const recipe = apiFixture("recipe-export");
  const lists = apiFixture("inventory-lists");
  return {
    batches: [
      complete,
      batchVariant("Bq2Completed0000000000000000000", "Completed", readings, apiFixture("tracker-paused")),
      batchVariant("Bq3Planning00000000000000000000", "Planning", undefined, apiFixture("tracker-planning")),
      batchVariant("Bq4Brewing000000000000000000000", "Brewing", [], apiFixture("tracker-started")),
      batchVariant("Bq5Archived00000000000000000000", "Archived", readings.slice(0, 3), undefined),
    ],
    recipes: Array.from({ length: 55 }, (_, i) => ({ ...recipe, _id: `Rc${String(i).padStart(2, "0")}${recipe._id.slice(4)}`, name: `${recipe.name} ${i}` })),
    fermentables: lists.fermentables.items,
    hops: lists.hops.items,
    yeasts: lists.yeasts.items,
  };
}

export const FULL_PULL_CALLS = 17;
export const ACTIVE_BATCHES = 2;
export const LIST_CALLS = 7;

export interface Remote {
  url: string;
  databaseUrl: string;
  server: ServerProcess;
  /** A new remote account holding the seed document; returns its key. */
  account(userId: string, scopes?: string, doc?: Json): string;
  /** Imports into an existing remote account (replacing what has the same `_id`). */
  load(userId: string, doc: Json): void;
  call(userId: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

export async function startRemote(): Promise<Remote> {
  const dir = tempDir("brewrecords-remote-");
  const databaseUrl = join(dir.path, "remote.sqlite");
  const env = { DATABASE_URL: databaseUrl, DEMO: "0" };
  // An account first, so the server starts on a database that exists.
  must(cli(["user", "add", "nobody"], env));
  const server = await startServerProcess({ ...env, RATE_LIMIT_V2_PER_HOUR: String(REMOTE_LIMIT) });
  let files = 0;
  const load = (userId: string, doc: Json) => {
    const file = join(dir.path, `load-${files++}.json`);
    writeFileSync(file, JSON.stringify(doc));
    must(cli(["import", userId, file], env));
  };
  return {
    url: server.url,
    databaseUrl,
    server,
    account(userId, scopes = "all", doc = seedDocument()) {
      must(cli(["user", "add", userId], env));
      const key = must(cli(["key", "generate", userId, "--scopes", scopes], env)).stdout.trim();
      load(userId, doc);
      return key;
    },
    load,
    async call(userId, key, method, path, body) {
      const res = await fetch(server.url + path, {
        method,
        headers: { authorization: basic(userId, key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    async stop() {
      // A remote that ended before its time explains the failures of the tests that used it.
      if (server.proc.exitCode !== null) console.error(`the remote had exited (${server.proc.exitCode}):\n${server.output()}`);
      await server.stop();
      dir.remove();
    },
  };
}

function must<T extends { code: number | null; stderr: string }>(res: T): T {
  if (res.code !== 0) throw new Error(`command failed (${res.code}): ${res.stderr}`);
  return res;
}

/** A local database with one account, for `pull` to fill. */
export function localAccount(dir: string, userId = "alice"): { env: Record<string, string>; databaseUrl: string } {
  const databaseUrl = join(dir, `${userId}.sqlite`);
  const env = { DATABASE_URL: databaseUrl, DEMO: "0" };
  must(cli(["user", "add", userId], env));
  return { env, databaseUrl };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `brewrecords <args>` as a process of its own (never blocking this one, which may serve a proxy). */
export function spawnCli(args: string[], env: Record<string, string>, stdin?: string) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = collectStream(proc.stdout);
  const stderr = collectStream(proc.stderr);
  return {
    proc,
    stderr: () => stderr.text,
    async finished(): Promise<Finished> {
      const code = await proc.exited;
      await Promise.all([stdout.done, stderr.done]);
      return { code, stdout: stdout.text, stderr: stderr.text };
    },
  };
}

function collectStream(stream: ReadableStream<Uint8Array>) {
  const state = { text: "", done: Promise.resolve() };
  const decoder = new TextDecoder();
  state.done = (async () => {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) state.text += decoder.decode(chunk);
  })();
  return state;
}

export const runPull = (args: string[], env: Record<string, string>, stdin?: string) => spawnCli(["pull", ...args], env, stdin).finished();

/** The calls a finished pull reports for its own process. */
export function callsOf(report: string): number {
  const m = / with (\d+) calls/.exec(report);
  if (!m) throw new Error(`no call count in: ${report}`);
  return Number(m[1]);
}

/** The tally line of a kind in the report: `recipes 56 1 new, 1 updated, 54 unchanged`. */
export function tallyOf(report: string, name: string): string {
  const line = report.split("\n").find((l) => l.trimStart().startsWith(`${name} `));
  if (!line) throw new Error(`no line for ${name} in: ${report}`);
  return line.trim().replace(/\s+/g, " ");
}

/**
 * Everything an account serves, as the store keeps it: each document's stored text (what GET answers),
 * each batch's readings text (`[]` when none are stored: the API answers the same) and tracker.
 */
export async function accountTexts(databaseUrl: string, userId: string): Promise<Record<string, string>> {
  const store = await openStore(databaseUrl);
  try {
    const set = await store.exportAll(userId);
    const out: Record<string, string> = {};
    for (const { doc } of set.batches) {
      const id = String(doc._id);
      out[`batch ${id}`] = (await store.get(userId, "batch", id))!;
      out[`readings ${id}`] = (await store.readings(userId, id)) ?? "[]";
      out[`brewtracker ${id}`] = (await store.brewTracker(userId, id)) ?? "(none)";
    }
    for (const { kind, doc } of set.docs) out[`${kind} ${String(doc._id)}`] = (await store.get(userId, kind, String(doc._id)))!;
    return out;
  } finally {
    await store.close();
  }
}
