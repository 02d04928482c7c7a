// The rate limit of the real server process over HTTP (API document, Limits): exact under many parallel
// clients, kept exactly across a graceful stop (SIGTERM), and after a crash (SIGKILL) never short of a
// call answered, since each lease of calls is stored before its first call is answered
// (src/http/rate-limit.ts): a crash loop hands out no more than the hour allows.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { leaseOf, WINDOW_MS } from "../../src/http/rate-limit.ts";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

const dir = tempDir();
afterAll(() => dir.remove());
let databases = 0;
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) await s.stop("SIGKILL");
});

/** The real clock's window ends on the hour: a test that needs `ms` of one window waits out the edge. */
async function awayFromHourEdge(ms: number): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < ms) await Bun.sleep(left + 50);
}

async function setup(limits: { v1?: number; v2: number }, users: Array<[string, 1 | 2]>) {
  const env = {
    DATABASE_URL: join(dir.path, `db-${++databases}.sqlite`),
    RATE_LIMIT_V2_PER_HOUR: String(limits.v2),
    RATE_LIMIT_V1_PER_HOUR: String(limits.v1 ?? 150),
  };
  const keys: Record<string, string> = {};
  for (const [user, version] of users) {
    expect(cli(["user", "add", user], env).code).toBe(0);
    const gen = cli(["key", "generate", user, "--scopes", "all", "--api-version", String(version)], env);
    expect(gen.code).toBe(0);
    keys[user] = basic(user, gen.stdout.trim());
  }
  const start = async () => {
    const s = await startServerProcess(env);
    running.push(s);
    return s;
  };
  return { env, keys, start };
}

async function get(server: ServerProcess, path: string, auth: string) {
  const res = await fetch(server.url + path, { headers: { authorization: auth } });
  return { status: res.status, text: await res.text(), headers: res.headers, at: Date.now() };
}

const remainingOf = (r: { headers: Headers }) => Number(r.headers.get("x-ratelimit-remaining"));

describe("64 concurrent clients", () => {
  test("exactly the limit is accepted on each version, every remaining count is given once, the rest is 429", async () => {
    await awayFromHourEdge(30_000);
    const { keys, start } = await setup({ v1: 60, v2: 200 }, [["alice", 2], ["old", 1]]);
    const server = await start();
    // 48 clients on v2 and 16 on v1, each sending 5 calls one after another: 240 and 80 calls.
    const client = (i: number) => async () => {
      const [path, auth] = i % 4 === 0 ? ["/v1/batches", keys.old] : ["/v2/batches", keys.alice];
      const out = [];
      for (let n = 0; n < 5; n++) out.push({ version: path.slice(1, 3), ...(await get(server, path, auth)) });
      return out;
    };
    const results = (await Promise.all(Array.from({ length: 64 }, (_, i) => client(i)()))).flat();
    for (const [version, limit, calls] of [["v2", 200, 240], ["v1", 60, 80]] as const) {
      const mine = results.filter((r) => r.version === version);
      const ok = mine.filter((r) => r.status === 200);
      const refused = mine.filter((r) => r.status === 429);
      expect([version, mine.length, ok.length, refused.length]).toEqual([version, calls, limit, calls - limit]);
      expect(ok.map(remainingOf).sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i));
      for (const r of refused) {
        expect([r.text, remainingOf(r), r.headers.get("x-ratelimit-limit")]).toEqual(["Too Many Requests", 0, String(limit)]);
        // Answered less than a second before `at` was read: Retry-After is the seconds left then, rounded up.
        const leftAtReceipt = Math.ceil((WINDOW_MS - (r.at % WINDOW_MS)) / 1000);
        expect([leftAtReceipt, leftAtReceipt + 1]).toContain(Number(r.headers.get("retry-after")));
      }
    }
    // The next call after the burst is refused too: nothing was lost or double-counted.
    expect((await get(server, "/v2/batches", keys.alice)).status).toBe(429);
  }, 60_000);
});

