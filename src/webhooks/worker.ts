import type { Config } from "../config.ts";
import { settledWithin } from "../lib/awaitable.ts";
import type { DeliveryOutcome, DueDelivery, Store, WebhookAttempt } from "../store/types.ts";
import { destinationRefusal, dnsResolver, type Resolver } from "./destination.ts";
import { eventsOf } from "./events.ts";
import { afterFailure, busy, caughtUp, late, runsOf } from "./schedule.ts";
import { sealingKey, unseal } from "./secret.ts";
import { signedHeaders } from "./signing.ts";

// The delivery worker: one per server process. Writes only record events (the outbox, in their own
// transaction); this delivers them after commit, so a write never waits for a receiver. It claims due
// deliveries in rounds (Store.deliverDue), attempts them at once, and records each outcome. A round
// still under way after RUN_MS (a receiver slow to answer, or not answering until its time limit) goes
// on alone while the next rounds claim what it does not hold, up to the store's deliveryRoundsAtOnce;
// they leave alone every subscription with an attempt still under way, so a silent receiver holds one
// round, not all of them, and holds up no other subscription's deliveries.
//
// Deliveries give way to requests: while requests keep arriving at a busy rate (`busy`), the worker
// makes no round at all, and only reads, every POLL_MS, since when the outbox has held something; a
// burst of writes is answered at nearly the speed it would be without subscriptions, and its events
// are delivered as the burst eases. Once something has waited MAX_LAG_MS, rounds follow each other
// whatever the load until the events they claim are recent (POLL_MS) again: under a load that does not
// ease, deliveries lag by about that much rather than without bound (docs/decisions.md). A client
// polling now and then does not count as a load.

/** Deliveries claimed per round. */
const ROUND = 32;
/** How often the outbox is looked at when nothing nudges the worker (writes of another process, retries) or while the process is busy. */
const POLL_MS = 250;
/** How long a new event may wait before the worker stops giving way to requests. */
export const MAX_LAG_MS = 5000;
/** How long a round goes on delivering a resource's events one after another, and how long the worker waits for a round before it begins the next beside it. */
const RUN_MS = 1000;
/** Unsealed secrets held at most (MAX_WEBHOOKS per account). */
const SECRETS_HELD = 1000;
/** Characters of a refusing receiver's body kept with the attempt. */
const EXCERPT = 200;

export type WebhookSettings = Pick<Config, "webhookAllowHosts" | "webhookRetryBaseMs" | "webhookMaxAttempts" | "webhookTimeoutMs">;

type Log = (level: "warn" | "error", message: string, fields?: Record<string, unknown>) => void;

/** What a round claimed: how many deliveries, and when the oldest never tried among them was recorded. */
interface RoundResult {
  claimed: number;
  oldestNewAt: number | undefined;
}

/**
 * What the outbox tells after writes that made events: `nudge`, once the write has committed, while
 * `waiting()`; a worker giving way to requests is not waiting, and looks at the outbox when it is done.
 */
export interface OutboxListener {
  nudge(): void;
  waiting(): boolean;
}

/** Makes the store record each write's events (the outbox), and tells `listener` of them. */
export function installOutbox(store: Store, listener?: OutboxListener): void {
  let told = false;
  const tell = () => {
    told = false;
    listener!.nudge();
  };
  store.setOutbox((userId, change, wanted) => {
    const events = eventsOf(userId, change, wanted);
    // After the write's commit, not before: a timer runs once the transaction has returned. One timer
    // for all the writes before it runs, and none while the worker gives way to requests, when a
    // nudge would change nothing: under a load of writes, no group of them makes one.
    if (events.length && listener && !told && listener.waiting()) {
      told = true;
      setTimeout(tell, 0);
    }
    return events;
  });
}

