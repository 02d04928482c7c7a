// Runs the selected areas' checks in order and records one outcome per check:
// pass, fail (the target does not conform), skip (with the reason) or error (the kit broke).
import { ACCOUNT_VARS, type Account, type AccountLabel, type AreaName, type Config } from "./config.ts";
import { Budget, BudgetExhausted, Client, Unreachable, type Exchange } from "./client.ts";
import { secretsOf, redact } from "./redact.ts";
import { areaShare, type Facts } from "./plan.ts";

export type Outcome = "pass" | "fail" | "skip" | "error";

/** What a check needs from the configuration; a check whose needs are unmet is skipped with the reason. */
export type Need = AccountLabel | "writes" | "creates" | "deletes" | "ratelimit" | "logging" | "webhook";

export interface Check {
  /** The rule, tersely, with the document part in brackets. */
  name: string;
  tags?: string[];
  needs?: Need[];
  run(ctx: Ctx): Promise<void>;
}

export interface Area {
  name: AreaName;
  checks: Check[];
  /** Always runs after the area's checks (restores values, deletes what the area created). */
  teardown?(ctx: Ctx): Promise<void>;
}

export interface CheckResult {
  /** The area, or "setup" for the kit's own preparation. */
  area: AreaName | "setup";
  name: string;
  tags: string[];
  outcome: Outcome;
  reason?: string;
  detail?: string;
  /** For a skip: the data whose absence caused it (see `Ctx.needData`). */
  data?: string;
  ms: number;
}

export interface RunReport {
  baseUrl: string;
  seed: number;
  runPrefix: string;
  results: CheckResult[];
  calls: Record<string, number>;
  /** Calls made while each area ran, all keys together. */
  callsByArea: Record<string, number>;
  ms: number;
  /** Whether a main key was given: without one, only the checks that need no key run. */
  mainKey: boolean;
}

export class Skip extends Error {
  /** The data that would let the check run, when data (not a setting) is what is missing. */
  constructor(message: string, readonly data?: string) { super(message); }
}

/** A configured key that does not authenticate, or a target that serves no plain read: no verdict is given. */
export class PreflightError extends Error {}
export class CheckFailure extends Error {
  constructor(message: string, readonly exchange?: Exchange) { super(message); }
}

/** Names of records the kit creates all start with this, so leftovers of any run can be found. */
export const KIT_PREFIX = "contracts-kit-";

export class Ctx {
  readonly cache = new Map<string, Promise<unknown>>();
  /** Tells expectText whether to compare bodies (false when the `text` tag is skipped). */
  readonly textChecks: boolean;
  /** Checks of the current area still to run after the current one: properties leave calls for them. */
  pending = 0;
  /** Checks run so far, to estimate the calls a check takes. */
  checksRun = 0;
  /** What the run learnt about the accounts before the areas, for the planner. */
  readonly facts: Facts = {};
  constructor(readonly config: Config, readonly client: Client, readonly runPrefix: string, readonly budget: Budget) {
    this.textChecks = !config.skipTags.includes("text");
  }
  account(label: AccountLabel): Account {
    const a = this.config.accounts[label];
    if (!a) throw new Skip(`no ${label} account configured`);
    return a;
  }
  get main(): Account { return this.account("main"); }
  skip(reason: string): never { throw new Skip(reason); }
  /** Skips for want of data the kit cannot make itself; the run ends with a list of such data. */
  needData(data: string, reason = `needs ${data}`): never { throw new Skip(reason, data); }
  /** Memoizes shared look-ups (reference lists, discovered ids) for the whole run. */
  once<T>(key: string, f: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) {
      // A failed look-up (the budget ran out, say) is tried again by the next check that needs it.
      const p = f();
      p.catch(() => this.cache.delete(key));
      this.cache.set(key, p);
    }
    return this.cache.get(key) as Promise<T>;
  }
  /** Deterministic per-check seed so one check replays the same under any area selection. */
  seedFor(name: string): number {
    let h = this.config.seed >>> 0;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
    return h & 0x7fffffff;
  }
}

export function unmetNeed(config: Config, need: Need): string | undefined {
  switch (need) {
    case "writes": return config.allowWrites ? undefined : "writes not allowed (set CONTRACTS_ALLOW_WRITES=1)";
    case "deletes": return config.allowDeletes ? undefined : "deletes not allowed (set CONTRACTS_ALLOW_DELETES=1)";
    case "creates":
      return config.allowWrites && config.allowDeletes ? undefined
        : "creating records needs CONTRACTS_ALLOW_WRITES=1 and CONTRACTS_ALLOW_DELETES=1 (everything created is deleted)";
    case "ratelimit": return config.rateLimit ? undefined : "no rate limit given (set CONTRACTS_RATE_LIMIT)";
    case "logging": return config.loggingId ? undefined : "no logging id given (set CONTRACTS_LOGGING_ID)";
    case "webhook": return config.webhookUrl ? undefined : "no webhook receiver given (set CONTRACTS_WEBHOOK_URL)";
    default: return config.accounts[need] ? undefined : `no ${need} account configured`;
  }
}

