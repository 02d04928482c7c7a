// HTTP only, through fetch. Every call is counted against a per-key budget and recorded as an
// Exchange so a failing check can show exactly what was sent and received.
import type { Account } from "./config.ts";
import { basicCredential, curlLine, redact, type Secret } from "./redact.ts";

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  body: string;
}

/** `account` sends proper Basic credentials; `header` sends a raw Authorization value; neither sends none. */
export interface Request {
  method: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  account?: Account;
  header?: string;
  /** A value is sent as JSON; `raw` is sent as is (with the JSON content type unless `contentType` says otherwise). */
  json?: unknown;
  raw?: string;
  contentType?: string | null;
  /** Restoring and deleting what the kit changed: counted, but never stopped by the budget. */
  essential?: boolean;
}

export class BudgetExhausted extends Error {
  constructor(bucket: string, max: number, why?: string) { super(why ?? `call budget reached (${max} calls with the ${bucket} key)`); }
}

/** A 429 whose Retry-After is longer than the kit may wait: the rest is skipped, as with the budget. */
export class RateLimited extends BudgetExhausted {
  constructor(readonly seconds: number | undefined, max: number) {
    super("", 0);
    this.message = seconds === undefined
      ? "rate limited: 429 without a readable Retry-After"
      : `rate limited: Retry-After ${seconds} s is longer than CONTRACTS_MAX_WAIT_SECONDS=${max}`;
  }
}

/** Raised when the target cannot be reached at all: a harness problem, not a conformance failure. */
export class Unreachable extends Error {}

export class Budget {
  readonly used: Record<string, number> = {};
  /** Calls set aside for essential work still to come (deleting what the kit made). */
  readonly reserved: Record<string, number> = {};
  constructor(readonly max: Record<string, number>, readonly fallback: number) {}
  /** The current area's share of the main key's budget (plan.ts): the count of main calls it may reach. */
  private cap?: { area: string; until: number };
  limit(bucket: string): number { return this.max[bucket] ?? this.fallback; }
  /** Calls left for checks: within the key's budget, less what is reserved, and within the area's share. */
  remaining(bucket: string): number {
    const left = this.limit(bucket) - (this.used[bucket] ?? 0) - (this.reserved[bucket] ?? 0);
    return bucket === "main" && this.cap ? Math.min(left, this.cap.until - (this.used.main ?? 0)) : left;
  }
  /** Left for the key as a whole, whatever the area's share. */
  remainingOverall(bucket: string): number { return this.limit(bucket) - (this.used[bucket] ?? 0) - (this.reserved[bucket] ?? 0); }
  reserve(bucket: string, n: number): void { this.reserved[bucket] = (this.reserved[bucket] ?? 0) + n; }
  shareFor(area: string | undefined, calls = 0): void {
    this.cap = area === undefined ? undefined : { area, until: (this.used.main ?? 0) + calls };
  }
  take(bucket: string, essential = false): void {
    if (!essential && this.remaining(bucket) <= 0) {
      if (this.remainingOverall(bucket) > 0 && this.cap) throw new BudgetExhausted("main", 0, `the ${this.cap.area} area's share of the main key's call budget reached`);
      throw new BudgetExhausted(bucket, this.limit(bucket));
    }
    this.used[bucket] = (this.used[bucket] ?? 0) + 1;
  }
  /** Counts a call made by another client (the rate-limit area's own). */
  count(bucket: string): void { this.used[bucket] = (this.used[bucket] ?? 0) + 1; }
}

export interface ClientOptions {
  baseUrl: string;
  budget: Budget;
  secrets: Secret[];
  /** Wait out 429 + Retry-After and retry; off in the rate-limit area, which wants to see the 429. */
  honourRetryAfter: boolean;
  maxWaitSeconds: number;
  timeoutMs?: number;
}

export function buildUrl(baseUrl: string, path: string, query?: Request["query"]): string {
  const qs = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
  return baseUrl + path + (qs ? `?${qs}` : "");
}

export class Client {
  readonly log: Exchange[] = [];
  constructor(readonly opts: ClientOptions) {}

  async call(req: Request): Promise<Exchange> {
    const bucket = req.account?.label ?? "anonymous";
    const url = buildUrl(this.opts.baseUrl, req.path, req.query);
    const headers: Record<string, string> = {};
    if (req.account) headers.Authorization = `Basic ${basicCredential(req.account.userId, req.account.apiKey)}`;
    else if (req.header !== undefined) headers.Authorization = req.header;
    let body: string | undefined;
    if (req.json !== undefined) body = JSON.stringify(req.json);
    else if (req.raw !== undefined) body = req.raw;
    const hasBody = req.json !== undefined || req.raw !== undefined || ["POST", "PATCH"].includes(req.method);
    if (hasBody && req.contentType !== null) headers["Content-Type"] = req.contentType ?? "application/json";

    for (;;) {
      this.opts.budget.take(bucket, req.essential);
      const ex = await this.send(req.method, url, headers, body);
      this.log.push(ex);
      if (ex.status !== 429 || !this.opts.honourRetryAfter) return ex;
      const wait = retryAfterSeconds(ex);
      // Without a usable Retry-After the 429 itself is the answer, and the check judges it.
      if (wait === undefined) return ex;
      if (wait > this.opts.maxWaitSeconds) throw new RateLimited(wait, this.opts.maxWaitSeconds);
      await Bun.sleep(wait * 1000);
    }
  }

  private async send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Exchange> {
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000) });
    } catch (e) {
      throw new Unreachable(`${method} ${url}: ${(e as Error).message}`);
    }
    const responseHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => { responseHeaders[k] = v; });
    return { method, url, requestHeaders: headers, requestBody: body, status: res.status, responseHeaders, body: await res.text() };
  }

  curl(ex: Exchange): string {
    return curlLine({ method: ex.method, url: ex.url, headers: ex.requestHeaders, body: ex.requestBody }, this.opts.secrets);
  }

  /** Method, URL, status, body (shortened) and a curl line, all redacted. */
  describe(ex: Exchange): string {
    const body = ex.body.length > 1500 ? ex.body.slice(0, 1500) + `… (${ex.body.length} chars)` : ex.body;
    const sent = ex.requestBody !== undefined ? `\n  sent:   ${ex.requestBody.slice(0, 500)}` : "";
    return redact(`  ${ex.method} ${ex.url}${sent}\n  status: ${ex.status}\n  body:   ${body}\n  repro:  ${this.curl(ex)}`, this.opts.secrets);
  }
}

/** Retry-After in seconds: a whole number, or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterSeconds(ex: Exchange): number | undefined {
  const v = ex.responseHeaders["retry-after"];
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export function parseJson(ex: Exchange): { ok: true; value: unknown } | { ok: false } {
  try { return { ok: true, value: JSON.parse(ex.body) }; } catch { return { ok: false }; }
}