/** A receiver's body, at most EXCERPT characters of it; the rest is not read. */
async function excerptOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  let text = "";
  const decoder = new TextDecoder();
  try {
    while (text.length < EXCERPT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  return text.slice(0, EXCERPT);
}

export class DeliveryWorker implements OutboxListener {
  private stopped = false;
  private running: Promise<void> | undefined;
  /** The rounds under way. */
  private readonly rounds = new Set<Promise<RoundResult>>();
  /** Attempts under way, by subscription: a round claims nothing of these. */
  private readonly attempting = new Map<string, number>();
  private wake: (() => void) | undefined;
  private nudged = false;
  /** Waiting out a pause made for requests: a nudge does not end it. */
  private yielding = false;
  /** The count of requests begun when the worker last looked, and when that was. */
  private requestsSeen = 0;
  private seenAt = performance.now();
  /** Secrets unsealed, by the sealed text they came from (held in memory only). */
  private readonly secrets = new Map<string, string>();
  /** The earliest retry this process scheduled and has not yet looked for. */
  private nextRetryAt = Infinity;
  /** A round failed (the database unreachable, say): logged once, and once more when rounds work again. */
  private roundsFailing = false;

  constructor(
    private readonly store: Store,
    private readonly settings: WebhookSettings,
    private readonly log: Log = () => {},
    private readonly resolve: Resolver = dnsResolver,
    /** Requests this process has begun to answer, ever: how fast it rises between two looks tells whether the process is busy. */
    private readonly requestsBegun: () => number = () => 0,
  ) {}

  start(): this {
    installOutbox(this.store, this);
    this.running ??= this.loop();
    return this;
  }

  /** Looks at the outbox now rather than at the next poll. */
  nudge(): void {
    this.nudged = true;
    if (!this.yielding) this.wake?.();
  }

  /** Whether a nudge would make the worker look now: not while it gives way to requests. */
  waiting(): boolean {
    return !this.yielding;
  }

  /** Whether requests arrived since the last look at a busy rate (`busy`). */
  private serving(): boolean {
    const begun = this.requestsBegun();
    const now = performance.now();
    const serving = busy(begun - this.requestsSeen, now - this.seenAt);
    this.requestsSeen = begun;
    this.seenAt = now;
    return serving;
  }

  /** Finishes the rounds under way (their outcomes are recorded) and stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    // Rounds follow each other while late events are caught up with, whatever the load.
    let catchingUp = false;
    while (!this.stopped) {
      // Busy: no round at all, so nothing is moved, delivered or deleted beside the requests, until
      // what waits is late; then rounds follow each other until the events they claim are recent.
      if (!catchingUp && this.serving()) {
        if (!(await this.waitedTooLong())) {
          this.yielding = true;
          await this.sleep(POLL_MS);
          this.yielding = false;
          continue;
        }
        catchingUp = true;
      }
      this.nudged = false;
      const finished = await settledWithin(this.round(), RUN_MS);
      if (finished === undefined) {
        // Slow receivers: that round goes on alone, holding what it claimed; the next claims the rest.
        if (this.rounds.size >= this.store.deliveryRoundsAtOnce) await Promise.race(this.rounds);
        continue;
      }
      const { claimed, oldestNewAt } = finished;
      if (catchingUp) catchingUp = !caughtUp(oldestNewAt, Date.now(), POLL_MS);
      // A round that delivered something may have made the next event of a resource due: look again at once.
      if (claimed === 0 && !this.nudged && !this.stopped) {
        const wait = Math.min(POLL_MS, Math.max(0, this.nextRetryAt - Date.now()));
        if (this.nextRetryAt <= Date.now() + POLL_MS) this.nextRetryAt = Infinity;
        await this.sleep(wait);
      }
    }
    await Promise.all(this.rounds);
  }

  /** Whether the outbox has held something for longer than MAX_LAG_MS; when it cannot be read, a round finds out why (and logs it). */
  private async waitedTooLong(): Promise<boolean> {
    try {
      return late(await this.store.deliveriesWaitingSince(), Date.now(), MAX_LAG_MS);
    } catch {
      return true;
    }
  }

  /** A round begun, counted among those under way until it ends. */
  private round(): Promise<RoundResult> {
    const round = this.deliverRound().finally(() => this.rounds.delete(round));
    this.rounds.add(round);
    return round;
  }

  /** One round: what is due claimed, attempted and settled. Answers how many were claimed, and when the oldest new one of them was recorded. */
  private async deliverRound(): Promise<RoundResult> {
    let claimed = 0;
    let oldestNewAt: number | undefined;
    try {
      claimed = await this.store.deliverDue(Date.now(), ROUND, async (due) => {
        // Due rows come in outbox order: the first never tried is the oldest new event.
        oldestNewAt = due.find((d) => d.attempts === 0)?.createdAt;
        const outcomes = (await Promise.all(runsOf(due).map((run) => this.attemptInOrder(run)))).flat().sort((a, b) => a.seq - b.seq);
        for (const o of outcomes) if (o.retryAt !== undefined) this.nextRetryAt = Math.min(this.nextRetryAt, o.retryAt);
        return outcomes;
      }, new Set(this.attempting.keys()));
      if (this.roundsFailing) this.log("warn", "webhook deliveries resumed");
      this.roundsFailing = false;
    } catch (error) {
      if (!this.roundsFailing) this.log("warn", "webhook delivery round failed", { error: String(error) });
      this.roundsFailing = true;
    }
    return { claimed, oldestNewAt };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** A sealed signing secret of a subscription, unsealed once for the rounds that follow. */
  private async unsealed(webhookId: string, sealed: string): Promise<string> {
    const known = this.secrets.get(sealed);
    if (known !== undefined) return known;
    const secret = await unseal(await sealingKey(this.store), sealed, webhookId);
    // Subscriptions since deleted or rotated leave theirs here: the map is emptied now and then rather than kept in step.
    if (this.secrets.size >= SECRETS_HELD) this.secrets.clear();
    this.secrets.set(sealed, secret);
    return secret;
  }

  /** The secrets a delivery at `at` is signed with: the subscription's, and its previous one while that still signs. */
  private async secretsOf(d: DueDelivery, at: number): Promise<string[]> {
    const current = await this.unsealed(d.webhookId, d.sealedSecret);
    if (d.previousSealedSecret === undefined || !(at < d.previousUntil!)) return [current];
    return [current, await this.unsealed(d.webhookId, d.previousSealedSecret)];
  }

  /**
   * A resource's events one after another, in their order, until one is not delivered or the round has
   * taken RUN_MS: the rest stay as they were, unattempted, for a later round. A slow receiver's run so
   * ends its round (and what the round holds) after about that much, not after a run of slow answers.
   */
  private async attemptInOrder(run: DueDelivery[]): Promise<DeliveryOutcome[]> {
    const started = performance.now();
    const outcomes: DeliveryOutcome[] = [];
    for (const d of run) {
      const o = await this.attempt(d);
      outcomes.push(o);
      if (o.result !== "delivered" || performance.now() - started >= RUN_MS) break;
    }
    return outcomes;
  }

  /** One attempt at one event; never throws. */
  async attempt(d: DueDelivery): Promise<DeliveryOutcome> {
    const { webhookAllowHosts, webhookRetryBaseMs, webhookMaxAttempts, webhookTimeoutMs } = this.settings;
    const at = Date.now();
    const started = performance.now();
    const outcome = (status: number | null, detail: string | null): DeliveryOutcome => {
      const attempt: WebhookAttempt = { webhookId: d.webhookId, eventId: d.eventId, type: d.type, at, status, durationMs: Math.round(performance.now() - started), detail };
      if (status !== null && status >= 200 && status < 300) return { seq: d.seq, attempt, result: "delivered" };
      return { seq: d.seq, attempt, ...afterFailure(d.attempts + 1, at, webhookRetryBaseMs, webhookMaxAttempts) };
    };
    // The attempt's time limit, ended with it: AbortSignal.timeout keeps its timer, and what the
    // request holds, until the limit has passed, 10 s after an answer that took milliseconds; a round
    // of catching up left thousands of them behind for the requests that came next to work beside.
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), webhookTimeoutMs);
    this.attempting.set(d.webhookId, (this.attempting.get(d.webhookId) ?? 0) + 1);
    try {
      // Checked again at each delivery: a name may resolve elsewhere than when it was subscribed.
      const refusal = await destinationRefusal(d.url, webhookAllowHosts, this.resolve);
      if (refusal) return outcome(null, refusal);
      const secrets = await this.secretsOf(d, at);
      const response = await fetch(d.url, {
        method: "POST",
        headers: signedHeaders(secrets, d.eventId, at, d.payload),
        body: d.payload,
        redirect: "manual",
        signal: limit.signal,
      });
      const ok = response.status >= 200 && response.status < 300;
      const excerpt = await excerptOf(response).catch(() => "");
      return outcome(response.status, ok ? null : excerpt || null);
    } catch (error) {
      const name = (error as Error)?.name;
      const detail = name === "TimeoutError" || name === "AbortError" ? `no answer within ${webhookTimeoutMs} ms` : `could not deliver: ${(error as Error)?.message ?? String(error)}`;
      return outcome(null, detail);
    } finally {
      clearTimeout(timer);
      const left = this.attempting.get(d.webhookId)! - 1;
      if (left === 0) this.attempting.delete(d.webhookId);
      else this.attempting.set(d.webhookId, left);
    }
  }
}
