/**
 * One statement for many calls to a shared place: the first call for a key is sent at once; calls for
 * the key made while that one is in flight wait, then go together as one `run(key, n)`, sent after
 * every one of them was made (so each sees at least what had happened before it was called). `hand`
 * gives the i-th of the n callers its answer from the group's result. A failed run fails its group.
 */
export function coalesced<K, R, T>(
  keyOf: (key: K) => string,
  run: (key: K, calls: number) => Promise<R>,
  hand: (result: R, i: number, calls: number) => T,
): (key: K) => Promise<T> {
  type Waiter = { resolve: (answer: T) => void; reject: (e: unknown) => void };
  type Entry = { key: K; waiting: Waiter[]; inFlight: boolean };
  const pending = new Map<string, Entry>();

  const send = (id: string, entry: Entry) => {
    const group = entry.waiting;
    entry.waiting = [];
    entry.inFlight = true;
    const settle = () => {
      entry.inFlight = false;
      if (entry.waiting.length) send(id, entry);
      else pending.delete(id);
    };
    let sent: Promise<R>;
    try {
      sent = run(entry.key, group.length);
    } catch (e) {
      sent = Promise.reject(e);
    }
    sent.then(
      (result) => {
        settle();
        for (let i = 0; i < group.length; i++) group[i].resolve(hand(result, i, group.length));
      },
      (e) => {
        settle();
        for (const w of group) w.reject(e);
      },
    );
  };

  return (key) =>
    new Promise<T>((resolve, reject) => {
      const id = keyOf(key);
      let entry = pending.get(id);
      if (!entry) pending.set(id, (entry = { key, waiting: [], inFlight: false }));
      entry.waiting.push({ resolve, reject });
      if (!entry.inFlight) send(id, entry);
    });
}

/**
 * Counting in a shared place: `add(key, n)` adds n and returns the new total. Each caller gets the
 * total just after its own call was counted, in the order the calls came: the totals its group passed
 * in one step are handed out as if counted one by one.
 */
export function coalescedCounter<K>(keyOf: (key: K) => string, add: (key: K, calls: number) => Promise<number>): (key: K) => Promise<number> {
  return coalesced(keyOf, add, placeInCount);
}

/** The total just after the i-th of `calls` calls that one step added to reach `total`. */
export const placeInCount = (total: number, i: number, calls: number) => total - calls + i + 1;
