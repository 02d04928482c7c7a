import { expect, test } from "bun:test";
import { andThen, settledWithin } from "../../src/lib/awaitable.ts";

// The small promise helpers of src/lib/awaitable.ts.

test("andThen applies at once to a value here, and later to a promise", async () => {
  expect(andThen(2, (n) => n + 1)).toBe(3);
  expect(await andThen(Promise.resolve(2), (n) => n + 1)).toBe(3);
});

test("settledWithin: the value of a promise settled in time, undefined for a late one, and a rejection as it is", async () => {
  expect(await settledWithin(Bun.sleep(5).then(() => "in time"), 1000)).toBe("in time");
  const started = performance.now();
  expect(await settledWithin(new Promise(() => {}), 30)).toBeUndefined();
  expect(performance.now() - started).toBeLessThan(1000);
  await expect(settledWithin(Promise.reject(new Error("refused")), 1000)).rejects.toThrow("refused");
});

test("settledWithin leaves no timer behind: a process whose one promise settled at once exits well before the limit", () => {
  const spawned = performance.now();
  const child = Bun.spawnSync([process.execPath, "-e", `import { settledWithin } from ${JSON.stringify(new URL("../../src/lib/awaitable.ts", import.meta.url).pathname)};
    console.log(await settledWithin(Promise.resolve("done"), 5000));`]);
  expect(child.stdout.toString().trim()).toBe("done");
  expect(performance.now() - spawned).toBeLessThan(4000);
});
