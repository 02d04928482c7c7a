// The kit's entry point for code: run the selected areas against a target and get the report.
import type { Config } from "./config.ts";
import { runChecks, type CheckResult, type RunReport } from "./engine.ts";
import { AREA_FACTORIES } from "./areas.ts";
import { cleanupByPrefix } from "./cleanup.ts";
import { makeData, survey } from "./fixtures.ts";

export type { Config } from "./config.ts";
export type { CheckResult, RunReport, Outcome } from "./engine.ts";
export { buildConfig, configFromEnv, mergeSettings, ConfigError, AREAS } from "./config.ts";
export { exitCode, summaryTable, junitXml, jsonReport } from "./report.ts";

/**
 * Runs every selected area on the data the kit makes; leftovers of any run are removed by prefix before
 * and after. `signal` interrupts it: the checks not begun are skipped, and what the kit changed and
 * made is still restored and deleted.
 */
export function runKit(config: Config, onResult?: (r: CheckResult) => void, signal?: AbortSignal): Promise<RunReport> {
  return runChecks(config, { areas: AREA_FACTORIES, around: cleanupByPrefix, prepare: async (ctx) => { await survey(ctx); await makeData(ctx); }, onResult, signal });
}
