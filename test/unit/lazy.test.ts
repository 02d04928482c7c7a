// Modules loaded on first use (src/lib/lazy.ts).
import { expect, test } from "bun:test";
import { lazy } from "../../src/lib/lazy.ts";

test("concurrent first calls share one load; later calls get the module itself, not a promise", async () => {
  let loads = 0;
  const get = lazy(async () => ({ n: ++loads }));
  const [a, b] = await Promise.all([get(), get()]);
  expect(loads).toBe(1);
  expect(a).toBe(b);
  expect(get()).toBe(a);
});

test("a failed load is tried again by the next call", async () => {
  let calls = 0;
  const get = lazy(async () => {
    if (++calls === 1) throw new Error("not yet");
    return { ok: true };
  });
  await expect(get() as Promise<unknown>).rejects.toThrow("not yet");
  expect(await get()).toEqual({ ok: true });
  expect(calls).toBe(2);
});
