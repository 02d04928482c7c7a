import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { apiFixture } from "../fixtures/api/index.ts";
import { tempDir } from "../helpers/process.ts";
import { ACTIVE_BATCHES, accountTexts, callsOf, FULL_PULL_CALLS, LIST_CALLS, localAccount, REMOTE_LIMIT, runPull, spawnCli, startRemote, tallyOf, type Remote } from "./helpers.ts";
import { startRelay } from "./proxy.ts";

// `pull` as a brewer runs it: the real command against a second brewrecords server process (the
// remote), into a real SQLite file; the local account is then compared with the remote's, text for text.

let remote: Remote;
const dir = tempDir("brewrecords-pull-");

beforeAll(async () => {
  remote = await startRemote();
});

afterAll(async () => {
  await remote?.stop();
  dir.remove();
});

const from = () => ["--from", remote.url];

describe("a first pull", () => {
  test("makes the local account equal to the remote one, text for text, in 17 calls, and reports it", async () => {
    const key = remote.account("first");
    const local = localAccount(dir.path, "first-here");
    const res = await runPull(["first-here", "--user-id", "first", ...from()], { ...local.env, PULL_API_KEY: key });
    expect(res.stderr).not.toContain("error");
    expect(res.code).toBe(0);
    expect(await accountTexts(local.databaseUrl, "first-here")).toEqual(await accountTexts(remote.databaseUrl, "first"));
    expect(callsOf(res.stdout)).toBe(FULL_PULL_CALLS);
    expect(tallyOf(res.stdout, "batches")).toBe("batches 5 5 new, 0 updated, 0 unchanged");
    expect(tallyOf(res.stdout, "recipes")).toBe("recipes 55 55 new, 0 updated, 0 unchanged");
    expect(tallyOf(res.stdout, "fermentables")).toBe("fermentables 5 5 new, 0 updated, 0 unchanged");
    expect(tallyOf(res.stdout, "miscs")).toBe("miscs 0 0 new, 0 updated, 0 unchanged");
    const readings = apiFixture("complete-batch").readings.length + apiFixture("readings").length + 3;
    expect(tallyOf(res.stdout, "readings")).toBe(`readings 5 batches read, ${readings} new readings in 3 of them`);
    expect(tallyOf(res.stdout, "trackers")).toBe("trackers 5 batches read, 4 trackers changed, 1 batches without one");
    expect(res.stdout).toContain("skipped: none");
    // Not on a terminal: a plain line per step, each with the calls made and left this hour.
    expect(res.stderr).toContain("recipes: 50 listed (2 calls, ");
    expect(res.stderr).toContain("recipes: 55 listed, done (3 calls, ");
    expect(res.stderr).toMatch(/batch Bq5Archived0+: 3 readings \(3 new\), tracker none \(\d+ calls, \d+ left this hour\)/);
  });

  test("paces by the remote's headers: the calls left it reports are the remote's own count", async () => {
    const key = remote.account("counted");
    const local = localAccount(dir.path, "counted-here");
    const hour = () => Math.floor(Date.now() / 3_600_000);
    const startHour = hour();
    const res = await runPull(["counted-here", "--user-id", "counted", "--api-key", key, ...from()], local.env);
    expect(res.code).toBe(0);
    const lastLeft = Number([...res.stderr.matchAll(/(\d+) left this hour/g)].at(-1)![1]);
    const probe = await remote.call("counted", key, "GET", "/v2/recipes?limit=1");
    // The remote counts in windows on the clock's hours: a window that turned meanwhile proves nothing.
    if (hour() !== startHour) return;
    expect(lastLeft).toBe(REMOTE_LIMIT - FULL_PULL_CALLS);
    expect(Number(probe.headers.get("x-ratelimit-remaining"))).toBe(lastLeft - 1);
  });

  test("takes the API key from standard input when neither --api-key nor PULL_API_KEY gives it", async () => {
    const key = remote.account("stdin");
    const local = localAccount(dir.path, "stdin-here");
    const res = await runPull(["stdin-here", "--user-id", "stdin", ...from()], local.env, `${key}\n`);
    expect(res.code).toBe(0);
    expect(await accountTexts(local.databaseUrl, "stdin-here")).toEqual(await accountTexts(remote.databaseUrl, "stdin"));
  });
});

