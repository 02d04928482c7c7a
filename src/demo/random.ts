// A small seeded generator (mulberry32): the demo must look varied yet come out
// identical on every start, so nothing here may touch Math.random.
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform value in [-spread, spread]. */
export function jitter(random: Random, spread: number): number {
  return (random() * 2 - 1) * spread;
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Revision strings look like the hosted service's: 30 letters and digits. */
export function revision(random: Random): string {
  let text = "";
  for (let i = 0; i < 30; i++) text += ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length)];
  return text;
}
