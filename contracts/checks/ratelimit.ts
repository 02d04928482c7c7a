// [Limits, Errors] with CONTRACTS_RATE_LIMIT=N, calls 1..N with one key are served and call N+1
// answers 429 with Retry-After. Exact only on a key nothing else used within the hour: a dedicated
// CONTRACTS_RATELIMIT_* key, or the main key when this area runs on its own.
import type { Account } from "../config.ts";
import type { Area, Check, Ctx } from "../engine.ts";
import { Budget, Client, retryAfterSeconds, type Exchange } from "../client.ts";
import { fail } from "../expect.ts";

interface Outcome { firstRefused?: number; refusal?: Exchange; lastServed?: Exchange; notServed?: Exchange }

/** The window of the documented limit [Limits]: "calls per hour". A longer Retry-After is never needed. */
const WINDOW_SECONDS = 3600;

function keyFor(ctx: Ctx): Account {
  const own = ctx.config.accounts.ratelimit;
  if (own) return own;
  const alone = ctx.config.areas.length === 1 && ctx.config.areas[0] === "ratelimit";
  if (alone && ctx.config.accounts.main) return ctx.config.accounts.main;
  return ctx.skip("needs a fresh key: set CONTRACTS_RATELIMIT_USER_ID/API_KEY, or run CONTRACTS_AREAS=ratelimit alone on an unused main key");
}

export function ratelimitArea(): Area {
  let run: Promise<Outcome> | undefined;
  const measure = (ctx: Ctx) => (run ??= (async () => {
    const account = keyFor(ctx);
    const limit = ctx.config.rateLimit!;
    // The preflight already spent calls of this key within the hour: they count toward N.
    const spent = ctx.budget.used[account.label] ?? 0;
    // Its own client: no budget stop and no waiting on 429, which is what this area wants to see.
    const client = new Client({ ...ctx.client.opts, budget: new Budget({}, limit + 1), honourRetryAfter: false });
    const out: Outcome = {};
    for (let i = spent + 1; i <= limit + 1; i++) {
      const ex = await client.call({ method: "GET", path: "/v2/batches", account, query: { limit: 1 } });
      ctx.client.log.push(ex);
      ctx.budget.count(account.label);
      if (ex.status === 429) { out.firstRefused = i; out.refusal = ex; break; }
      if (ex.status !== 200) out.notServed ??= ex;
      out.lastServed = ex;
    }
    return out;
  })());

  const checks: Check[] = [
    {
      name: "calls 1 to N of one key within the hour are served (N = CONTRACTS_RATE_LIMIT) [Limits]",
      async run(ctx) {
        const o = await measure(ctx);
        if (o.firstRefused !== undefined && o.firstRefused <= ctx.config.rateLimit!) {
          fail(`call ${o.firstRefused} of ${ctx.config.rateLimit} was refused with 429`, o.refusal);
        }
        if (o.notServed) fail(`a call within the limit answered ${o.notServed.status}, not 200`, o.notServed);
      },
    },
    {
      name: "call N+1 of one key within the hour answers 429 [Limits, Errors]",
      async run(ctx) {
        const o = await measure(ctx);
        if (o.firstRefused === undefined) fail(`call ${ctx.config.rateLimit! + 1} was served`, o.lastServed);
      },
    },
    {
      name: `the 429 carries a Retry-After header in seconds or as an HTTP date, at most the ${WINDOW_SECONDS} s window of the limit [Errors, Limits]`,
      async run(ctx) {
        const o = await measure(ctx);
        if (!o.refusal) return ctx.skip("no 429 was seen");
        const seconds = retryAfterSeconds(o.refusal);
        if (seconds === undefined) fail(`Retry-After is ${JSON.stringify(o.refusal.responseHeaders["retry-after"] ?? null)}`, o.refusal);
        if (seconds > WINDOW_SECONDS) fail(`Retry-After is ${seconds} s, longer than the hour the limit counts`, o.refusal);
      },
    },
  ];
  return { name: "ratelimit", checks: checks.map((c) => ({ ...c, needs: ["ratelimit"] })) };
}
