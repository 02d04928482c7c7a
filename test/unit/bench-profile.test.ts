// bench/profile.ts reads Bun's CPU profiles (bench/lib/profile.ts): each function's sampled time by
// itself and with its callees, idle gaps capped, chosen stacks left out, and two sides compared.
import { describe, expect, test } from "bun:test";
import { differences, profileTimes, type CpuProfile } from "../../bench/lib/profile.ts";

const frame = (functionName: string, url = "/app/src/http/api.ts", lineNumber = 1) => ({ functionName, url, lineNumber });

// (root) → handle → query; handle → render; (root) → (idle); (root) → deliver → query
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", ""), children: [2, 5, 6] },
    { id: 2, callFrame: frame("handle", "/app/src/http/endpoint.ts", 10), children: [3, 4] },
    { id: 3, callFrame: frame("query", "/app/src/store/sqlite.ts", 20) },
    { id: 4, callFrame: frame("render", "/app/src/http/documents.ts", 30) },
    { id: 5, callFrame: frame("(idle)", "") },
    { id: 6, callFrame: frame("deliver", "/app/src/webhooks/worker.ts", 40), children: [7] },
    { id: 7, callFrame: frame("query", "/app/src/store/sqlite.ts", 20) },
  ],
  // Each sample's delta is the time since the one before: sample i stands for delta i + 1.
  samples: [3, 3, 4, 2, 5, 7, 3],
  timeDeltas: [0, 250, 250, 250, 250, 250, 5000, 250],
};

describe("profileTimes", () => {
  test("self and inclusive time per function, named by function, file and line; idle samples count for nothing", () => {
    const t = profileTimes(PROFILE, 250);
    expect(Object.fromEntries(t.self)).toEqual({
      "query store/sqlite.ts:20": 1000,
      "render http/documents.ts:30": 250,
      "handle http/endpoint.ts:10": 250,
    });
    expect(Object.fromEntries(t.inclusive)).toEqual({
      "query store/sqlite.ts:20": 1000,
      "handle http/endpoint.ts:10": 1250,
      "render http/documents.ts:30": 250,
      "deliver webhooks/worker.ts:40": 250,
    });
    expect(t.total).toBe(1500);
  });

  test("a gap longer than the cap (time idle after a busy stretch) counts only up to the cap", () => {
    // The sample of `deliver → query` is followed by a 5,000 µs gap.
    expect(profileTimes(PROFILE, 250).inclusive.get("deliver webhooks/worker.ts:40")).toBe(250);
    expect(profileTimes(PROFILE, 10_000).inclusive.get("deliver webhooks/worker.ts:40")).toBe(5000);
  });

  test("stacks holding a frame that matches `exclude` are left out whole", () => {
    const t = profileTimes(PROFILE, 250, /webhooks\/worker\.ts/);
    expect(t.inclusive.has("deliver webhooks/worker.ts:40")).toBe(false);
    expect(t.self.get("query store/sqlite.ts:20")).toBe(750);
    expect(t.total).toBe(1250);
  });

  test("a recursive function counts once per sample in its inclusive time", () => {
    const recursive: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame("(root)", ""), children: [2] },
        { id: 2, callFrame: frame("walk"), children: [3] },
        { id: 3, callFrame: frame("walk") },
      ],
      samples: [3, 3],
      timeDeltas: [0, 100, 100],
    };
    const t = profileTimes(recursive, 250);
    expect(t.inclusive.get("walk http/api.ts:1")).toBe(200);
    expect(t.self.get("walk http/api.ts:1")).toBe(200);
  });
});

describe("differences", () => {
  test("per request on each side, the largest difference first, at most `top`", () => {
    const subject = new Map([["a", 3000], ["b", 1000], ["c", 500]]);
    const baseline = new Map([["a", 2000], ["b", 2000], ["d", 100]]);
    // a: 30 against 10; c: 5 against none; d: none against 0.5; b: 10 against 10, left out.
    expect(differences(subject, 100, baseline, 200, 3)).toEqual([
      { name: "a", subject: 30, baseline: 10 },
      { name: "c", subject: 5, baseline: 0 },
      { name: "d", subject: 0, baseline: 0.5 },
    ]);
  });
});
