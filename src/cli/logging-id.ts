import { issueLoggingId } from "../devices/logging-id.ts";
import type { Store } from "../store/types.ts";
import { onlyArguments, UsageError } from "./usage-error.ts";

/**
 * `logging-id <userId> [--regenerate]`: makes the account's logging id on first use and prints it. The
 * id is stored only as a digest, so it cannot be printed again; `--regenerate` replaces it, and devices
 * posting with the old one are refused at once.
 */
export async function runLoggingId(userId: string, options: string[], store: Store): Promise<number> {
  onlyArguments("logging-id", options, { positional: 0, flags: ["--regenerate"] });
  if (!(await store.userExists(userId))) throw new UsageError(`no user ${userId} (create it with: user add ${userId})`);
  const regenerate = options.includes("--regenerate");
  if (!regenerate && (await store.getLoggingId(userId))) {
    throw new UsageError(
      `${userId} has a logging id already; it is stored only as a digest and cannot be shown again. ` +
        `logging-id ${userId} --regenerate makes a new one (devices using the old one are refused at once).`,
    );
  }
  console.log(await issueLoggingId(store, userId));
  console.error(regenerate ? `new logging id for ${userId}; the old one no longer works` : `logging id made for ${userId}`);
  return 0;
}
