import type { Database } from "bun:sqlite";

/** A transaction function that runs the function it is given: built once, used for every write. */
export const transactionOf = (db: Database) => db.transaction((body: () => unknown) => body());

/**
 * What a group's writes leave in memory to be written once at the group's end, in its transaction
 * (the webhook outbox, sqlite-webhooks.ts): what a write that fails staged is dropped with it.
 */
export interface GroupStage {
  /** How much is staged now. */
  mark(): number;
  /** Drops what was staged after `mark`. */
  dropAfter(mark: number): void;
  /** Writes what is staged, then holds nothing; called in the group's transaction before its COMMIT. */
  write(): void;
  /** Set while a group runs its writes: outside one, a write's transaction is its own. */
  grouping: boolean;
}

/**
 * Writes that arrive together, committed together. Each write runs in a savepoint of its own inside one
 * immediate transaction started once the current turn of the event loop is over, so every write queued
 * in that turn shares a COMMIT: the COMMIT (its WAL frames and locks) was half of a device post's time,
 * and a fleet of devices posts in bursts. A write that throws is rolled back to its savepoint alone and
 * its caller gets the error; if the COMMIT itself fails, every write of the group is refused and none
 * happened. A caller's promise settles only after the COMMIT, so an answered write is as durable as
 * one committed alone (docs/performance.md, "Storage").
 */
export class GroupCommit {
  private queue: Array<{ write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }> = [];
  private readonly transaction;
  private readonly savepoint;
  private flushing: Promise<void> | undefined;

  constructor(
    db: Database,
    private readonly stage?: GroupStage,
  ) {
    this.transaction = transactionOf(db);
    // Called inside the group's transaction, bun:sqlite runs it as a SAVEPOINT.
    this.savepoint = transactionOf(db);
  }

  /** Runs `write` in the next group; its result once the group has committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length === 1) this.flushing = new Promise((done) => setImmediate(() => done(this.flush())));
    });
  }

  /** Settles once every write queued so far has committed or been refused. */
  async drain(): Promise<void> {
    while (this.queue.length || this.flushing) await this.flushing;
  }

  private flush(): void {
    const group = this.queue;
    this.queue = [];
    this.flushing = undefined;
    const outcomes: Array<{ value?: unknown; error?: unknown; failed: boolean }> = [];
    const stage = this.stage;
    try {
      this.transaction.immediate(() => {
        if (stage) stage.grouping = true;
        for (const { write } of group) {
          const mark = stage?.mark() ?? 0;
          try {
            outcomes.push({ value: this.savepoint(write), failed: false });
          } catch (error) {
            stage?.dropAfter(mark);
            outcomes.push({ error, failed: true });
          }
        }
        stage?.write();
      });
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    } finally {
      if (stage) {
        stage.grouping = false;
        stage.dropAfter(0);
      }
    }
    group.forEach(({ resolve, reject }, i) => (outcomes[i]!.failed ? reject(outcomes[i]!.error) : resolve(outcomes[i]!.value)));
  }
}