describe("restarts", () => {
  test("after SIGTERM the restarted server continues the count exactly: 37 calls, then remaining 462", async () => {
    await awayFromHourEdge(30_000);
    const { keys, start } = await setup({ v2: 500 }, [["alice", 2], ["old", 1]]);
    const first = await start();
    for (let n = 0; n < 37; n++) expect((await get(first, "/v2/batches", keys.alice)).status).toBe(200);
    for (let n = 0; n < 4; n++) expect((await get(first, "/v1/batches", keys.old)).status).toBe(200);
    // The last calls come within the second, before any periodic save: only the graceful stop saves them.
    expect(await first.stop("SIGTERM")).toBe(0);
    const second = await start();
    expect(remainingOf(await get(second, "/v2/batches", keys.alice))).toBe(500 - 38);
    expect(remainingOf(await get(second, "/v1/batches", keys.old))).toBe(150 - 5);
  }, 60_000);

  test("a spent budget stays spent across a graceful restart", async () => {
    await awayFromHourEdge(30_000);
    const { keys, start } = await setup({ v2: 5 }, [["alice", 2]]);
    const first = await start();
    for (let n = 0; n < 5; n++) await get(first, "/v2/batches", keys.alice);
    expect(await first.stop("SIGTERM")).toBe(0);
    const second = await start();
    const res = await get(second, "/v2/batches", keys.alice);
    expect([res.status, res.text]).toEqual([429, "Too Many Requests"]);
  }, 60_000);

  test("after SIGKILL the count restored holds every call answered, and at most one lease more", async () => {
    await awayFromHourEdge(30_000);
    const { keys, start } = await setup({ v2: 100_000 }, [["alice", 2]]);
    const first = await start();
    let answered = 0;
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      const res = await get(first, "/v2/batches", keys.alice);
      expect(res.status).toBe(200);
      answered++;
    }
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    const second = await start();
    const restored = 100_000 - 1 - remainingOf(await get(second, "/v2/batches", keys.alice));
    expect(restored).toBeGreaterThanOrEqual(answered);
    expect(restored).toBeLessThanOrEqual(answered + leaseOf(100_000));
  }, 60_000);

  test("a crash loop hands out no more than the hour allows: 40 calls, kill -9, again, with a limit of 100", async () => {
    await awayFromHourEdge(60_000);
    const { keys, start } = await setup({ v2: 100 }, [["alice", 2]]);
    let accepted = 0;
    for (let round = 0; round < 5; round++) {
      const server = await start();
      for (let n = 0; n < 40; n++) if ((await get(server, "/v2/batches", keys.alice)).status === 200) accepted++;
      server.proc.kill("SIGKILL");
      await server.proc.exited;
    }
    expect(accepted).toBeLessThanOrEqual(100);
    // Each crash costs at most the unused part of one lease (5 calls at a limit of 100).
    expect(accepted).toBeGreaterThanOrEqual(100 - 5 * leaseOf(100));
  }, 90_000);
});

describe("keys and failed authentication over HTTP", () => {
  test("a key regenerated with the command line while the server runs continues the count; 401s use none", async () => {
    await awayFromHourEdge(30_000);
    const { env, keys, start } = await setup({ v2: 50 }, [["alice", 2]]);
    const server = await start();
    for (let n = 0; n < 10; n++) await get(server, "/v2/batches", keys.alice);
    const gen = cli(["key", "generate", "alice", "--scopes", "batches.read"], env);
    expect(gen.code).toBe(0);
    for (let n = 0; n < 20; n++) expect((await get(server, "/v2/batches", keys.alice)).status).toBe(401);
    const res = await get(server, "/v2/batches", basic("alice", gen.stdout.trim()));
    expect([res.status, remainingOf(res)]).toEqual([200, 50 - 11]);
    expect(res.headers.get("ratelimit-policy")).toBe('"v2";q=50;w=3600');
  }, 60_000);
});