export interface RunOptions {
  areas: Record<AreaName, () => Area>;
  onResult?: (r: CheckResult) => void;
  /** Run before the first and after the last area (leftover cleanup by prefix). */
  around?: (ctx: Ctx) => Promise<void>;
  /** Run once before the first area, after the first cleanup: makes the data the checks need. */
  prepare?: (ctx: Ctx) => Promise<void>;
  /**
   * Aborted when the run is interrupted (Ctrl-C): the check under way finishes, the rest are skipped,
   * and the teardowns and the final cleanup still restore and delete what the kit changed and made.
   */
  signal?: AbortSignal;
}

/** Why a check was not run after the run was interrupted. */
export const INTERRUPTED = "the run was interrupted";

/** Main-key calls set aside for essential work at the end of areas and of the run. */
const ESSENTIAL_RESERVE = 20;

export function makeCtx(config: Config): Ctx {
  const v1Share = Math.max(1, Math.floor((config.maxCalls * 150) / 500));
  const budget = new Budget({ v1: v1Share }, config.maxCalls);
  // Restoring the scratch batch, deleting what the areas made and the last cleanup are essential
  // calls; setting them aside keeps the run within the budget instead of just past it.
  if (config.allowWrites) budget.reserve("main", Math.min(ESSENTIAL_RESERVE, Math.floor(config.maxCalls / 10)));
  const secrets = secretsOf(Object.values(config.accounts).filter((a): a is Account => !!a), config.loggingId);
  const client = new Client({ baseUrl: config.baseUrl, budget, secrets, honourRetryAfter: true, maxWaitSeconds: config.maxWaitSeconds });
  const runPrefix = `${KIT_PREFIX}${config.seed.toString(36)}-${Date.now().toString(36)}-`;
  return new Ctx(config, client, runPrefix, budget);
}

/** A read each kind of key may make: version 1 keys on /v1, every other key on /v2. */
function preflightPath(label: AccountLabel): string {
  return label === "v1" ? "/v1/recipes" : "/v2/recipes";
}

/**
 * Reachability first (throws Unreachable), then every configured key must authenticate and read:
 * a refused key stops the run before any verdict, naming the key.
 */
export async function preflight(ctx: Ctx): Promise<void> {
  await ctx.client.call({ method: "GET", path: "/v2/recipes", query: { limit: 1 }, essential: true });
  for (const account of Object.values(ctx.config.accounts)) {
    if (!account) continue;
    const ex = await ctx.client.call({ method: "GET", path: preflightPath(account.label), account, query: { limit: 1 }, essential: true });
    if (ex.status === 200) continue;
    const vars = ACCOUNT_VARS[account.label];
    const why = ex.status === 401 ? "the credentials were refused (401)"
      : ex.status === 403 ? "the key lacks the read scope (403)"
      : `a plain read answered ${ex.status}`;
    throw new PreflightError(`${vars.user}/${vars.key} (${account.label} key): ${why} on GET ${preflightPath(account.label)}?limit=1; ` +
      `check the user id and key${account.label === "v1" ? " (a version 1 key)" : ""}`);
  }
}

export async function runChecks(config: Config, opts: RunOptions, ctx = makeCtx(config)): Promise<RunReport> {
  const started = Date.now();
  const results: CheckResult[] = [];
  const callsByArea: Record<string, number> = {};
  // Calls outside the areas (preflight, cleanup, making data) are counted as "setup".
  const setup = async (f: () => Promise<void>) => {
    const before = ctx.client.log.length;
    try { await f(); } finally { callsByArea.setup = (callsByArea.setup ?? 0) + ctx.client.log.length - before; }
  };
  await setup(() => preflight(ctx));
  const areas = config.areas.map((name) => opts.areas[name]());
  try {
    if (opts.around) await setup(() => opts.around!(ctx));
    if (opts.prepare) {
      await setup(() => opts.prepare!(ctx)).catch((e) => {
        results.push(harnessError(ctx, "setup", "the kit makes the records its checks need", e, opts));
      });
    }
    for (const [i, area] of areas.entries()) {
      if (opts.signal?.aborted) {
        results.push(...area.checks.map((c): CheckResult => ({ area: area.name, name: c.name, tags: c.tags ?? [], outcome: "skip", reason: INTERRUPTED, ms: 0 })));
        continue;
      }
      const before = ctx.client.log.length;
      const toCome = areas.slice(i).map((a) => a.name);
      ctx.budget.shareFor(area.name, areaShare(ctx.budget.remainingOverall("main"), area.name, toCome, ctx.facts));
      results.push(...await runArea(ctx, area, opts));
      callsByArea[area.name] = ctx.client.log.length - before;
    }
  } finally {
    ctx.budget.shareFor(undefined);
    if (opts.around) await setup(() => opts.around!(ctx)).catch(() => {});
  }
  return { baseUrl: config.baseUrl, seed: config.seed, runPrefix: ctx.runPrefix, results, calls: { ...ctx.budget.used }, callsByArea, ms: Date.now() - started, mainKey: config.accounts.main !== undefined };
}

