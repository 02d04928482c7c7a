import { readForm, safeNext } from "./form.ts";
import { csrfRefused, tooLarge, type Web } from "./guard.ts";
import { page, redirect } from "./layout.ts";
import { signInMain, type SignInView } from "./pages/signin.ts";
import { verifyPassword } from "./password.ts";
import { csrfMatches } from "./session.ts";

// Sign-in and sign-out. A visitor first gets a cookie holding only a CSRF token, so the sign-in form
// is protected like every other form; a successful sign-in replaces it with a fresh session.

const WRONG = "Wrong user id or password.";

function signInPage(view: SignInView, status: number, headers: Record<string, string> = {}): Response {
  return page({ title: "Sign in", section: "signin", main: signInMain(view) }, status, headers);
}

export async function getSignIn(web: Web, request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const next = safeNext(params.get("next"));
  const visitor = await web.sessions.visitor(request);
  if (visitor.state === "signed-in") return redirect(next ?? "/batches");
  const notice = params.has("expired")
    ? "Your session has ended. Please sign in again."
    : params.has("signedout")
      ? "You are signed out."
      : undefined;
  if (visitor.state === "anonymous" && visitor.session) return signInPage({ csrf: visitor.session.csrf, next, notice }, 200);
  const fresh = await web.sessions.visitorCookie(request);
  return signInPage({ csrf: fresh.session.csrf, next, notice }, 200, { "set-cookie": fresh.cookie });
}

export async function postSignIn(web: Web, request: Request, address: string): Promise<Response> {
  const visitor = await web.sessions.visitor(request);
  const form = await readForm(request);
  if (!form) return tooLarge();
  const session = visitor.state === "expired" ? undefined : visitor.session;
  if (!session || !csrfMatches(session, form.get("csrf"))) return csrfRefused();

  const userId = (form.get("userId") ?? "").trim();
  const password = form.get("password") ?? "";
  const next = safeNext(form.get("next"));
  const again = (status: number, error: string, headers: Record<string, string> = {}) =>
    signInPage({ csrf: session.csrf, userId: userId.slice(0, 128), next, error }, status, headers);

  if (!userId || !password) return again(400, "Enter your user id and password.");
  const wait = web.throttle.waitMs(userId, address);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    return again(429, `Too many failed sign-ins. Wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`, { "retry-after": String(seconds) });
  }
  const user = userId.length <= 128 ? await web.store.getUser(userId) : undefined;
  if (!(await verifyPassword(password, user?.passwordHash))) {
    web.throttle.failed(userId, address);
    return again(401, WRONG);
  }
  web.throttle.succeeded(userId, address);
  const cookie = await web.sessions.signInCookie(request, user!.userId, user!.passwordHash);
  return redirect(next ?? "/batches", { "set-cookie": cookie });
}

export async function postSignOut(web: Web, request: Request): Promise<Response> {
  const visitor = await web.sessions.visitor(request);
  const form = await readForm(request);
  if (visitor.state === "signed-in") {
    const viewer = { userId: visitor.userId, csrf: visitor.session.csrf };
    if (!form) return tooLarge(viewer);
    if (!csrfMatches(visitor.session, form.get("csrf"))) return csrfRefused(viewer);
    web.sessions.end(visitor.session);
  }
  // Without a valid session there is nothing to end: dropping the cookie is all that is left.
  return redirect("/signin?signedout=1", { "set-cookie": web.sessions.clearCookie(request) });
}
