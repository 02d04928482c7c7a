import { canonicalJson, type Doc } from "../lib/json.ts";
import type { Kind } from "../resources.ts";
import type { ImportSet, Store } from "../store/types.ts";
import { decide, digest, mergeReadings, readingsAdded, stampOf, type Change } from "./changes.ts";
import { finishEstimateMs } from "./pace.ts";
import { callsStillNeeded, isLastPage, KIND_NAMES, LIST_ORDER, listPath, needsChildren, parsePage, parseReadings, parseTracker, READ_SCOPE, readingsPath, trackerPath } from "./plan.ts";
import { Remote, type Answer } from "./remote.ts";
import { duration, progressLine, reportLines, type Progress } from "./report.ts";
import { emptyTally, loadState, newRun, saveState, type Listing, type PullState, type RunState, type Skip } from "./state.ts";
import { importable, joinSets, localChildren, localIds } from "./write.ts";

// A pull: list every kind page by page, writing each page as it comes; then read each batch's readings
// and tracker that may have changed. The state is saved after every write, so a killed run continues
// where it stopped.

export interface PullOptions {
  localUser: string;
  /** Base URL, without a trailing slash. */
  from: string;
  remoteUser: string;
  apiKey: string;
  /** Remove what the remote lacks; readings and tracker mirror the remote's. */
  prune: boolean;
  /** Read every batch's readings and tracker, not only those that may have changed. */
  full: boolean;
  retries: number;
  statePath: string;
  /** Replace a state file that holds another source's history (loadState). */
  newSource?: boolean;
}

/** The remote answered something a pull cannot go on from. */
export class RemoteAnswerError extends Error {}

