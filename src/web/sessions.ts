import { callOf } from "../http/call.ts";
import { randomBytes } from "../lib/secure.ts";
import type { Store } from "../store/types.ts";
import type { WebOptions } from "./options.ts";
import { clearedSessionCookie, isSecureRequest, newCsrfToken, passwordTag, readCookie, SESSION_COOKIE, sessionCookie, signSession, verifySession, type Session } from "./session.ts";

/** Who is asking: a signed-in account, a session that ran out, or a visitor (maybe holding a sign-in token). */
export type Visitor =
  | { state: "signed-in"; userId: string; session: Session }
  | { state: "expired" }
  | { state: "anonymous"; session?: Session };

// A visitor's token for the sign-in form outlives short sign-ins, so an open sign-in page keeps working.
const VISITOR_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a signed-in cookie outlives its session. The session's end is signed inside the cookie and
 * checked here; a cookie the browser dropped at that very moment would make the next page or form a
 * stranger's, never told that its session ended (docs/decisions.md, Web pages).
 */
export const ENDED_NOTICE_SECONDS = 24 * 60 * 60;

/** Reads and issues session cookies for one store (its secret) and one clock. */
export class WebSessions {
  private secret?: Promise<string>;
  /**
   * Sessions ended by signing out, by CSRF token, until they would have expired anyway. Kept in
   * memory: a restarted process (or a second one) accepts a signed-out cookie until its expiry.
   */
  private readonly ended = new Map<string, number>();

  constructor(private readonly store: Store, private readonly options: WebOptions) {}

  private key(): Promise<string> {
    return (this.secret ??= this.store.secret("web_session", () => randomBytes(32).toString("hex")));
  }

  async visitor(request: Request): Promise<Visitor> {
    const secret = await this.key();
    const verified = verifySession(secret, readCookie(request.headers.get("cookie"), SESSION_COOKIE), this.options.now());
    if (verified.state === "invalid") return { state: "anonymous" };
    const { session } = verified;
    if (verified.state === "expired") return session.userId === null ? { state: "anonymous" } : { state: "expired" };
    if (session.userId === null) return { state: "anonymous", session };
    if (this.ended.has(session.csrf)) return { state: "anonymous" };
    // The account must still exist with the password it had at sign-in.
    const user = await this.store.getUser(session.userId);
    if (!user || session.pw !== passwordTag(secret, user.passwordHash)) return { state: "expired" };
    // The account for the request log, as an API key's call records it.
    const call = callOf(request);
    if (call) call.userId = session.userId;
    return { state: "signed-in", userId: session.userId, session };
  }

  /** A cookie for a visitor who has no session yet: it carries only the sign-in form's CSRF token. */
  async visitorCookie(request: Request): Promise<{ session: Session; cookie: string }> {
    const session: Session = { userId: null, expires: this.options.now() + VISITOR_TTL_SECONDS * 1000, csrf: newCsrfToken() };
    return { session, cookie: sessionCookie(signSession(await this.key(), session), VISITOR_TTL_SECONDS, isSecureRequest(request)) };
  }

  /** A fresh session (new CSRF token) for an account that just proved its password. */
  async signInCookie(request: Request, userId: string, passwordHash: string | null): Promise<string> {
    const secret = await this.key();
    const ttl = this.options.sessionTtlSeconds;
    const session: Session = { userId, expires: this.options.now() + ttl * 1000, csrf: newCsrfToken(), pw: passwordTag(secret, passwordHash) };
    return sessionCookie(signSession(secret, session), ttl + ENDED_NOTICE_SECONDS, isSecureRequest(request));
  }

  /** Signing out: this session's cookie is refused from now on, even if it was copied. */
  end(session: Session): void {
    const now = this.options.now();
    for (const [token, expires] of this.ended) if (expires <= now) this.ended.delete(token);
    this.ended.set(session.csrf, session.expires);
  }

  clearCookie(request: Request): string {
    return clearedSessionCookie(isSecureRequest(request));
  }
}
