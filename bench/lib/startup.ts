import { rss, start, type StartOptions } from "./procs.ts";
import type { Way } from "./targets.ts";
import { wrk, type WrkResult } from "./wrk.ts";

// Cold start to the first 200 and idle memory of the server against an Elysia hello-world, started
// alternately, as deployed (bundles) and from sources; then memory after a short and a long mixed load
// on a fresh server process.

export interface StartupSample {
  readyMs: number;
  idleRss: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function sample(o: StartOptions, idleMs: number): Promise<StartupSample> {
  const p = await start(o);
  await Bun.sleep(idleMs);
  const idleRss = rss(p.pid);
  await p.stop();
  return { readyMs: p.readyMs, idleRss };
}

/** One way of starting (bundle or sources): the server and the hello-world, round by round. */
export interface StartupPair {
  server: StartupSample[];
  hello: StartupSample[];
  /** Medians of the per-round ratios, server ÷ hello-world. */
  coldStartRatio: number;
  idleRssRatio: number;
}

export type StartupResult = Record<Way, StartupPair>;

/**
 * Each round starts the server and the hello-world from their bundles, then from their sources; within
 * each pair, which starts first alternates, so neither always meets a warmer page cache.
 */
export async function measureStartup(server: (way: Way) => StartOptions, hello: (way: Way) => StartOptions, rounds: number): Promise<StartupResult> {
  const ways: Way[] = ["bundle", "sources"];
  const samples = Object.fromEntries(ways.map((w) => [w, { s: [] as StartupSample[], h: [] as StartupSample[] }])) as Record<Way, { s: StartupSample[]; h: StartupSample[] }>;
  for (let i = 0; i < rounds; i++) {
    for (const way of ways) {
      const { s, h } = samples[way];
      if (i % 2 === 0) {
        s.push(await sample(server(way), 2000));
        h.push(await sample(hello(way), 2000));
      } else {
        h.push(await sample(hello(way), 2000));
        s.push(await sample(server(way), 2000));
      }
    }
  }
  const pair = ({ s, h }: { s: StartupSample[]; h: StartupSample[] }): StartupPair => ({
    server: s,
    hello: h,
    coldStartRatio: median(s.map((x, i) => x.readyMs / h[i].readyMs)),
    idleRssRatio: median(s.map((x, i) => x.idleRss / h[i].idleRss)),
  });
  return { bundle: pair(samples.bundle), sources: pair(samples.sources) };
}

export interface SoakResult {
  shortSeconds: number;
  longSeconds: number;
  rssAfterShort: number;
  rssAfterLong: number;
  /** rssAfterLong ÷ rssAfterShort; at most 1.2 means no growth. */
  growth: number;
  short: WrkResult;
  rest: WrkResult;
}

/** Mixed load for `shortSeconds`, RSS; more load until `longSeconds` in all, RSS again. */
export async function soak(server: StartOptions, auth: string, env: Record<string, string>, connections: number, shortSeconds: number, longSeconds: number): Promise<SoakResult> {
  const p = await start(server);
  try {
    const short = await wrk({ url: `${p.url}/`, connections, seconds: shortSeconds, auth, env });
    await Bun.sleep(500);
    const rssAfterShort = rss(p.pid);
    const rest = await wrk({ url: `${p.url}/`, connections, seconds: longSeconds - shortSeconds, auth, env });
    await Bun.sleep(500);
    const rssAfterLong = rss(p.pid);
    return { shortSeconds, longSeconds, rssAfterShort, rssAfterLong, growth: rssAfterLong / rssAfterShort, short, rest };
  } finally {
    await p.stop();
  }
}
