// Logging ids found are cached on SQLite as API keys are (src/devices/logging-id.ts): a device posting
// again costs no digest lookup, an id regenerated through the server's own store is refused by the
// next post, and one regenerated through another connection to the same file (as `logging-id
// --regenerate` does) once KEYS_EPOCH_MAX_AGE_MS has passed. Unknown ids are never kept.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { issueLoggingId } from "../../src/devices/logging-id.ts";
import { KEYS_EPOCH_MAX_AGE_MS, SqliteStore } from "../../src/store/sqlite.ts";
import { appOnStore } from "../helpers/app.ts";
import { tempDir } from "../helpers/process.ts";

const dir = tempDir();
afterAll(() => dir.remove());

async function world(name: string) {
  const path = join(dir.path, `${name}.sqlite`);
  const served = SqliteStore.open(path);
  const h = appOnStore(served, { loggingMinIntervalSeconds: 0 });
  await h.account("alice");
  const id = await issueLoggingId(served, "alice");
  // Counts the digest lookups of the server's store; the store itself answers them.
  let lookups = 0;
  const userByLoggingId = served.userByLoggingId.bind(served);
  served.userByLoggingId = (digest) => {
    lookups++;
    return userByLoggingId(digest);
  };
  const post = async (loggingId: string, temp = 20) => {
    const res = await h.call("POST", `/stream?id=${loggingId}`, null, { body: { name: "Cellar", temp } });
    return [res.status, res.text];
  };
  return { h, served, id, post, other: SqliteStore.open(path), lookups: () => lookups };
}

const OK = [200, '{"result":"OK"}'];
const REFUSED = [400, "Invalid logging id"];

test("a device posting again is looked up once, then served from the cache", async () => {
  const w = await world("repeat");
  for (let i = 0; i < 5; i++) {
    expect(await w.post(w.id, i)).toEqual(OK);
    // A reading at the same millisecond as the last would replace it.
    await Bun.sleep(2);
  }
  expect(w.lookups()).toBe(1);
  const readings = JSON.parse((await w.served.deviceReadings("alice", { type: "stream", name: "Cellar" }))!) as Array<{ temp: number }>;
  expect(readings.map((r) => r.temp)).toEqual([0, 1, 2, 3, 4]);
});

test("an unknown id is looked up every time and never kept", async () => {
  const w = await world("unknown");
  const made = "A".repeat(43);
  for (let i = 0; i < 3; i++) expect(await w.post(made)).toEqual(REFUSED);
  expect(w.lookups()).toBe(3);
});

test("an id regenerated through the server's own store is refused by the next post", async () => {
  const w = await world("own");
  expect(await w.post(w.id)).toEqual(OK);
  const next = await issueLoggingId(w.served, "alice");
  expect(await w.post(w.id)).toEqual(REFUSED);
  expect(await w.post(next)).toEqual(OK);
});

test("an id regenerated through another connection is refused once the bound has passed", async () => {
  const w = await world("other");
  expect(await w.post(w.id)).toEqual(OK);
  const next = await issueLoggingId(w.other, "alice");
  await Bun.sleep(KEYS_EPOCH_MAX_AGE_MS + 5);
  expect(await w.post(w.id)).toEqual(REFUSED);
  expect(await w.post(next)).toEqual(OK);
  expect(w.lookups()).toBe(3);
});
