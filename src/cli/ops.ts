import { existsSync, writeFileSync } from "node:fs";
import type { Config } from "../config.ts";
import { toImportDocument } from "../import.ts";
import type { Store } from "../store/types.ts";
import { UsageError } from "./commands.ts";

/** Operations commands (export, backup); undefined when `args` is not one of them. */
export async function runOpsCommand(args: string[], store: Store, _config: Config): Promise<number | undefined> {
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
  return undefined;
}

function countOthers(doc: ReturnType<typeof toImportDocument>): number {
  return doc.recipes.length + doc.fermentables.length + doc.hops.length + doc.miscs.length + doc.yeasts.length;
}
