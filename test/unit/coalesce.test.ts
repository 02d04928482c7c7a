// Calls sent together (src/lib/coalesce.ts): the PostgreSQL store reads an account's key once, and
// counts its calls with one increment, for the calls of a key that arrive while the previous
// statement is in flight.
import { describe, expect, test } from "bun:test";
import { coalesced, coalescedCounter } from "../../src/lib/coalesce.ts";

/** A shared count per key; each add resolves only when released, in the order sent. */
function counter() {
  const totals = new Map<string, number>();
  const sent: Array<{ key: string; calls: number; release: (fail?: Error) => void }> = [];
  const add = (key: string, calls: number) =>
    new Promise<number>((resolve, reject) => {
      sent.push({
        key, calls,
        release: (fail) => {
          if (fail) return reject(fail);
          totals.set(key, (totals.get(key) ?? 0) + calls);
          resolve(totals.get(key)!);
        },
      });
    });
  return { totals, sent, count: coalescedCounter((k: string) => k, add) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("coalescedCounter", () => {
  test("a call with nothing in flight is sent at once, alone", async () => {
    const c = counter();
    const first = c.count("a");
    expect(c.sent.map((s) => [s.key, s.calls])).toEqual([["a", 1]]);
    c.sent[0].release();
    expect(await first).toBe(1);
  });

  test("calls made while one is in flight go as one add, each handed its own place in call order", async () => {
    const c = counter();
    const first = c.count("a");
    const later = [c.count("a"), c.count("a"), c.count("a"), c.count("a"), c.count("a")];
    expect(c.sent.length).toBe(1);
    c.sent[0].release();
    expect(await first).toBe(1);
    await tick();
    expect(c.sent.map((s) => s.calls)).toEqual([1, 5]);
    c.sent[1].release();
    expect(await Promise.all(later)).toEqual([2, 3, 4, 5, 6]);
    expect(c.totals.get("a")).toBe(6);
  });

  test("another process's calls counted in between are skipped over, not handed out", async () => {
    const c = counter();
    const first = c.count("a");
    const later = [c.count("a"), c.count("a")];
    c.sent[0].release();
    await first;
    await tick();
    c.totals.set("a", c.totals.get("a")! + 10);
    c.sent[1].release();
    expect(await Promise.all(later)).toEqual([12, 13]);
  });

  test("keys do not wait for each other", async () => {
    const c = counter();
    const a = c.count("a");
    const b = c.count("b");
    expect(c.sent.map((s) => [s.key, s.calls])).toEqual([["a", 1], ["b", 1]]);
    c.sent[1].release();
    expect(await b).toBe(1);
    c.sent[0].release();
    expect(await a).toBe(1);
  });

  test("a failed add fails its own group only; the next group is still sent and counted", async () => {
    const c = counter();
    const first = c.count("a");
    const group = [c.count("a"), c.count("a")];
    const after = Promise.allSettled(group);
    c.sent[0].release(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await tick();
    expect(c.sent.map((s) => s.calls)).toEqual([1, 2]);
    c.sent[1].release();
    expect((await after).map((r) => r.status === "fulfilled" && r.value)).toEqual([1, 2]);
  });

  test("an add that throws at once rejects its calls instead of escaping", async () => {
    const count = coalescedCounter((k: string) => k, () => {
      throw new Error("closed");
    });
    await expect(count("a")).rejects.toThrow("closed");
    await expect(count("a")).rejects.toThrow("closed");
  });
});

describe("coalesced reads", () => {
  test("a call made while a read is in flight waits for the next read, sent after it, never the earlier answer", async () => {
    let value = "old";
    const reads: Array<() => void> = [];
    // A read sees the value as it was when the read was sent.
    const send = (_k: string, calls: number) => {
      const seen = `${value} x${calls}`;
      return new Promise<string>((resolve) => reads.push(() => resolve(seen)));
    };
    const read = coalesced((k: string) => k, send, (r) => r);
    const early = read("key");
    value = "new";
    const late = [read("key"), read("key")];
    reads[0]();
    expect(await early).toBe("old x1");
    await tick();
    reads[1]();
    expect(await Promise.all(late)).toEqual(["new x2", "new x2"]);
  });
});
