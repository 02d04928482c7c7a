import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { sqlitePath } from "../config.ts";
import { isPlainObject } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import { isPostgresUrl } from "../store/open.ts";

// What a pull keeps between runs, in a JSON file beside the database (docs/decisions.md, Pull): the
// digest of every document as last pulled, which tells a change there from one here, and, while a run
// is unfinished, where it stands, so a killed run continues without reading again what it wrote.
// It holds no secret: the API key is never written.

export interface Tally {
  new: number;
  updated: number;
  unchanged: number;
  kept: number;
  removed: number;
}

export interface Skip {
  what: string;
  why: string;
}

export interface Listing {
  /** `_id` of the last document of the last page written: the next page's `start_after`. */
  after?: string;
  done: boolean;
  /** The key may not read this kind (403): the rest of the pull goes on without it. */
  denied?: boolean;
  /** Every `_id` listed so far in this run, to prune and to forget documents the remote no longer has. */
  seen: string[];
}

export interface RunState {
  startedAt: number;
  /** Calls made by this run, over all its resumptions. */
  calls: number;
  listing: Partial<Record<Kind, Listing>>;
  /** Batches whose readings and tracker are still to read, in order. */
  pending: string[];
  /** Batches whose readings and tracker were read in this run. */
  childrenDone: number;
  tally: Partial<Record<Kind, Tally>>;
  readings: { added: number; batchesChanged: number };
  trackers: { changed: number; none: number };
  skipped: Skip[];
}

export interface PullState {
  version: 1;
  /** The remote base URL and user id this history belongs to; another source starts afresh. */
  from: string;
  remoteUser: string;
  /** By kind and `_id`: the digest of the document's canonical text when last pulled. */
  pulled: Partial<Record<Kind, Record<string, string>>>;
  run?: RunState;
}

export const emptyTally = (): Tally => ({ new: 0, updated: 0, unchanged: 0, kept: 0, removed: 0 });

export function newRun(now: number): RunState {
  return { startedAt: now, calls: 0, listing: {}, pending: [], childrenDone: 0, tally: {}, readings: { added: 0, batchesChanged: 0 }, trackers: { changed: 0, none: 0 }, skipped: [] };
}

/**
 * Where a local account's pull state lives: beside a SQLite database (`records.sqlite.pull-alice.json`),
 * so it moves and is removed with it; for PostgreSQL, in the working directory.
 */
export function defaultStatePath(databaseUrl: string, localUser: string): string {
  const file = `pull-${localUser}.json`;
  if (isPostgresUrl(databaseUrl)) return `brewrecords-${file}`;
  const path = sqlitePath(databaseUrl);
  return path === ":memory:" ? `brewrecords-${file}` : join(dirname(path), `${path.split("/").pop()}.${file}`);
}

/** A state file holding another source's history, kept as it is: the pull is refused. */
export class OtherSource extends Error {}

/**
 * The state for this source: the saved one, or a fresh one (with why, when a saved one was set aside).
 * A saved history of another source (another `--from` or `--user-id`, also one spelled differently,
 * `localhost` for `127.0.0.1`) is replaced only with `newSource`; otherwise OtherSource is thrown and
 * nothing is written: a mistyped `--from` would start afresh, and a pull without history takes the
 * remote copy of whatever changed on both sides.
 */
export function loadState(path: string, from: string, remoteUser: string, newSource = false): { state: PullState; note?: string } {
  const fresh: PullState = { version: 1, from, remoteUser, pulled: {} };
  if (!existsSync(path)) return { state: fresh };
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return { state: fresh, note: `${path} could not be read as JSON; starting afresh` };
  }
  if (!isPlainObject(saved) || saved.version !== 1 || !isPlainObject(saved.pulled)) {
    return { state: fresh, note: `${path} is not a pull state this version knows; starting afresh` };
  }
  if (saved.from !== from || saved.remoteUser !== remoteUser) {
    const held = `user ${String(saved.remoteUser)} at ${String(saved.from)}`;
    if (!newSource) {
      throw new OtherSource(
        `${path} holds the pull history of ${held}, not of user ${remoteUser} at ${from}; nothing was read or written. ` +
          `Check --from and --user-id; to start a new history for this source, add --new-source (or give another --state file)`,
      );
    }
    return { state: fresh, note: `${path} belonged to ${held}; starting afresh (--new-source)` };
  }
  return { state: saved as unknown as PullState };
}

/** Writes the state whole or not at all: a new file renamed over the old one. */
export function saveState(path: string, state: PullState): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state));
  renameSync(temp, path);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Takes the lock of a state file, so two pulls of one account never write it at once. A lock left by a
 * process that no longer runs (a killed pull) is taken over. Returns its release, or the pid holding it.
 */
export function lockState(path: string): { release(): void } | { heldBy: number } {
  const lock = `${path}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(lock, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(lock, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return { heldBy: pid };
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`cannot take the lock ${lock}`);
}
