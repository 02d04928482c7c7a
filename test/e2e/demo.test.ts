import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startServerProcess, tempDir } from "../helpers/process.ts";

// First start on an empty database creates the demo account and prints how to call it.
const dir = tempDir();
afterAll(() => dir.remove());

test("first start with an empty database creates the demo account and prints a working curl line", async () => {
  const env = { DATABASE_URL: join(dir.path, "demo.sqlite"), DEMO: "1" };
  const server = await startServerProcess(env);
  try {
    await Bun.sleep(50);
    const out = server.output();
    const userId = /user id: (\S+)/.exec(out)?.[1];
    const key = /API key: (\S+)/.exec(out)?.[1];
    expect(userId).toBe("demo");
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(out).toContain(`curl -u 'demo:${key}' '${server.url}/v2/batches'`);
    const auth = { authorization: `Basic ${btoa(`demo:${key}`)}` };
    const get = async (path: string) => {
      const res = await fetch(server.url + path, { headers: auth });
      return { status: res.status, body: await res.json() };
    };
    const batches = (await get("/v2/batches?limit=50")).body as Array<{ _id: string; status: string }>;
    expect(batches.length).toBeGreaterThanOrEqual(5);
    expect(new Set(batches.map((b) => b.status)).size).toBeGreaterThanOrEqual(4);
    // One batch has 50+ readings and a tracker; one has neither.
    const readingCounts = await Promise.all(batches.map(async (b) => (await get(`/v2/batches/${b._id}/readings`)).body.length as number));
    expect(Math.max(...readingCounts)).toBeGreaterThanOrEqual(50);
    const trackers = await Promise.all(batches.map(async (b) => (await fetch(`${server.url}/v2/batches/${b._id}/brewtracker`, { headers: auth })).status));
    expect(trackers).toContain(200);
    const bare = batches.filter((_, i) => readingCounts[i] === 0 && trackers[i] === 404);
    expect(bare.length).toBeGreaterThanOrEqual(1);
    expect(((await get("/v2/recipes")).body as unknown[]).length).toBe(3);
    for (const c of ["fermentables", "hops", "miscs", "yeasts"]) {
      expect(((await get(`/v2/inventory/${c}`)).body as unknown[]).length).toBeGreaterThan(0);
    }
  } finally {
    expect(await server.stop()).toBe(0);
  }
  // A second start on the same database creates nothing and prints no key.
  const again = await startServerProcess(env);
  try {
    await Bun.sleep(50);
    expect(again.output()).not.toContain("API key:");
  } finally {
    await again.stop();
  }
});

test("DEMO=0 starts with no demo account", async () => {
  const server = await startServerProcess({ DATABASE_URL: join(dir.path, "empty.sqlite"), DEMO: "0" });
  try {
    await Bun.sleep(50);
    expect(server.output()).not.toContain("demo account created");
  } finally {
    await server.stop();
  }
});
