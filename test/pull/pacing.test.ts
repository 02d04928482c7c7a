import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Pull } from "../../src/pull/run.ts";
import { Progress } from "../../src/pull/report.ts";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { tempDir } from "../helpers/process.ts";
import { clockApp, HOUR0 } from "../ratelimit/clock.ts";
import { FULL_PULL_CALLS, seedDocument } from "./helpers.ts";

// Pacing over whole hours, on a clock the test moves: the remote is the real app served over HTTP with
// its rate limiter on that clock, and the pull's waits move the clock instead of taking time.

const LIMIT = 10;
const dir = tempDir("brewrecords-pull-pacing-");
let remote: Awaited<ReturnType<typeof clockApp>>;
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => remote.app.handle(req) });
});

afterAll(() => {
  server.stop(true);
  dir.remove();
});

async function pullOnTheClock(userId: string) {
  const key = (await remote.account(userId)).key;
  await remote.load(userId, seedDocument());
  const local = SqliteStore.open(":memory:");
  await local.createUser("here", null);
  const notes: string[] = [];
  const waits: number[] = [];
  const progress = new Progress({ write: (t: string) => notes.push(t) }, false);
  const options = { localUser: "here", from: `http://127.0.0.1:${server.port}`, remoteUser: userId, apiKey: key, prune: false, full: false, retries: 0, statePath: join(dir.path, `${userId}.json`) };
  const sleep = async (ms: number) => {
    waits.push(ms);
    remote.clock.now += ms;
  };
  const pull = new Pull(local, options, { progress, sleep, now: () => remote.clock.now });
  const report = await pull.execute();
  return { report, notes: notes.join(""), waits, calls: pull.remote.calls, local };
}

describe("pacing on the remote's budget", () => {
  test(`with ${LIMIT} calls an hour for a ${FULL_PULL_CALLS}-call pull: spread to the reset, never a 429, done in the next window`, async () => {
    remote = await clockApp({ 1: 150, 2: LIMIT }, HOUR0 + 30 * 60_000);
    const started = remote.clock.now;
    const { report, notes, waits, calls, local } = await pullOnTheClock("paced");
    expect(notes).not.toContain("429");
    expect(calls).toBe(FULL_PULL_CALLS);
    // The first calls fit the budget and go at once; the rest of this window is spread evenly.
    expect(waits[0]).toBeGreaterThan(60_000);
    expect(remote.clock.now).toBeGreaterThanOrEqual(HOUR0 + 3_600_000);
    expect(remote.clock.now).toBeLessThan(HOUR0 + 2 * 3_600_000);
    expect(remote.clock.now - started).toBeGreaterThanOrEqual(30 * 60_000);
    expect(report[0]).toContain(`with ${FULL_PULL_CALLS} calls`);
    expect((await local.exportAll("here")).batches).toHaveLength(5);
    await local.close();
  });

  test("a budget spent by another client of the account: the 429 is waited out to the reset, and the pull ends", async () => {
    remote = await clockApp({ 1: 150, 2: LIMIT }, HOUR0 + 50 * 60_000);
    const other = await remote.account("spent");
    for (let i = 0; i < LIMIT; i++) await remote.call("GET", "/v2/recipes?limit=1", other.auth);
    const { notes, waits, calls, local } = await pullOnTheClock("spent");
    expect(notes).toContain("waiting 10 min: 429 Too Many Requests: waiting for Retry-After");
    expect(waits[0]).toBe(10 * 60_000);
    expect(calls).toBe(FULL_PULL_CALLS + 1);
    expect(remote.clock.now).toBeGreaterThanOrEqual(HOUR0 + 2 * 3_600_000);
    expect((await local.exportAll("here")).docs.length).toBe(55 + 13);
    await local.close();
  });
});