describe("a pull killed midway", () => {
  test("continues where it stopped and ends equal, with fewer calls than a full pull", async () => {
    const key = remote.account("killed");
    const local = localAccount(dir.path, "killed-here");
    // Latency, so the process is surely killed between two batches.
    const relay = startRelay(remote.url, { delayMs: 100 });
    try {
      const args = ["killed-here", "--user-id", "killed", "--from", relay.url];
      const first = spawnCli(["pull", ...args], { ...local.env, PULL_API_KEY: key });
      while ((first.stderr().match(/^batch /gm) ?? []).length < 2) {
        if (first.proc.exitCode !== null) throw new Error(`pull ended before it was killed:\n${first.stderr()}`);
        await Bun.sleep(5);
      }
      first.proc.kill("SIGKILL");
      expect(await first.proc.exited).not.toBe(0);
      expect(await accountTexts(local.databaseUrl, "killed-here")).not.toEqual(await accountTexts(remote.databaseUrl, "killed"));

      const second = await runPull(args, { ...local.env, PULL_API_KEY: key });
      expect(second.code).toBe(0);
      expect(second.stderr).toContain("continuing the pull begun ");
      expect(await accountTexts(local.databaseUrl, "killed-here")).toEqual(await accountTexts(remote.databaseUrl, "killed"));
      // No list page is read again; at most the batch being read when the kill came is read again.
      expect(callsOf(second.stdout)).toBeLessThanOrEqual(FULL_PULL_CALLS - LIST_CALLS - 2 * 2);
      expect(relay.requests).toBeLessThanOrEqual(FULL_PULL_CALLS + 2);
    } finally {
      relay.stop();
    }
  });
});

/** An account pulled once into `<name>-here`, then one of its recipes changed here (imported over it). */
async function pulledThenEditedHere(name: string) {
  const key = remote.account(name);
  const local = localAccount(dir.path, `${name}-here`);
  const env = { ...local.env, PULL_API_KEY: key };
  const args = [`${name}-here`, "--user-id", name, ...from()];
  expect((await runPull(args, env)).code).toBe(0);
  const recipe = { ...apiFixture("recipe-export"), _id: "Rc03b2Wk8Lq1Zx7Hc4Ms9Vd3Pn6Jy0", name: "Edited here" };
  const file = `${dir.path}/${name}-edit.json`;
  await Bun.write(file, JSON.stringify({ recipes: [recipe] }));
  expect((await spawnCli(["import", `${name}-here`, file], env).finished()).code).toBe(0);
  return { key, local, env, args, recipe };
}

