import type { Config } from "../config.ts";
import { startServer } from "../server.ts";
import type { Store } from "../store/types.ts";

/** Starts the server; on SIGTERM/SIGINT stops accepting, lets in-flight requests finish, closes the store. */
export async function serve(config: Config, store: Store): Promise<void> {
  // The demo data set is loaded only when it is needed: on first start with an empty database.
  const demo = config.demo && (await store.isEmpty()) ? await (await import("../demo-account.ts")).createDemoAccount(store) : undefined;
  const server = await startServer(config, store);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    await store.close();
    process.exit(0);
  };
  // Before the server says it is listening: a supervisor may send SIGTERM as soon as it reads that.
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  console.log(`brewrecords listening on ${server.url}`);
  if (server.loggingUrl) console.log(`device logging endpoints listening on ${server.loggingUrl}`);
  if (demo) {
    console.log(`demo account created (printed once; the key is stored only as a digest):`);
    console.log(`  user id: ${demo.userId}`);
    console.log(`  API key: ${demo.key}`);
    console.log(`  try:     curl -u '${demo.userId}:${demo.key}' '${server.url}/v2/batches'`);
  }
}
