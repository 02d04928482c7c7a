import { constantTimeEqual, hmacSha256, randomBytes } from "../lib/secure.ts";

// A session lives entirely in one signed cookie: `<payload>.<signature>`, where the payload is
// base64url JSON and the signature is HMAC-SHA256 over it with a secret kept in the database. The
// server keeps no session table, so any process on the same database accepts the cookie.

export const SESSION_COOKIE = "brewrecords_session";

export interface Session {
  /** The signed-in account, or null for a visitor who only holds a CSRF token (the sign-in form). */
  userId: string | null;
  /** Unix ms after which the session is no longer accepted. */
  expires: number;
  /** Per-session token every form sends back; a cross-site page cannot read it. */
  csrf: string;
  /** Tag of the password hash at sign-in: a password change ends every older session. */
  pw?: string;
}

export type Verified = { state: "valid"; session: Session } | { state: "expired"; session: Session } | { state: "invalid" };

const b64 = (buf: Buffer) => buf.toString("base64url");

function signature(secret: string, payload: string): string {
  return b64(hmacSha256(secret, `session.${payload}`));
}

export function signSession(secret: string, session: Session): string {
  const payload = b64(Buffer.from(JSON.stringify(session)));
  return `${payload}.${signature(secret, payload)}`;
}

function isSession(v: unknown): v is Session {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    (s.userId === null || typeof s.userId === "string") &&
    typeof s.expires === "number" &&
    typeof s.csrf === "string" &&
    s.csrf.length >= 16 &&
    (s.pw === undefined || typeof s.pw === "string")
  );
}

/** Checks the signature first; only a genuine cookie is parsed, and then its expiry decides. */
export function verifySession(secret: string, value: string | undefined, now: number): Verified {
  if (!value || value.length > 4096) return { state: "invalid" };
  const dot = value.indexOf(".");
  if (dot <= 0) return { state: "invalid" };
  const payload = value.slice(0, dot);
  if (!constantTimeEqual(value.slice(dot + 1), signature(secret, payload))) return { state: "invalid" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { state: "invalid" };
  }
  if (!isSession(parsed)) return { state: "invalid" };
  return parsed.expires > now ? { state: "valid", session: parsed } : { state: "expired", session: parsed };
}

export function newCsrfToken(): string {
  return b64(randomBytes(32));
}

/** The token sent with a form matches the session's (constant time). */
export function csrfMatches(session: Session, presented: string | null | undefined): boolean {
  return typeof presented === "string" && presented.length > 0 && constantTimeEqual(presented, session.csrf);
}

/** Short keyed tag of a password hash: reveals nothing about it, changes when it changes. */
export function passwordTag(secret: string, passwordHash: string | null): string {
  return b64(hmacSha256(secret, `password.${passwordHash ?? ""}`)).slice(0, 22);
}

/** HTTPS directly, or behind a proxy that says so. */
export function isSecureRequest(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}

export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${value}`, "Path=/", `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, "HttpOnly", "SameSite=Strict"];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", 0, secure);
}

/** One cookie's value from a Cookie header, or undefined. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const piece of header.split(";")) {
    const eq = piece.indexOf("=");
    if (eq > 0 && piece.slice(0, eq).trim() === name) return piece.slice(eq + 1).trim();
  }
  return undefined;
}
