import type { Config } from "../config.ts";
import type { Store } from "../store/types.ts";

/** Operations commands (export, backup); undefined when `args` is not one of them. */
export async function runOpsCommand(args: string[], store: Store, config: Config): Promise<number | undefined> {
  void args;
  void store;
  void config;
  return undefined;
}
