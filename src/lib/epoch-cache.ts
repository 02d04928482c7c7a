/**
 * Values verified from a secret (an API key, a logging id), by the secret as presented, valid while
 * the credentials' epoch stays the same: a regenerated credential changes the epoch, so the old one is
 * refused at once, while a repeated one costs a map lookup instead of an HMAC and a query. Without an
 * epoch (a store that has none) nothing is kept. Bounded: past `max` entries the map starts over.
 */
export class EpochCache<V> {
  private readonly entries = new Map<string, V>();
  /** The epoch as the last `get` read it: pass it to `set` once a value missing then is verified. */
  epoch: string | undefined;

  constructor(
    private readonly currentEpoch: () => string | undefined,
    private readonly max = 10_000,
  ) {}

  /** The cached value, after reading the current epoch (kept in `epoch`). */
  get(key: string | null): V | undefined {
    const epoch = this.currentEpoch();
    if (epoch !== this.epoch || this.entries.size > this.max) {
      this.entries.clear();
      this.epoch = epoch;
    }
    return key && epoch !== undefined ? this.entries.get(key) : undefined;
  }

  /** Forgets every value: the owner changed what they were read from. */
  clear(): void {
    this.entries.clear();
  }

  /** Keeps a verified value, unless the epoch moved on while it was being verified. */
  set(key: string | null, value: V, epoch: string | undefined): void {
    if (key && epoch !== undefined && epoch === this.epoch) this.entries.set(key, value);
  }
}