describe("a later pull", () => {
  test("with nothing changed there reads the lists and the active batches' readings, and writes nothing", async () => {
    const key = remote.account("again");
    const local = localAccount(dir.path, "again-here");
    const env = { ...local.env, PULL_API_KEY: key };
    expect((await runPull(["again-here", "--user-id", "again", ...from()], env)).code).toBe(0);
    const before = await accountTexts(local.databaseUrl, "again-here");
    const res = await runPull(["again-here", "--user-id", "again", ...from()], env);
    expect(res.code).toBe(0);
    expect(callsOf(res.stdout)).toBe(LIST_CALLS + 2 * ACTIVE_BATCHES);
    expect(tallyOf(res.stdout, "recipes")).toBe("recipes 55 0 new, 0 updated, 55 unchanged");
    expect(tallyOf(res.stdout, "readings")).toBe("readings 2 batches read, 0 new readings in 0 of them");
    expect(await accountTexts(local.databaseUrl, "again-here")).toEqual(before);
  });

  test("brings exactly the changes made there, and deletes nothing here unless --prune", async () => {
    const key = remote.account("changes");
    const local = localAccount(dir.path, "changes-here");
    const env = { ...local.env, PULL_API_KEY: key };
    const args = ["changes-here", "--user-id", "changes", ...from()];
    expect((await runPull(args, env)).code).toBe(0);

    const call = (method: string, path: string, body?: unknown) => remote.call("changes", key, method, path, body);
    const recipeId = "Rc07b2Wk8Lq1Zx7Hc4Ms9Vd3Pn6Jy0";
    expect((await call("PATCH", `/v2/recipes/${recipeId}`, { name: "Renamed there" })).status).toBe(200);
    expect((await call("POST", "/v2/recipes", { name: "New there" })).status).toBe(201);
    const fermentable = apiFixture("inventory-lists").fermentables.items[0]._id;
    expect((await call("PATCH", `/v2/inventory/fermentables/${fermentable}`, { inventory_adjust: 2.5 })).status).toBe(200);
    // A status change leaves the batch's _timestamp_ms as it was here: the pull tells it by the digest.
    expect((await call("PATCH", "/v2/batches/Bq2Completed0000000000000000000", { status: "Archived" })).text).toBe("Updated");
    const hop = apiFixture("inventory-lists").hops.items[1]._id;
    expect((await call("DELETE", `/v2/inventory/hops/${hop}`)).text).toBe("Deleted");
    // Two new device readings on the fermenting batch: its document stays as it was.
    const batch = apiFixture("complete-batch");
    const last = batch.readings.at(-1);
    batch.readings.push({ ...last, time: last.time + 900_000, sg: 1.012 }, { ...last, time: last.time + 1_800_000, sg: 1.011 });
    remote.load("changes", { batches: [batch] });

    const res = await runPull(args, env);
    expect(res.code).toBe(0);
    expect(tallyOf(res.stdout, "batches")).toBe("batches 5 0 new, 1 updated, 4 unchanged");
    expect(tallyOf(res.stdout, "recipes")).toBe("recipes 56 1 new, 1 updated, 54 unchanged");
    expect(tallyOf(res.stdout, "fermentables")).toBe("fermentables 5 0 new, 1 updated, 4 unchanged");
    expect(tallyOf(res.stdout, "hops")).toBe("hops 3 0 new, 0 updated, 3 unchanged");
    // The fermenting and brewing batches (active) and the changed one (now archived).
    expect(tallyOf(res.stdout, "readings")).toBe("readings 3 batches read, 2 new readings in 1 of them");
    const here = await accountTexts(local.databaseUrl, "changes-here");
    const there = await accountTexts(remote.databaseUrl, "changes");
    const { [`hops ${hop}`]: kept, ...hereWithoutHop } = here;
    expect(kept).toBeDefined();
    expect(hereWithoutHop).toEqual(there);

    const pruned = await runPull([...args, "--prune"], env);
    expect(pruned.code).toBe(0);
    expect(tallyOf(pruned.stdout, "hops")).toBe("hops 3 0 new, 0 updated, 3 unchanged, 1 removed");
    expect(await accountTexts(local.databaseUrl, "changes-here")).toEqual(there);
  });

  test("a pull from another source (a mistyped --from) is refused and leaves the history, so the next pull still keeps what changed here", async () => {
    const { local, env, args, recipe } = await pulledThenEditedHere("source");
    const statePath = `${local.databaseUrl}.pull-source-here.json`;
    const history = readFileSync(statePath, "utf8");

    // The same server by another name, then a port nothing answers on: refused before any call.
    for (const other of [remote.url.replace("127.0.0.1", "localhost"), "http://127.0.0.1:9"]) {
      const res = await runPull(["source-here", "--user-id", "source", "--from", other, "--retries", "0"], env);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`pull refused: ${statePath} holds the pull history of user source at ${remote.url}, not of user source at ${other}; nothing was read or written.`);
      expect(readFileSync(statePath, "utf8")).toBe(history);
    }
    const res = await runPull(args, env);
    expect(res.code).toBe(0);
    expect(tallyOf(res.stdout, "recipes")).toBe("recipes 55 0 new, 0 updated, 54 unchanged, 1 kept as changed here");
    expect((await accountTexts(local.databaseUrl, "source-here"))[`recipe ${recipe._id}`]).toContain('"name":"Edited here"');
  });

  test("a batch changed on both sides keeps the copy here and reports it, though the stamp there is newer", async () => {
    const key = remote.account("both");
    const local = localAccount(dir.path, "both-here");
    const env = { ...local.env, PULL_API_KEY: key };
    const args = ["both-here", "--user-id", "both", ...from()];
    expect((await runPull(args, env)).code).toBe(0);
    const id = "Bq2Completed0000000000000000000";
    // Here: a change that leaves _timestamp_ms as it was, as a batch PATCH does.
    const here = JSON.parse((await accountTexts(local.databaseUrl, "both-here"))[`batch ${id}`]!);
    const file = `${dir.path}/both-edit.json`;
    await Bun.write(file, JSON.stringify({ batches: [{ ...here, measuredFg: 1.0123 }] }));
    expect((await spawnCli(["import", "both-here", file], env).finished()).code).toBe(0);
    // There: another change, stamped now, as the hosted service stamps every change.
    const there = JSON.parse((await accountTexts(remote.databaseUrl, "both"))[`batch ${id}`]!);
    remote.load("both", { batches: [{ ...there, brewer: "Hosted edit", _timestamp_ms: Date.now() }] });
    const before = await accountTexts(local.databaseUrl, "both-here");
    const res = await runPull(args, env);
    expect(res.code).toBe(0);
    expect(tallyOf(res.stdout, "batches")).toBe("batches 5 0 new, 0 updated, 4 unchanged, 1 kept as changed here");
    expect(res.stdout).toContain(`changed on both sides since the last pull; the copy here is kept (_timestamp_ms here ${here._timestamp_ms}, there `);
    expect((await accountTexts(local.databaseUrl, "both-here"))[`batch ${id}`]).toBe(before[`batch ${id}`]);
    expect(JSON.parse(before[`batch ${id}`]!).measuredFg).toBe(1.0123);
  });

  test("keeps a document changed here that did not change there, and reports nothing skipped for it", async () => {
    const { key, local, env, args, recipe } = await pulledThenEditedHere("edited");
    const before = await accountTexts(local.databaseUrl, "edited-here");
    expect(before[`recipe ${recipe._id}`]).toContain('"name":"Edited here"');
    const res = await runPull(args, env);
    expect(res.code).toBe(0);
    expect(tallyOf(res.stdout, "recipes")).toBe("recipes 55 0 new, 0 updated, 54 unchanged, 1 kept as changed here");
    expect(res.stdout).toContain("skipped: none");
    expect(await accountTexts(local.databaseUrl, "edited-here")).toEqual(before);
    expect(existsSync(`${local.databaseUrl}.pull-edited-here.json`)).toBe(true);
    expect(readFileSync(`${local.databaseUrl}.pull-edited-here.json`, "utf8")).not.toContain(key);
  });
});
