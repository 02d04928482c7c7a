#!/usr/bin/env bun
// Runner: bun contracts/run.ts --base-url … [--user-id … --api-key … --areas … --seed … --max-calls …
// --junit out.xml --json out.json --config file.json]. Flags win over CONTRACTS_* variables, which
// win over the config file. Exit 0 all passed, 1 a check failed, 2 configuration or harness error.
import { buildConfig, ConfigError, flagToSetting, mergeSettings, readConfigFile, SETTINGS, type Settings } from "./config.ts";
import { exitCode, jsonReport, junitXml, runKit, summaryTable } from "./kit.ts";
import { Unreachable } from "./client.ts";
import { PreflightError } from "./engine.ts";

const USAGE = `usage: bun contracts/run.ts --base-url URL [--user-id ID --api-key KEY] [--areas a,b] [--seed N]
  [--max-calls N] [--allow-writes] [--allow-deletes] [--skip-tags text] [--junit FILE] [--json FILE] [--config FILE]
Every CONTRACTS_* variable has a flag of the same name (CONTRACTS_OTHER_API_KEY -> --other-api-key).`;

function parseArgs(argv: string[]): { settings: Settings; junit?: string; json?: string; config?: string } {
  const settings: Settings = {};
  const out: { settings: Settings; junit?: string; json?: string; config?: string } = { settings };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") { console.log(USAGE); process.exit(0); }
    if (!arg.startsWith("--")) throw new ConfigError(`unexpected argument ${arg}\n${USAGE}`);
    const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const isSwitch = flag === "--allow-writes" || flag === "--allow-deletes" || flag === "--extensions";
    const value = inline ?? (isSwitch ? "1" : argv[++i]);
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    if (flag === "--junit" || flag === "--json" || flag === "--config") { out[flag.slice(2) as "junit"] = value; continue; }
    const name = flagToSetting(flag);
    if (!(SETTINGS as readonly string[]).includes(name)) throw new ConfigError(`unknown flag ${flag}\n${USAGE}`);
    settings[name] = value;
  }
  return out;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const file = args.config ?? process.env.CONTRACTS_CONFIG;
  const settings = mergeSettings(file ? await readConfigFile(file) : {}, process.env, args.settings);
  const config = buildConfig(settings, Date.now() % 2 ** 31);
  console.log(`contracts: ${config.baseUrl} · areas ${config.areas.join(",")} · seed ${config.seed} · budget ${config.maxCalls} calls per key`);
  const mark = { pass: "ok  ", fail: "FAIL", skip: "skip", error: "ERR " } as const;
  // Ctrl-C (or SIGTERM): finish the check under way, then restore and delete what the kit changed and
  // made on the target; a second one stops at once.
  const interrupt = new AbortController();
  const onSignal = () => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort();
    console.error("interrupted: finishing the check under way, then restoring and deleting what the kit changed and made (again to stop at once, leaving it)");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const report = await runKit(config, (r) => {
    console.log(`${mark[r.outcome]} [${r.area}] ${r.name}${r.outcome === "skip" ? ` (${r.reason})` : ""}`);
    if (r.outcome === "fail" || r.outcome === "error") console.log(r.detail?.replace(/^/gm, "       "));
  }, interrupt.signal);
  console.log("\n" + summaryTable(report));
  if (args.junit) await Bun.write(args.junit, junitXml(report));
  if (args.json) await Bun.write(args.json, jsonReport(report));
  if (interrupt.signal.aborted) {
    const stuck = report.results.some((r) => r.outcome === "error");
    console.error(stuck ? "interrupted: see the errors above for what could not be restored or deleted" : "interrupted: what the kit changed is restored and what it made is deleted");
    return 130;
  }
  return exitCode(report);
}

try {
  process.exitCode = await main();
} catch (e) {
  if (e instanceof ConfigError) console.error(`configuration error: ${e.message}`);
  else if (e instanceof Unreachable) console.error(`target unreachable: ${e.message}`);
  else if (e instanceof PreflightError) console.error(`key refused, no checks run: ${e.message}`);
  else console.error(`harness error: ${(e as Error)?.stack ?? e}`);
  process.exitCode = 2;
}
