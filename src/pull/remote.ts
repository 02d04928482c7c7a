import { assumedBudget, backoffMs, budgetFromHeaders, delayBeforeCall, retryAfterMs, type Budget } from "./pace.ts";

// The remote service, read through its own API: one GET at a time, paced to its rate limit, a 429 waited
// out, network failures and 5xx answers retried with backoff a bounded number of times.

/** The remote refused the credentials (401): nothing more can be read. */
export class CredentialsRefused extends Error {}

/** The remote could not be reached, or kept failing, after the retries. */
export class RemoteUnavailable extends Error {}

export interface Answer {
  status: number;
  text: string;
}

export interface RemoteOptions {
  baseUrl: string;
  userId: string;
  apiKey: string;
  /** Retries after a network failure or a 5xx answer, before giving up. */
  retries: number;
  /** Calls still to make, for pacing. */
  callsNeeded: () => number;
  /** Told before every wait of a second or more, with its reason; `paced` for a wait of pacing alone. */
  onWait?: (ms: number, why: string, paced: boolean) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  timeoutMs?: number;
}

/** 429s in a row before giving up: a remote that never lets a call through is down for this purpose. */
const MAX_429_IN_A_ROW = 20;

export class Remote {
  calls = 0;
  budget: Budget | undefined;
  /** Sum of call durations, for estimates. */
  private busyMs = 0;
  private readonly authorization: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /** With no rate headers: the documented budget over a window from this run's first call. */
  private ownWindow: { start: number; calls: number } | undefined;
  private headersSeen = false;

  constructor(private readonly options: RemoteOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.userId}:${options.apiKey}`).toString("base64")}`;
    this.sleep = options.sleep ?? Bun.sleep;
    this.now = options.now ?? Date.now;
  }

  /** Average duration of a call so far (a second before the first). */
  get msPerCall(): number {
    return this.calls ? this.busyMs / this.calls : 1000;
  }

  private async wait(ms: number, why: string, paced = false): Promise<void> {
    if (ms <= 0) return;
    if (ms >= 1000) this.options.onWait?.(ms, why, paced);
    await this.sleep(ms);
  }

  /** GET a path under the base URL. Any status but 401, 429 and 5xx is the caller's to read. */
  async get(path: string): Promise<Answer> {
    let failures = 0;
    let refusals = 0;
    for (;;) {
      await this.wait(delayBeforeCall(this.budget, this.options.callsNeeded(), this.now()), "pacing to the rate limit", true);
      const started = this.now();
      let res: Response;
      try {
        res = await fetch(this.options.baseUrl + path, {
          headers: { authorization: this.authorization, accept: "application/json" },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
          redirect: "error",
        });
      } catch (e) {
        failures++;
        const why = (e as Error).message || String(e);
        if (failures > this.options.retries) throw new RemoteUnavailable(`${path}: ${why} (after ${failures} attempts)`);
        await this.wait(backoffMs(failures), `network failure (${why}), attempt ${failures + 1} of ${this.options.retries + 1}`);
        continue;
      }
      const text = await res.text().catch(() => "");
      this.count(res.headers, started);
      if (res.status === 401) throw new CredentialsRefused(`the remote refused user id ${this.options.userId} with this API key (401 ${text.trim() || "Unauthorized"})`);
      if (res.status === 429) {
        refusals++;
        if (refusals > MAX_429_IN_A_ROW) throw new RemoteUnavailable(`${path}: still 429 after ${MAX_429_IN_A_ROW} waits`);
        await this.wait(retryAfterMs(res.headers.get("retry-after"), this.budget, this.now()), "429 Too Many Requests: waiting for Retry-After");
        // Retry-After may come before the reset the budget named: the next answer says what holds now.
        if (this.headersSeen) this.budget = undefined;
        continue;
      }
      if (res.status >= 500) {
        failures++;
        if (failures > this.options.retries) throw new RemoteUnavailable(`${path}: ${res.status} ${text.trim().slice(0, 200)} (after ${failures} attempts)`);
        await this.wait(backoffMs(failures), `${res.status} from the remote, attempt ${failures + 1} of ${this.options.retries + 1}`);
        continue;
      }
      return { status: res.status, text };
    }
  }

  /** Counts an answered call and updates the budget from its headers (or, lacking any, from the count). */
  private count(headers: Headers, started: number): void {
    const now = this.now();
    this.calls++;
    this.busyMs += now - started;
    const stated = budgetFromHeaders(headers, now);
    if (stated) {
      this.headersSeen = true;
      this.budget = stated;
      return;
    }
    if (this.headersSeen) return;
    if (!this.ownWindow || now >= this.ownWindow.start + assumedBudget(0, 0).windowMs) this.ownWindow = { start: started, calls: 0 };
    this.ownWindow.calls++;
    this.budget = assumedBudget(this.ownWindow.calls, this.ownWindow.start);
  }
}
