import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { tempDir } from "../helpers/process.ts";
import { accountTexts, callsOf, FULL_PULL_CALLS, localAccount, runPull, spawnCli, startRemote, tallyOf, type Remote } from "./helpers.ts";
import { startRelay } from "./proxy.ts";

// What stops or slows a pull: a refused call (429), a remote that stops answering, a wrong key, a key
// without a read scope, a command line that cannot be run. The remote is a real server process; the
// relay adds what a loopback server cannot give at will (a 429 with a short Retry-After: the real
// server's window is the clock's hour).

let remote: Remote;
const dir = tempDir("brewrecords-pull-faults-");

beforeAll(async () => {
  remote = await startRemote();
});

afterAll(async () => {
  await remote?.stop();
  dir.remove();
});

describe("429 Too Many Requests", () => {
  test("is waited out for its Retry-After, then the pull goes on and ends equal", async () => {
    const key = remote.account("limited");
    const local = localAccount(dir.path, "limited-here");
    let refusedAt = 0;
    const relay = startRelay(remote.url, {
      answer: (n) => {
        if (n !== 4) return undefined;
        refusedAt = Date.now();
        return new Response("Too Many Requests", { status: 429, headers: { "retry-after": "2" } });
      },
    });
    try {
      const started = Date.now();
      const res = await runPull(["limited-here", "--user-id", "limited", "--from", relay.url], { ...local.env, PULL_API_KEY: key });
      expect(res.code).toBe(0);
      expect(res.stderr).toContain("waiting 2 s: 429 Too Many Requests: waiting for Retry-After");
      expect(refusedAt).toBeGreaterThan(started);
      expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(2000);
      // The refused call counts: the remote's budget counts every call it answers.
      expect(callsOf(res.stdout)).toBe(FULL_PULL_CALLS + 1);
      expect(relay.requests).toBe(FULL_PULL_CALLS + 1);
      expect(await accountTexts(local.databaseUrl, "limited-here")).toEqual(await accountTexts(remote.databaseUrl, "limited"));
    } finally {
      relay.stop();
    }
  });
});

describe("a remote that stops answering", () => {
  test("is retried with backoff a bounded number of times, then the pull stops with exit code 3 and its progress saved", async () => {
    const key = remote.account("flaky");
    const local = localAccount(dir.path, "flaky-here");
    const relay = startRelay(remote.url, {
      answer: (n) => {
        // After the batch, recipe and fermentable pages, the remote goes away in the middle of a call.
        if (n === 5) relay.pause();
        return undefined;
      },
    });
    const args = ["flaky-here", "--user-id", "flaky", "--from", relay.url, "--retries", "2"];
    const env = { ...local.env, PULL_API_KEY: key };
    try {
      const stopped = await runPull(args, env);
      expect(stopped.code).toBe(3);
      expect(stopped.stderr).toContain("waiting 1 s: network failure");
      expect(stopped.stderr).toContain("attempt 2 of 3");
      expect(stopped.stderr).toContain("waiting 2 s: network failure");
      expect(stopped.stderr).toMatch(/brewrecords: pull stopped: \/v2\/inventory\/hops\?\S+: .* \(after 3 attempts\)\. What was read is saved \(.+\); run the same command again to continue/);
      const state = JSON.parse(readFileSync(`${local.databaseUrl}.pull-flaky-here.json`, "utf8"));
      expect(state.run.listing.fermentables).toEqual({ done: true, seen: expect.any(Array), after: expect.any(String) });
      expect(state.run.pending).toHaveLength(5);

      relay.resume();
      const resumed = await runPull(args, env);
      expect(resumed.code).toBe(0);
      expect(callsOf(resumed.stdout)).toBe(FULL_PULL_CALLS - 4);
      expect(tallyOf(resumed.stdout, "recipes")).toBe("recipes 55 55 new, 0 updated, 0 unchanged");
      expect(await accountTexts(local.databaseUrl, "flaky-here")).toEqual(await accountTexts(remote.databaseUrl, "flaky"));
    } finally {
      relay.stop();
    }
  });
});