/**
 * One area's checks, then its teardown. Properties and the small fixed cases run first, so a tight
 * share shrinks samples and skips plain checks rather than them; results keep the declared order.
 */
async function runArea(ctx: Ctx, area: Area, opts: RunOptions): Promise<CheckResult[]> {
  ctx.pending = area.checks.length;
  const order = area.checks.map((check, index) => ({ check, index })).sort((a, b) => rank(a.check) - rank(b.check));
  const done: { index: number; result: CheckResult }[] = [];
  for (const { check, index } of order) {
    ctx.pending--;
    const result = opts.signal?.aborted
      ? { area: area.name, name: check.name, tags: check.tags ?? [], outcome: "skip" as const, reason: INTERRUPTED, ms: 0 }
      : await runOne(ctx, area.name, check);
    opts.onResult?.(result);
    done.push({ index, result });
    ctx.checksRun++;
  }
  const results = done.sort((a, b) => a.index - b.index).map((d) => d.result);
  if (area.teardown) {
    try { await area.teardown(ctx); } catch (e) {
      results.push(harnessError(ctx, area.name, `teardown of ${area.name} restores and deletes what it changed`, e, opts));
    }
  }
  return results;
}

/** An error of the kit itself (not a verdict on the target), announced as it happens. */
function harnessError(ctx: Ctx, area: CheckResult["area"], name: string, e: unknown, opts: RunOptions): CheckResult {
  const r: CheckResult = { area, name, tags: [], outcome: "error", reason: (e as Error)?.message, detail: redact(errorText(e), ctx.client.opts.secrets), ms: 0 };
  opts.onResult?.(r);
  return r;
}

/** Properties, sampled checks and checks tagged `always` first (0), the rest after (1). */
function rank(check: Check): number {
  return check.tags?.some((t) => t === "property" || t === "sampled" || t === "always") ? 0 : 1;
}

async function runOne(ctx: Ctx, area: AreaName, check: Check): Promise<CheckResult> {
  const r = await judge(ctx, area, check);
  r.detail = r.detail && redact(r.detail, ctx.client.opts.secrets);
  r.reason = r.reason && redact(r.reason, ctx.client.opts.secrets);
  return r;
}

async function judge(ctx: Ctx, area: AreaName, check: Check): Promise<CheckResult> {
  const tags = check.tags ?? [];
  const statusOnly = tags.includes("text") && !ctx.textChecks;
  const name = statusOnly ? `${check.name} (status only: text skipped)` : check.name;
  const base = { area, name, tags };
  const skippedTag = tags.find((t) => t !== "text" && ctx.config.skipTags.includes(t));
  if (skippedTag) return { ...base, outcome: "skip", reason: `tag ${skippedTag} skipped`, ms: 0 };
  for (const need of check.needs ?? []) {
    const why = unmetNeed(ctx.config, need);
    if (why) return { ...base, outcome: "skip", reason: why, ms: 0 };
  }
  const t0 = Date.now();
  try {
    await check.run(ctx);
    return { ...base, outcome: "pass", ms: Date.now() - t0 };
  } catch (e) {
    const ms = Date.now() - t0;
    if (e instanceof Skip) return { ...base, outcome: "skip", reason: e.message, data: e.data, ms };
    if (e instanceof BudgetExhausted) return { ...base, outcome: "skip", reason: e.message, ms };
    if (e instanceof CheckFailure) {
      const detail = e.exchange ? `${e.message}\n${ctx.client.describe(e.exchange)}` : e.message;
      return { ...base, outcome: "fail", reason: e.message.split("\n")[0], detail, ms };
    }
    return { ...base, outcome: "error", reason: (e as Error)?.message ?? String(e), detail: errorText(e), ms };
  }
}

function errorText(e: unknown): string {
  if (e instanceof Unreachable) return `target unreachable: ${e.message}`;
  return (e as Error)?.stack ?? String(e);
}
