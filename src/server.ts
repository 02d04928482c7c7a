import { createApp } from "./app.ts";
import type { Config } from "./config.ts";
import type { Store } from "./store/types.ts";

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves the app with Bun.serve. Bodies past the configured cap are refused in src/http/body.ts with a
 * clear 413; Bun's own limit (which answers with an empty body) sits well above it as a backstop. */
export function startServer(config: Config, store: Store): RunningServer {
  const app = createApp(config, store);
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    fetch: app.fetch,
    maxRequestBodySize: config.maxBodyBytes * 4,
    idleTimeout: 30,
  });
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${server.port}`,
    async stop() {
      await server.stop();
    },
  };
}
