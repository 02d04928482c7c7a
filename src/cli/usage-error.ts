/** A command line the program refuses: its message is printed and the process exits with `exitCode`. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/**
 * Refuses what a command does not take: options other than `values` (each followed by its value) and
 * `flags`, and more than `positional` plain arguments. A mistyped option is an error, never ignored:
 * `key generate --api-verison 1` would otherwise make a version 2 key with every scope.
 */
export function onlyArguments(command: string, args: readonly string[], spec: { positional: number; values?: readonly string[]; flags?: readonly string[] }, usage?: string): void {
  const extra: string[] = [];
  let plain = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (spec.values?.includes(a)) i++;
    else if (spec.flags?.includes(a)) continue;
    else if (a.startsWith("--") || ++plain > spec.positional) extra.push(a);
  }
  if (extra.length) throw new UsageError(`unknown option(s) or argument(s) for ${command}: ${extra.join(" ")}${usage ? `\n${usage}` : ""}`);
}
