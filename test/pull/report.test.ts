import { describe, expect, test } from "bun:test";
import { duration, Progress, progressLine, reportLines } from "../../src/pull/report.ts";
import { emptyTally, newRun } from "../../src/pull/state.ts";

// What a pull shows while it runs and when it ends.

function midway() {
  const run = newRun(Date.UTC(2026, 10, 26, 8, 0, 0));
  run.listing.batch = { done: true, seen: ["b1", "b2", "b3"], after: "b3" };
  run.listing.recipe = { done: false, seen: Array.from({ length: 50 }, (_, i) => `r${i}`), after: "r49" };
  run.pending = ["b2", "b3"];
  run.childrenDone = 1;
  return run;
}

describe("duration", () => {
  test("seconds under a minute and a half, then minutes, then hours and minutes", () => {
    expect([0, 1499, 89_000, 90_000, 5_340_000, 5_400_000, 7_260_000].map(duration)).toEqual(["0 s", "1 s", "89 s", "2 min", "89 min", "1 h 30 min", "2 h 1 min"]);
  });
});

describe("progressLine", () => {
  test("done / total per kind (? while a kind is still listed), calls left this hour, time to finish", () => {
    expect(progressLine({ run: midway(), callsLeft: 431, finishMs: 125_000 })).toBe(
      "batches 3/3 · recipes 50/? · fermentables 0/? · hops 0/? · miscs 0/? · yeasts 0/? · readings 1/3 · 431 calls left this hour · about 2 min to finish",
    );
  });

  test("a kind the key may not read is left out; an unknown budget is said so", () => {
    const run = midway();
    run.listing.hops = { done: true, denied: true, seen: [] };
    expect(progressLine({ run, callsLeft: undefined, finishMs: 3000 })).toBe(
      "batches 3/3 · recipes 50/? · fermentables 0/? · miscs 0/? · yeasts 0/? · readings 1/3 · calls left this hour unknown · about 3 s to finish",
    );
  });
});

describe("reportLines", () => {
  test("counts per kind, readings and trackers, skipped items with why, time and calls", () => {
    const run = midway();
    run.calls = 40;
    run.tally.batch = { ...emptyTally(), new: 2, updated: 1 };
    run.tally.recipe = { ...emptyTally(), unchanged: 49, kept: 1, removed: 2 };
    run.listing.hops = { done: true, denied: true, seen: [] };
    run.readings = { added: 12, batchesChanged: 2 };
    run.trackers = { changed: 1, none: 2 };
    run.skipped.push({ what: "hops", why: "the key may not read them (403: it lacks the scope inventory.read)" });
    const lines = reportLines({ localUser: "alice", from: "https://api.brewfather.app", remoteUser: "u1", run, callsThisProcess: 9, elapsedMs: 61_000, resumed: true });
    expect(lines).toEqual([
      "pulled user u1 at https://api.brewfather.app into alice in 61 s with 9 calls (40 over the whole run, begun 2026-11-26T08:00:00.000Z)",
      "  batches          3  2 new, 1 updated, 0 unchanged",
      "  recipes         50  0 new, 0 updated, 49 unchanged, 1 kept as changed here, 2 removed",
      "  fermentables     0  none",
      "  hops         not read (see skipped)",
      "  miscs            0  none",
      "  yeasts           0  none",
      "  readings         1  batches read, 12 new readings in 2 of them",
      "  trackers         1  batches read, 1 trackers changed, 2 batches without one",
      "skipped: 1",
      "  hops: the key may not read them (403: it lacks the scope inventory.read)",
    ]);
  });
});

describe("Progress", () => {
  const sink = () => {
    const out: string[] = [];
    return { out, stream: { write: (t: string) => out.push(t) } };
  };

  test("on a terminal: the line redrawn in place, steps not logged, a note clears the line first", () => {
    const { out, stream } = sink();
    const p = new Progress(stream, true);
    p.show("one", true);
    p.step("a step");
    p.note("waiting 2 s: why");
    p.show("two", true);
    p.clear();
    expect(out).toEqual(["\r\x1b[Kone", "\r\x1b[K", "waiting 2 s: why\n", "\r\x1b[Ktwo", "\r\x1b[K"]);
  });

  test("a line longer than the terminal is cut to its width, so it never wraps", () => {
    const out: string[] = [];
    const p = new Progress({ write: (t: string) => out.push(t), columns: 10 }, true);
    p.show("0123456789abc", true);
    p.show("012345678", true);
    expect(out).toEqual(["\r\x1b[K01234567…", "\r\x1b[K012345678"]);
  });

  test("not on a terminal: a plain line per step and note, no progress line", () => {
    const { out, stream } = sink();
    const p = new Progress(stream, false);
    p.show("one", true);
    p.step("a step");
    p.note("a note");
    p.clear();
    expect(out).toEqual(["a step\n", "a note\n"]);
  });
});
