// The options both benchmarks take: --rounds N (3), --seconds S per side and comparison (5),
// --connections C (32), --only ID,ID (every comparison).

export interface RunSettings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  only: string[] | undefined;
}

export function runSettings(args: string[]): RunSettings {
  const opt = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i === -1 ? fallback : Number(args[i + 1]);
  };
  return {
    rounds: opt("--rounds", 3),
    seconds: opt("--seconds", 5),
    warmupSeconds: 1,
    connections: opt("--connections", 32),
    only: args.includes("--only") ? (args[args.indexOf("--only") + 1] ?? "").split(",") : undefined,
  };
}
