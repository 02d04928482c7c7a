import { existsSync, writeFileSync } from "node:fs";
import type { Config } from "../config.ts";
import { toImportDocument } from "../import.ts";
import type { Store } from "../store/types.ts";
import { UsageError } from "./commands.ts";

/** Operations commands (export, backup); undefined when `args` is not one of them. */
export async function runOpsCommand(args: string[], store: Store, config: Config): Promise<number | undefined> {
  const [cmd, first, second] = args;
  if (cmd === "export") {
    if (!first || !second) throw new UsageError("usage: export <userId> <file.json>");
    if (!(await store.userExists(first))) throw new UsageError(`no user ${first}`);
    const doc = toImportDocument(await store.exportAll(first));
    writeFileSync(second, JSON.stringify(doc, null, 1) + "\n");
    console.error(`exported ${doc.batches.length} batches and ${countOthers(doc)} other documents of ${first} to ${second}`);
    return 0;
  }
  if (cmd === "backup") {
    if (!first) throw new UsageError("usage: backup <file.sqlite>");
    if (existsSync(first)) throw new UsageError(`${first} exists; a backup is written to a new file only`);
    await store.backup(first);
    console.error(`backup written to ${first}`);
    return 0;
  }
  if (cmd === "healthcheck") return healthcheck(config);
  return undefined;
}

/**
 * Asks the local server for /healthz (the container's HEALTHCHECK). Over HTTPS the certificate is
 * not checked: the call never leaves this machine, and the name in it is the public one.
 */
async function healthcheck(config: Config): Promise<number> {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = `${config.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${config.port}/healthz`;
  try {
    const res = await fetch(url, { tls: { rejectUnauthorized: false }, signal: AbortSignal.timeout(4000) });
    console.log(`${res.status} ${await res.text()}`);
    return res.status === 200 ? 0 : 1;
  } catch (e) {
    console.error(`healthcheck: ${url}: ${(e as Error).message}`);
    return 1;
  }
}

function countOthers(doc: ReturnType<typeof toImportDocument>): number {
  return doc.recipes.length + doc.fermentables.length + doc.hops.length + doc.miscs.length + doc.yeasts.length;
}
