// Verified credentials are cached on SQLite (docs/decisions.md, Keys and accounts): a repeated key costs
// no key read, a key changed by the server's own store is refused by the next request, and one changed
// through another connection to the same file (as the command line does) once KEYS_EPOCH_MAX_AGE_MS
// has passed.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { issueApiKey } from "../../src/store/keys.ts";
import { SCOPES } from "../../src/lib/scopes.ts";
import { KEYS_EPOCH_MAX_AGE_MS, SqliteStore } from "../../src/store/sqlite.ts";
import { appOnStore, basic } from "../helpers/app.ts";
import { tempDir } from "../helpers/process.ts";

const dir = tempDir();
afterAll(() => dir.remove());

async function world(name: string) {
  const path = join(dir.path, `${name}.sqlite`);
  const served = SqliteStore.open(path);
  const h = appOnStore(served);
  const alice = await h.account("alice");
  // Counts the key reads of the server's store; the store itself answers them.
  let keyReads = 0;
  const getApiKey = served.getApiKey.bind(served);
  served.getApiKey = (userId) => {
    keyReads++;
    return getApiKey(userId);
  };
  return { h, alice, other: SqliteStore.open(path), keyReads: () => keyReads };
}

test("a repeated key is checked once, then served from the cache", async () => {
  const w = await world("repeat");
  for (let i = 0; i < 5; i++) expect((await w.h.call("GET", "/v2/batches", w.alice)).status).toBe(200);
  expect(w.keyReads()).toBe(1);
});

test("a key regenerated through the server's own store is refused by the next request", async () => {
  const w = await world("own");
  expect((await w.h.call("GET", "/v2/batches", w.alice)).status).toBe(200);
  const key = await issueApiKey(w.h.store, "alice", SCOPES);
  expect((await w.h.call("GET", "/v2/batches", w.alice)).status).toBe(401);
  expect((await w.h.call("GET", "/v2/batches", null, { auth: basic("alice", key) })).status).toBe(200);
});

test("a key regenerated through another connection is refused once the bound has passed", async () => {
  const w = await world("other");
  expect((await w.h.call("GET", "/v2/batches", w.alice)).status).toBe(200);
  const key = await issueApiKey(w.other, "alice", SCOPES);
  await Bun.sleep(KEYS_EPOCH_MAX_AGE_MS + 5);
  const res = await w.h.call("GET", "/v2/batches", w.alice);
  expect([res.status, res.text]).toEqual([401, "Unauthorized"]);
  expect((await w.h.call("GET", "/v2/batches", null, { auth: basic("alice", key) })).status).toBe(200);
  expect(w.keyReads()).toBe(3);
});
