import type { Awaitable } from "./awaitable.ts";

/**
 * A module loaded on first use, so that start-up loads only what the API's first requests need: a
 * promise the first time, the module itself once it is here (no promise on later calls).
 */
export function lazy<T>(load: () => Promise<T>): () => Awaitable<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return () =>
    loaded ??
    (loading ??= load().then(
      (m) => (loaded = m),
      (e) => {
        // A failed load is tried again by the next call, not remembered as failed.
        loading = undefined;
        throw e;
      },
    ));
}
