import type { Database } from "bun:sqlite";

/** A transaction function that runs the function it is given: built once, used for every write. */
export const transactionOf = (db: Database) => db.transaction((body: () => unknown) => body());

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

  constructor(db: Database) {
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
    try {
      this.transaction.immediate(() => {
        for (const { write } of group) {
          try {
            outcomes.push({ value: this.savepoint(write), failed: false });
          } catch (error) {
            outcomes.push({ error, failed: true });
          }
        }
      });
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, i) => (outcomes[i]!.failed ? reject(outcomes[i]!.error) : resolve(outcomes[i]!.value)));
  }
}
