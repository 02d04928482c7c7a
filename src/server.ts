import { createApp, newRateLimiter } from "./app.ts";
import type { Config } from "./config.ts";
import type { Store } from "./store/types.ts";

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** How often rate-limit counts are saved: a crash loses at most this much of the counting. */
export const RATE_SAVE_INTERVAL_MS = 1000;

/**
 * Serves the app with Bun.serve. Bodies past the configured cap are refused in src/http/body.ts with a
 * clear 413; Bun's own limit (which answers with an empty body) sits well above it as a backstop.
 */
export async function startServer(config: Config, store: Store): Promise<RunningServer> {
  const limiter = newRateLimiter(config);
  await limiter.load(store);
  const app = createApp(config, store, limiter);
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    fetch: app.fetch,
    maxRequestBodySize: config.maxBodyBytes * 4,
    idleTimeout: 30,
  });
  const timer = setInterval(() => void limiter.save(store).catch((e) => console.error(String(e))), RATE_SAVE_INTERVAL_MS);
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${server.port}`,
    async stop() {
      clearInterval(timer);
      await server.stop();
      await limiter.save(store);
    },
  };
}
