import { digestsEqual, keyDigest } from "../lib/keys.ts";
import { keySecret } from "../store/keys.ts";
import { EpochCache } from "../lib/epoch-cache.ts";
import type { ApiKeyRecord, Store } from "../store/types.ts";
import { parseBasicAuth } from "./basic.ts";
import { forbidden, unauthorized } from "./errors.ts";
import { andThen, type Awaitable } from "../lib/awaitable.ts";
import { callOf } from "./call.ts";
import type { Limiter, RateState } from "./rate-limit.ts";
import { meets, type ScopeNeed } from "../lib/scopes.ts";

export type ApiVersion = 1 | 2;

export interface Principal {
  userId: string;
  scopes: readonly string[];
  apiVersion: ApiVersion;
}

// A key belongs to one API version (docs/decisions.md): a v1 key on /v2 is not a valid credential.
function forVersion(principal: Principal, apiVersion: ApiVersion): Principal {
  if (principal.apiVersion !== apiVersion) throw unauthorized();
  return principal;
}

// A digest to compare against when the account has no key, so a missing account costs the same HMAC.
const NO_DIGEST = "0".repeat(64);

/**
 * The ordered checks every request passes before its handler acts: 401 (no valid credentials for this
 * API version), then 429 (the key's hourly budget is spent), then 403 (the key lacks the scope).
 * 404 and 400 come after, in the handlers.
 */
export class Authenticator {
  private secret?: Promise<string>;

  // Verified credentials by Authorization header, valid while the store's keys epoch stays the same.
  private readonly cache: EpochCache<Principal>;

  constructor(private readonly store: Store, private readonly limiter: Limiter) {
    this.cache = new EpochCache(() => store.keysEpoch?.());
  }

  /** The principal of an Authorization header for one API version: at once from the cache, else once the key is read. */
  authenticate(header: string | null, apiVersion: ApiVersion): Awaitable<Principal> {
    const cached = this.cache.get(header);
    if (cached) return forVersion(cached, apiVersion);
    const epoch = this.cache.epoch;
    return this.verify(header).then((principal) => {
      this.cache.set(header, principal, epoch);
      return forVersion(principal, apiVersion);
    });
  }

  private async verify(header: string | null): Promise<Principal> {
    const creds = parseBasicAuth(header);
    if (!creds) throw unauthorized();
    const record = await this.store.getApiKey(creds.userId);
    return accepted(record, await this.digest(creds.key));
  }

  private async digest(key: string): Promise<string> {
    return keyDigest(await (this.secret ??= keySecret(this.store)), key);
  }

  /**
   * The key read and the call counted in one statement (Limiter.takeKeyed), which counts only a
   * matching key of this API version: the same answers as authenticate, then take, in one round trip.
   * Nothing is cached: a limiter counts this way only on a store without a keys epoch.
   */
  private async verifyCounted(header: string | null, apiVersion: ApiVersion, takeKeyed: NonNullable<Limiter["takeKeyed"]>) {
    const creds = parseBasicAuth(header);
    if (!creds) throw unauthorized();
    const presented = await this.digest(creds.key);
    const { key, rate } = await takeKeyed(creds.userId, apiVersion, presented);
    return { principal: forVersion(accepted(key, presented), apiVersion), rate };
  }

  /** Authentication (401), then the rate limit (429), then the scope (403); at once when nothing waits. */
  authorize(request: Request, scope: ScopeNeed, apiVersion: ApiVersion): Awaitable<Principal> {
    const header = request.headers.get("authorization");
    const takeKeyed = this.limiter.takeKeyed;
    if (takeKeyed) return this.verifyCounted(header, apiVersion, takeKeyed).then(({ principal, rate }) => permit(request, principal, scope, rate));
    return andThen(this.authenticate(header, apiVersion), (principal) => permit(request, principal, scope, () => this.limiter.take(principal.userId, apiVersion)));
  }
}

/** The principal of a key record when the presented digest is its digest (compared in constant time), else 401. */
function accepted(record: ApiKeyRecord | undefined, presented: string): Principal {
  const match = digestsEqual(presented, record?.digest ?? NO_DIGEST);
  if (!record || !match) throw unauthorized();
  return { userId: record.userId, scopes: record.scopes, apiVersion: record.apiVersion };
}

/** An authenticated call: its rate state (or 429), then its scope (or 403). */
function permit(request: Request, principal: Principal, scope: ScopeNeed, take: () => Awaitable<RateState>): Awaitable<Principal> {
  // The account for the request log, and the rate state for the response headers.
  const call = callOf(request);
  if (call) call.userId = principal.userId;
  return andThen(take(), (rate) => {
    if (call) call.rate = rate;
    if (!meets(principal.scopes, scope)) throw forbidden();
    return principal;
  });
}