export interface PullIo {
  progress: Progress;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export class Pull {
  readonly remote: Remote;
  readonly state: PullState;
  readonly run: RunState;
  readonly resumed: boolean;
  private readonly now: () => number;
  private readonly startedAt: number;

  constructor(private readonly store: Store, private readonly options: PullOptions, private readonly io: PullIo) {
    this.now = io.now ?? Date.now;
    this.startedAt = this.now();
    const { state, note } = loadState(options.statePath, options.from, options.remoteUser, options.newSource);
    if (note) io.progress.note(note);
    this.state = state;
    this.resumed = state.run !== undefined;
    this.run = state.run ??= newRun(this.startedAt);
    this.remote = new Remote({
      baseUrl: options.from,
      userId: options.remoteUser,
      apiKey: options.apiKey,
      retries: options.retries,
      callsNeeded: () => this.callsNeeded(),
      // Paced calls a few seconds apart show on the progress line; longer waits are said on a line of their own.
      onWait: (ms, why, paced) => (paced && ms < 60_000 ? this.showProgress(true, ` · next call in ${duration(ms)}`) : io.progress.note(`waiting ${duration(ms)}: ${why}`)),
      sleep: io.sleep,
      now: io.now,
    });
  }

  private callsNeeded(): number {
    const unlisted = LIST_ORDER.filter((k) => !this.run.listing[k]?.done).length;
    return callsStillNeeded(unlisted, this.run.pending.length);
  }

  /** Runs to the end; throws what stops it (the state saved as it stands). */
  async execute(): Promise<string[]> {
    if (this.resumed) this.io.progress.note(`continuing the pull begun ${new Date(this.run.startedAt).toISOString()} (${this.run.calls} calls made so far)`);
    for (const kind of LIST_ORDER) await this.listKind(kind);
    while (this.run.pending.length) await this.batchChildren(this.run.pending[0]!);
    return this.finish();
  }

  private showProgress(force = false, suffix = ""): void {
    const line = progressLine({
      run: this.run,
      callsLeft: this.callsLeft(),
      finishMs: finishEstimateMs(this.remote.budget, this.callsNeeded(), this.now(), this.remote.msPerCall),
    });
    this.io.progress.show(line + suffix, force);
  }

  /** `(12 calls, 488 left this hour)`: this process's calls and the remote's budget as last seen. */
  private callsText(): string {
    const left = this.callsLeft();
    return `(${this.remote.calls} calls, ${left === undefined ? "unknown" : left} left this hour)`;
  }

  private callsLeft(): number | undefined {
    const budget = this.remote.budget;
    return budget && this.now() < budget.resetAt ? budget.remaining : undefined;
  }

  /** Calls of this process already added to the run's count. */
  private savedCalls = 0;

  private save(): void {
    this.run.calls += this.remote.calls - this.savedCalls;
    this.savedCalls = this.remote.calls;
    saveState(this.options.statePath, this.state);
    this.showProgress();
  }

  /** After a stop: saves the state as it stands (every change to it follows the write it records). */
  saveOnStop(): void {
    this.save();
    this.clearProgress();
  }

  clearProgress(): void {
    this.io.progress.clear();
  }

  private unexpected(path: string, answer: Answer): never {
    throw new RemoteAnswerError(`GET ${path}: ${answer.status} ${answer.text.trim().slice(0, 200)}`);
  }

  private async listKind(kind: Kind): Promise<void> {
    const listing: Listing = (this.run.listing[kind] ??= { done: false, seen: [] });
    while (!listing.done) {
      const path = listPath(kind, listing.after);
      const answer = await this.remote.get(path);
      if (answer.status === 403) {
        listing.done = listing.denied = true;
        this.run.skipped.push({ what: KIND_NAMES[kind], why: `the key may not read them (403: it lacks the scope ${READ_SCOPE[kind]})` });
        this.io.progress.step(`${KIND_NAMES[kind]}: not read, the key lacks ${READ_SCOPE[kind]}`);
        this.save();
        return;
      }
      if (answer.status !== 200) this.unexpected(path, answer);
      const docs = parsePage(answer.text);
      if (typeof docs === "string") throw new RemoteAnswerError(`GET ${path}: ${docs}`);
      await this.writePage(kind, docs, listing);
      if (isLastPage(docs.length)) {
        if (this.options.prune) await this.prune(kind, listing);
        listing.done = true;
      }
      this.save();
      this.io.progress.step(`${KIND_NAMES[kind]}: ${listing.seen.length} listed${listing.done ? ", done" : ""} ${this.callsText()}`);
    }
  }

  /** Decides and writes one page in one transaction; then records it in the state (saved by the caller). */
  private async writePage(kind: Kind, docs: Doc[], listing: Listing): Promise<void> {
    const { store } = this;
    const user = this.options.localUser;
    const pulled = (this.state.pulled[kind] ??= {});
    const tally = (this.run.tally[kind] ??= emptyTally());
    const sets: ImportSet[] = [];
    const digests: Array<[string, string]> = [];
    const changes: Change[] = [];
    const skipped: Skip[] = [];
    const pending: string[] = [];
    for (const doc of docs) {
      const id = doc._id as string;
      const text = canonicalJson(doc);
      const remoteDigest = digest(text);
      const localText = await store.get(user, kind, id);
      const local = localText === undefined ? undefined : { text: localText, stamp: stampOf(JSON.parse(localText) as Doc) };
      const { change, conflict } = decide({ text, stamp: stampOf(doc) }, local, pulled[id]);
      if (change === "new" || change === "updated") {
        // A batch document is written with what is stored of its readings and tracker, which a later
        // step merges with the remote's.
        const here = kind === "batch" && local ? await localChildren(store, user, id) : undefined;
        const set = importable(kind, doc, here ? { readings: here.readingsText === undefined ? undefined : here.readings, brewTracker: here.tracker } : {});
        if (typeof set === "string") {
          skipped.push({ what: `${kind} ${id}`, why: `refused by the import rules: ${set}` });
          continue;
        }
        sets.push(set);
      }
      changes.push(change);
      if (conflict) skipped.push({ what: `${kind} ${id}`, why: conflict });
      digests.push([id, remoteDigest]);
      if (kind === "batch" && needsChildren(doc, pulled[id] !== remoteDigest, this.options.full)) pending.push(id);
    }
    if (sets.length) await store.importAll(user, joinSets(sets));
    // The state follows the write, so a failed write leaves it as it was.
    for (const change of changes) tally[change]++;
    this.run.skipped.push(...skipped);
    for (const [id, d] of digests) pulled[id] = d;
    listing.seen.push(...docs.map((d) => d._id as string));
    if (docs.length) listing.after = docs[docs.length - 1]!._id as string;
    this.run.pending.push(...pending);
  }

  /** With --prune: removes the documents of a kind the remote did not list. */
  private async prune(kind: Kind, listing: Listing): Promise<void> {
    const seen = new Set(listing.seen);
    const tally = (this.run.tally[kind] ??= emptyTally());
    for (const id of await localIds(this.store, this.options.localUser, kind)) {
      if (seen.has(id)) continue;
      if (await this.store.remove(this.options.localUser, kind, id)) tally.removed++;
    }
  }

  /** Reads one batch's readings and tracker, merges them with what is here and writes the result. */
  private async batchChildren(id: string): Promise<void> {
    const done = () => {
      this.run.pending.shift();
      this.run.childrenDone++;
      this.save();
    };
    const skip = (why: string) => {
      this.run.skipped.push({ what: `readings and tracker of batch ${id}`, why });
      done();
    };
    const rPath = readingsPath(id);
    const rAnswer = await this.remote.get(rPath);
    if (rAnswer.status === 404) return skip("the remote no longer has the batch");
    if (rAnswer.status !== 200) this.unexpected(rPath, rAnswer);
    const remoteReadings = parseReadings(rAnswer.text);
    if (typeof remoteReadings === "string") return skip(remoteReadings);
    const tPath = trackerPath(id);
    const tAnswer = await this.remote.get(tPath);
    if (tAnswer.status !== 200 && tAnswer.status !== 404) this.unexpected(tPath, tAnswer);
    const remoteTracker = tAnswer.status === 404 ? undefined : parseTracker(tAnswer.text);
    if (typeof remoteTracker === "string") return skip(remoteTracker);

    const user = this.options.localUser;
    const docText = await this.store.get(user, "batch", id);
    if (docText === undefined) return skip("the batch is not stored here (see its own line)");
    const here = await localChildren(this.store, user, id);
    const merged = mergeReadings(here.readings, remoteReadings, this.options.prune);
    const tracker = remoteTracker ?? (this.options.prune ? undefined : here.tracker);
    // A batch with no readings stored and none pulled stays without: the API answers [] either way.
    const readings = merged.length === 0 && here.readingsText === undefined ? undefined : merged;
    const readingsChanged = readings !== undefined && canonicalJson(readings) !== here.readingsText;
    const trackerChanged = (tracker === undefined ? undefined : canonicalJson(tracker)) !== here.trackerText;
    if (readingsChanged || trackerChanged) {
      const set = importable("batch", JSON.parse(docText) as Doc, { readings, brewTracker: tracker });
      if (typeof set === "string") return skip(`refused by the import rules: ${set}`);
      await this.store.importAll(user, set);
    }
    const added = readingsAdded(here.readings, merged);
    this.run.readings.added += added;
    if (readingsChanged) this.run.readings.batchesChanged++;
    if (trackerChanged) this.run.trackers.changed++;
    if (remoteTracker === undefined) this.run.trackers.none++;
    done();
    this.io.progress.step(`batch ${id}: ${merged.length} readings (${added} new), tracker ${remoteTracker === undefined ? "none" : trackerChanged ? "changed" : "unchanged"} ${this.callsText()}`);
  }

  /** Ends the run: forgets documents the remote no longer lists, saves, and gives the report. */
  private finish(): string[] {
    for (const kind of LIST_ORDER) {
      const listing = this.run.listing[kind];
      const pulled = this.state.pulled[kind];
      if (!listing || listing.denied || !pulled) continue;
      const seen = new Set(listing.seen);
      for (const id of Object.keys(pulled)) if (!seen.has(id)) delete pulled[id];
    }
    this.run.calls += this.remote.calls - this.savedCalls;
    this.savedCalls = this.remote.calls;
    const run = this.run;
    delete this.state.run;
    saveState(this.options.statePath, this.state);
    this.io.progress.clear();
    return reportLines({
      localUser: this.options.localUser,
      from: this.options.from,
      remoteUser: this.options.remoteUser,
      run,
      callsThisProcess: this.remote.calls,
      elapsedMs: this.now() - this.startedAt,
      resumed: this.resumed,
    });
  }
}
