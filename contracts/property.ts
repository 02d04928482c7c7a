// fast-check properties against a live target: run counts shrink to fit the call budget, the seed is
// printed, and a counterexample is shown as the curl line of its failing request.
import fc from "fast-check";
import { BudgetExhausted } from "./client.ts";
import { CheckFailure, Skip, type Ctx } from "./engine.ts";
import { show } from "./expect.ts";

export interface PropertyOptions {
  /** Calls one run makes with the main key (or `bucket`). */
  costPerRun: number;
  maxRuns?: number;
  /** Share of the remaining budget this property may spend. */
  share?: number;
  bucket?: string;
}

/**
 * The calls a property or sampled check may spend: its share of the key's budget, less what the
 * checks still to run are expected to need (`perCheck`, by default the calls per check so far,
 * times the checks left).
 */
export function allowance(ctx: Ctx, bucket: string, share: number, perCheck = Math.max(1.5, (ctx.budget.used[bucket] ?? 0) / Math.max(1, ctx.checksRun))): number {
  const reserve = Math.ceil(ctx.pending * perCheck);
  return Math.min(Math.floor(ctx.budget.limit(bucket) * share), ctx.budget.remaining(bucket) - reserve);
}

/** The call budget planner for properties: always at least one run; a small budget shrinks the sample, it never skips the property. */
export function plannedRuns(ctx: Ctx, bucket: string, opts: PropertyOptions): number {
  const spend = allowance(ctx, bucket, opts.share ?? 0.05);
  // Shrinking re-runs the property, so a third of the allowance is kept for it.
  return Math.max(1, Math.min(opts.maxRuns ?? 25, Math.floor((spend * 2) / 3 / opts.costPerRun)));
}

/**
 * A deterministic sample of `cases` that fits `allowance` (one call a case), at least one: every
 * case when the budget allows, else every (n/k)-th case of the table from an offset the seed picks,
 * so a small sample still spreads over the table and another seed tries other cases.
 */
export function sampleCases<T>(cases: T[], calls: number, seed: number): T[] {
  const k = Math.max(1, Math.min(cases.length, Math.floor(calls)));
  if (k >= cases.length) return cases;
  const stride = cases.length / k;
  const offset = seed % Math.ceil(stride);
  return Array.from({ length: k }, (_, i) => cases[Math.floor(offset + i * stride) % cases.length]!);
}

export async function property<T>(
  ctx: Ctx, checkName: string, arb: fc.Arbitrary<T>, run: (value: T) => Promise<void>, opts: PropertyOptions,
): Promise<void> {
  const bucket = opts.bucket ?? "main";
  const numRuns = plannedRuns(ctx, bucket, opts);
  const spend = numRuns * opts.costPerRun * 1.5;
  const seed = ctx.seedFor(checkName);
  let exhausted: string | undefined;
  let lastFailure: CheckFailure | undefined;
  const start = ctx.client.log.length;
  const prop = fc.asyncProperty(arb, async (value) => {
    if (exhausted) return;
    // Shrinking stops once the allowance is spent: the last failing value is the one reported.
    if (lastFailure && ctx.client.log.length - start > spend) return;
    try {
      await run(value);
    } catch (e) {
      // Running out of calls is not a counterexample: stop quietly and report a skip.
      if (e instanceof BudgetExhausted) { exhausted = e.message; return; }
      if (e instanceof CheckFailure) lastFailure = e;
      throw e;
    }
  });
  const details = await fc.check(prop, { seed, numRuns, endOnFailure: false, interruptAfterTimeLimit: 60_000 });
  if (details.failed) {
    const ce = details.counterexample ? show(details.counterexample[0]) : "(none)";
    const head = `property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s); ` +
      `seed ${seed} (CONTRACTS_SEED=${ctx.config.seed}), path ${details.counterexamplePath}\n` +
      `  counterexample: ${ce}`;
    if (lastFailure) throw new CheckFailure(`${head}\n  ${lastFailure.message}`, lastFailure.exchange);
    throw new Error(`${head}\n  ${String(details.errorInstance)}`);
  }
  if (exhausted) throw new Skip(exhausted);
}
