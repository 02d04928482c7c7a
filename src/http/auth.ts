import { digestsEqual, keyDigest, keySecret } from "../lib/keys.ts";
import type { Store } from "../store/types.ts";
import { parseBasicAuth } from "./basic.ts";
import { forbidden, unauthorized } from "./errors.ts";
import type { Limiter, RateState } from "./rate-limit.ts";
import type { Scope } from "./scopes.ts";

export type ApiVersion = 1 | 2;

export interface Principal {
  userId: string;
  scopes: readonly string[];
  apiVersion: ApiVersion;
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
  /** Rate state of each counted request, for the response headers. */
  readonly rateOf = new WeakMap<Request, RateState>();
  /** Account of each authenticated request, for the request log. */
  readonly userOf = new WeakMap<Request, string>();

  // Verified credentials by Authorization header, valid while the store's keys epoch stays the same,
  // so a regenerated key is refused at once while a repeated one costs a map lookup.
  private cache = new Map<string, Principal>();
  private cacheEpoch: string | undefined;

  constructor(private readonly store: Store, private readonly limiter: Limiter) {}

  async authenticate(header: string | null, apiVersion: ApiVersion): Promise<Principal> {
    const epoch = this.store.keysEpoch?.();
    if (epoch !== this.cacheEpoch || this.cache.size > 10_000) {
      this.cache.clear();
      this.cacheEpoch = epoch;
    }
    const cached = header && epoch !== undefined ? this.cache.get(header) : undefined;
    if (cached) {
      if (cached.apiVersion !== apiVersion) throw unauthorized();
      return cached;
    }
    const principal = await this.verify(header);
    if (header && epoch !== undefined) this.cache.set(header, principal);
    if (principal.apiVersion !== apiVersion) throw unauthorized();
    return principal;
  }

  private async verify(header: string | null): Promise<Principal> {
    const creds = parseBasicAuth(header);
    if (!creds) throw unauthorized();
    const record = await this.store.getApiKey(creds.userId);
    const presented = keyDigest(await (this.secret ??= keySecret(this.store)), creds.key);
    const match = digestsEqual(presented, record?.digest ?? NO_DIGEST);
    if (!record || !match) throw unauthorized();
    // A key belongs to one API version (docs/decisions.md): a v1 key on /v2 is not a valid credential.
    return { userId: record.userId, scopes: record.scopes, apiVersion: record.apiVersion };
  }

  async authorize(request: Request, scope: Scope, apiVersion: ApiVersion): Promise<Principal> {
    const principal = await this.authenticate(request.headers.get("authorization"), apiVersion);
    this.userOf.set(request, principal.userId);
    this.rateOf.set(request, await this.limiter.take(principal.userId, apiVersion));
    if (!principal.scopes.includes(scope)) throw forbidden();
    return principal;
  }
}
