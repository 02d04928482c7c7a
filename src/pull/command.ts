import type { Config } from "../config.ts";
import type { Store } from "../store/types.ts";
import { keyFromInput, parsePullArgs, PULL_USAGE } from "./options.ts";
export { PULL_USAGE } from "./options.ts";
import { CredentialsRefused, RemoteUnavailable } from "./remote.ts";
import { Progress } from "./report.ts";
import { Pull, RemoteAnswerError } from "./run.ts";
import { defaultStatePath, lockState, OtherSource } from "./state.ts";

/** Why `pull` stopped, and its exit code: 1 usage, 2 credentials refused, 3 stopped midway. */
export class PullStop extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 | 3) {
    super(message);
  }
}

export interface PullContext {
  store: Store;
  config: Config;
  /** Standard input, read only when the key comes from it. */
  readInput: () => Promise<string>;
  inputIsTerminal: boolean;
  /** Progress and notes (standard error); the report goes to `out`. */
  err: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  out: { write(text: string): unknown };
}

/** `pull <userId> …`: brings an account from a remote service of this API. Returns the exit code. */
export async function runPull(args: string[], ctx: PullContext): Promise<number> {
  const parsed = parsePullArgs(args);
  if ("error" in parsed) throw new PullStop(`${parsed.error}\n${PULL_USAGE}`, 1);
  const { store, config } = ctx;
  if (!(await store.userExists(parsed.localUser))) throw new PullStop(`no user ${parsed.localUser} here (create it with: user add ${parsed.localUser})`, 1);
  let apiKey = parsed.apiKey ?? config.pullApiKey;
  if (apiKey === undefined) {
    if (ctx.inputIsTerminal) ctx.err.write(`API key of ${parsed.remoteUser} at ${parsed.from} (shown as typed), then Enter and Ctrl-D:\n`);
    apiKey = keyFromInput(await ctx.readInput());
  }
  if (!apiKey) throw new PullStop("no API key: give --api-key, set PULL_API_KEY, or write it on standard input", 1);

  const statePath = parsed.state ?? defaultStatePath(config.databaseUrl, parsed.localUser);
  let lock: ReturnType<typeof lockState>;
  try {
    lock = lockState(statePath);
  } catch (e) {
    throw new PullStop(`cannot write beside the state file ${statePath}: ${(e as Error).message}`, 1);
  }
  if ("heldBy" in lock) throw new PullStop(`another pull of ${parsed.localUser} is running (process ${lock.heldBy}; lock ${statePath}.lock)`, 1);
  const progress = new Progress(ctx.err, ctx.err.isTTY === true);
  let pull: Pull | undefined;
  try {
    pull = new Pull(store, { ...parsed, apiKey, statePath }, { progress });
    const report = await pull.execute();
    ctx.out.write(`${report.join("\n")}\n`);
    return 0;
  } catch (e) {
    if (e instanceof OtherSource) throw new PullStop(`pull refused: ${e.message}`, 1);
    // Everything written before was saved with it; the refused call itself changes nothing.
    if (e instanceof CredentialsRefused) {
      pull?.clearProgress();
      throw new PullStop(`pull stopped: ${e.message}; check --user-id and the API key`, 2);
    }
    if (e instanceof RemoteUnavailable || e instanceof RemoteAnswerError) {
      pull?.saveOnStop();
      throw new PullStop(`pull stopped: ${e.message}. What was read is saved (${statePath}); run the same command again to continue`, 3);
    }
    throw e;
  } finally {
    lock.release();
  }
}
