import { digestsEqual, keyDigest, keySecret } from "../lib/keys.ts";
import type { Store } from "../store/types.ts";
import { parseBasicAuth } from "./basic.ts";
import { forbidden, unauthorized } from "./errors.ts";
import type { Scope } from "./scopes.ts";

export interface Principal {
  userId: string;
  scopes: readonly string[];
  apiVersion: 1 | 2;
}

// A digest to compare against when the account has no key, so a missing account costs the same HMAC.
const NO_DIGEST = "0".repeat(64);

/**
 * The first two steps of the precedence every request follows: 401 (no valid credentials), then 403
 * (the key lacks the scope). 404 and 400 come after, in the handlers.
 */
export class Authenticator {
  private secret?: Promise<string>;
  constructor(private readonly store: Store) {}

  async authenticate(header: string | null, apiVersion: 1 | 2): Promise<Principal> {
    const creds = parseBasicAuth(header);
    if (!creds) throw unauthorized();
    const record = await this.store.getApiKey(creds.userId);
    const presented = keyDigest(await (this.secret ??= keySecret(this.store)), creds.key);
    const match = digestsEqual(presented, record?.digest ?? NO_DIGEST);
    // A key belongs to one API version (docs/decisions.md): a v1 key on /v2 is not a valid credential.
    if (!record || !match || record.apiVersion !== apiVersion) throw unauthorized();
    return { userId: record.userId, scopes: record.scopes, apiVersion: record.apiVersion };
  }

  async authorize(header: string | null, scope: Scope, apiVersion: 1 | 2 = 2): Promise<Principal> {
    const principal = await this.authenticate(header, apiVersion);
    if (!principal.scopes.includes(scope)) throw forbidden();
    return principal;
  }
}
