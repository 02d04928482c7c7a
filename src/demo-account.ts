import { buildDemoData } from "./demo/index.ts";
import { parseImport } from "./import.ts";
import { SCOPES } from "./lib/scopes.ts";
import { issueApiKey } from "./store/keys.ts";
import type { Store } from "./store/types.ts";

export const DEMO_USER_ID = "demo";

/** Creates the demo account with every scope and loads the demo data set in one import. */
export async function createDemoAccount(store: Store, now = Date.now()): Promise<{ userId: string; key: string }> {
  await store.createUser(DEMO_USER_ID, null);
  await store.importAll(DEMO_USER_ID, parseImport(buildDemoData(now)));
  const key = await issueApiKey(store, DEMO_USER_ID, SCOPES);
  return { userId: DEMO_USER_ID, key };
}
