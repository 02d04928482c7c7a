import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultStatePath, loadState, lockState, newRun, OtherSource, saveState, type PullState } from "../../src/pull/state.ts";
import { tempDir } from "../helpers/process.ts";

// The pull's state file: where it lives, what a saved one gives back, and its lock.

const dir = tempDir("brewrecords-pull-state-");
afterAll(() => dir.remove());

describe("defaultStatePath", () => {
  test("beside a SQLite database, named after it and the account", () => {
    expect(defaultStatePath("data/brewrecords.sqlite", "alice")).toBe("data/brewrecords.sqlite.pull-alice.json");
    expect(defaultStatePath("sqlite:///srv/brew/db.sqlite", "bob")).toBe("/srv/brew/db.sqlite.pull-bob.json");
  });

  test("in the working directory for PostgreSQL and an in-memory database", () => {
    expect(defaultStatePath("postgres://brew@db:5432/brew", "alice")).toBe("brewrecords-pull-alice.json");
    expect(defaultStatePath(":memory:", "alice")).toBe("brewrecords-pull-alice.json");
  });
});

describe("loadState and saveState", () => {
  const path = join(dir.path, "state.json");

  test("no file: a fresh state for this source, without a run", () => {
    expect(loadState(join(dir.path, "none.json"), "https://a", "u")).toEqual({ state: { version: 1, from: "https://a", remoteUser: "u", pulled: {} } });
  });

  test("a saved state reads back as it was, and the write leaves no temporary file", () => {
    const state: PullState = { version: 1, from: "https://a", remoteUser: "u", pulled: { recipe: { r1: "d1" } }, run: newRun(1000) };
    state.run!.pending.push("b1");
    saveState(path, state);
    expect(loadState(path, "https://a", "u")).toEqual({ state });
    expect(readdirSync(dir.path).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  test("a state of another source is refused, the file left as it was; with --new-source it is set aside, saying whose it was", () => {
    const before = readFileSync(path, "utf8");
    for (const [from, user] of [["https://b", "u"], ["https://a", "v"]]) {
      expect(() => loadState(path, from!, user!)).toThrow(new OtherSource(
        `${path} holds the pull history of user u at https://a, not of user ${user} at ${from}; nothing was read or written. ` +
          "Check --from and --user-id; to start a new history for this source, add --new-source (or give another --state file)",
      ));
    }
    expect(readFileSync(path, "utf8")).toBe(before);
    const { state, note } = loadState(path, "https://b", "u", true);
    expect(state).toEqual({ version: 1, from: "https://b", remoteUser: "u", pulled: {} });
    expect(note).toBe(`${path} belonged to user u at https://a; starting afresh (--new-source)`);
  });

  test("a file that is not a state is set aside, saying so", () => {
    const bad = join(dir.path, "bad.json");
    writeFileSync(bad, "{not json");
    expect(loadState(bad, "https://a", "u").note).toBe(`${bad} could not be read as JSON; starting afresh`);
    writeFileSync(bad, '{"version":9,"pulled":{}}');
    expect(loadState(bad, "https://a", "u").note).toBe(`${bad} is not a pull state this version knows; starting afresh`);
  });
});

describe("lockState", () => {
  test("one holder at a time; released, it can be taken again", () => {
    const path = join(dir.path, "locked.json");
    const first = lockState(path);
    expect("release" in first).toBe(true);
    // This process holds it: a second taker sees a live holder only when the pid is another's.
    writeFileSync(`${path}.lock`, String(process.ppid));
    expect(lockState(path)).toEqual({ heldBy: process.ppid });
    writeFileSync(`${path}.lock`, String(process.pid));
    if ("release" in first) first.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    const again = lockState(path);
    expect("release" in again).toBe(true);
    if ("release" in again) again.release();
  });

  test("a lock left by a process that no longer runs is taken over", () => {
    const path = join(dir.path, "stale.json");
    const gone = Bun.spawnSync(["true"]).pid;
    writeFileSync(`${path}.lock`, String(gone));
    const lock = lockState(path);
    expect("release" in lock).toBe(true);
    expect(readFileSync(`${path}.lock`, "utf8")).toBe(String(process.pid));
    if ("release" in lock) lock.release();
  });
});