describe("credentials", () => {
  test("a wrong key stops at the first call with exit code 2 and one clear line, writing nothing", async () => {
    remote.account("guarded");
    const local = localAccount(dir.path, "guarded-here");
    const res = await runPull(["guarded-here", "--user-id", "guarded", "--api-key", "not-the-key", "--from", remote.url], local.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      "brewrecords: pull stopped: the remote refused user id guarded with this API key (401 Unauthorized); check --user-id and the API key\n",
    );
    expect(res.stdout).toBe("");
    expect(await accountTexts(local.databaseUrl, "guarded-here")).toEqual({});
    expect(existsSync(`${local.databaseUrl}.pull-guarded-here.json`)).toBe(false);
  });

  test("a wrong user id stops the same way", async () => {
    const key = remote.account("owner");
    const local = localAccount(dir.path, "owner-here");
    const res = await runPull(["owner-here", "--user-id", "someone-else", "--api-key", key, "--from", remote.url], local.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("the remote refused user id someone-else with this API key (401 Unauthorized)");
  });

  test("a key without inventory.read brings batches and recipes, and reports each inventory list as skipped with why", async () => {
    const key = remote.account("narrow", "batches.read,recipes.read");
    const local = localAccount(dir.path, "narrow-here");
    const res = await runPull(["narrow-here", "--user-id", "narrow", "--from", remote.url], { ...local.env, PULL_API_KEY: key });
    expect(res.code).toBe(0);
    expect(tallyOf(res.stdout, "batches")).toBe("batches 5 5 new, 0 updated, 0 unchanged");
    expect(tallyOf(res.stdout, "hops")).toBe("hops not read (see skipped)");
    expect(res.stdout).toContain("skipped: 4\n  fermentables: the key may not read them (403: it lacks the scope inventory.read)\n");
    const here = await accountTexts(local.databaseUrl, "narrow-here");
    const there = await accountTexts(remote.databaseUrl, "narrow");
    const noInventory = Object.fromEntries(Object.entries(there).filter(([k]) => /^(batch|readings|brewtracker|recipe) /.test(k)));
    expect(here).toEqual(noInventory);
  });
});

describe("the command line", () => {
  const cases: Array<{ name: string; args: string[]; message: string }> = [
    { name: "no --user-id", args: ["cmd-here"], message: "missing --user-id" },
    { name: "plain http to another machine", args: ["cmd-here", "--user-id", "u", "--api-key", "k", "--from", "http://brew.example.org"], message: "--from: the API key is sent over https:// only" },
    { name: "an unknown option", args: ["cmd-here", "--user-id", "u", "--api-key", "k", "--fast"], message: "unknown option --fast" },
    { name: "an account that does not exist here", args: ["nobody-here", "--user-id", "u", "--api-key", "k"], message: "no user nobody-here here (create it with: user add nobody-here)" },
    { name: "an empty key on standard input", args: ["cmd-here", "--user-id", "u"], message: "no API key: give --api-key, set PULL_API_KEY, or write it on standard input" },
    { name: "a state file in a folder that does not exist", args: ["cmd-here", "--user-id", "u", "--api-key", "k", "--state", "/nonexistent/dir/s.json"], message: "cannot write beside the state file /nonexistent/dir/s.json: ENOENT" },
  ];
  let env: Record<string, string>;
  beforeAll(() => {
    env = localAccount(dir.path, "cmd-here").env;
  });
  for (const c of cases) {
    test(`${c.name} is refused with exit code 1 before any call`, async () => {
      const res = await spawnCli(["pull", ...c.args], env, "\n").finished();
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`brewrecords: ${c.message}`);
    });
  }

  test("a second pull of the same account while one runs is refused", async () => {
    const key = remote.account("twice");
    const local = localAccount(dir.path, "twice-here");
    const relay = startRelay(remote.url, { delayMs: 100 });
    try {
      const args = ["twice-here", "--user-id", "twice", "--from", relay.url];
      const first = spawnCli(["pull", ...args], { ...local.env, PULL_API_KEY: key });
      while (!first.stderr().includes("batches: ")) await Bun.sleep(5);
      const second = await runPull(args, { ...local.env, PULL_API_KEY: key });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`brewrecords: another pull of twice-here is running (process ${first.proc.pid};`);
      expect((await first.finished()).code).toBe(0);
    } finally {
      relay.stop();
    }
  });
});
