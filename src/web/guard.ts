import type { Store } from "../store/types.ts";
import { readForm, safeNext } from "./form.ts";
import { html } from "./html.ts";
import { messagePage, redirect, type Viewer } from "./layout.ts";
import type { WebOptions } from "./options.ts";
import { csrfMatches } from "./session.ts";
import type { WebSessions } from "./sessions.ts";
import type { SignInThrottle } from "./throttle.ts";

/** What the page handlers share. */
export interface Web {
  store: Store;
  sessions: WebSessions;
  throttle: SignInThrottle;
  options: WebOptions;
}

/** To the sign-in page, coming back to `next` afterwards; an ended session is told so and its cookie dropped. */
export function toSignIn(web: Web, request: Request, expired: boolean, next?: string): Response {
  const query = new URLSearchParams();
  const back = safeNext(next);
  if (back && back !== "/") query.set("next", back);
  if (expired) query.set("expired", "1");
  const qs = query.toString();
  return redirect(`/signin${qs ? `?${qs}` : ""}`, expired ? { "set-cookie": web.sessions.clearCookie(request) } : {});
}

/** The signed-in viewer of a page, or the redirect to sign in first. */
export async function viewerOf(web: Web, request: Request): Promise<Viewer | Response> {
  const visitor = await web.sessions.visitor(request);
  if (visitor.state === "signed-in") return { userId: visitor.userId, csrf: visitor.session.csrf };
  const url = new URL(request.url);
  return toSignIn(web, request, visitor.state === "expired", `${url.pathname}${url.search}`);
}

export function csrfRefused(viewer?: Viewer): Response {
  return messagePage(
    403,
    "Form not accepted",
    "This form could not be verified: its security token is missing or does not match your session. Nothing was changed. Reload the page and try again.",
    viewer,
    html`<p><a href="/settings">Back to the settings</a> · <a href="/batches">Back to the batches</a></p>`,
  );
}

export function tooLarge(viewer?: Viewer): Response {
  return messagePage(413, "Form too large", "The form sent more data than this page accepts. Nothing was changed.", viewer);
}

/**
 * Whether a form was made for a state that has changed since: its hidden `name` field holds the tag of
 * what it acts on as the page showed it (a form without the field, from a page made before it had
 * one, is taken as it is). A form sent twice (a reload of the answer, a second tab) then changes
 * nothing the first sending already changed: no second key replaces the one just shown.
 */
export function sentForAnotherState(form: URLSearchParams, name: string, current: string): boolean {
  const seen = form.get(name);
  return seen !== null && seen !== current;
}

/**
 * The page a form posted to `path` sits on, where its sender comes back after signing in again: a
 * batch's forms are on the batch, an item's on its collection, the logging id's on Settings › Devices,
 * the rest of the settings' on Settings.
 */
export function formPage(path: string): string {
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "batches" && parts.length >= 3) return `/batches/${parts[1]}`;
  if (parts[0] === "inventory" && parts.length >= 4) return `/inventory/${parts[1]}`;
  if (parts[0] === "settings") return parts[1] === "logging-id" ? "/settings/devices" : "/settings";
  return "/";
}

/**
 * A form post by a signed-in viewer: the session must be valid and the form must carry its CSRF
 * token. Only then does the handler see the fields. A form sent after the session ended goes to
 * sign in, then back to its page (what was typed is not kept: nothing of an ended session is read).
 */
export async function signedInPost(web: Web, request: Request): Promise<{ viewer: Viewer; form: URLSearchParams } | Response> {
  const visitor = await web.sessions.visitor(request);
  if (visitor.state !== "signed-in") {
    await request.body?.cancel().catch(() => undefined);
    return toSignIn(web, request, visitor.state === "expired", formPage(new URL(request.url).pathname));
  }
  const viewer = { userId: visitor.userId, csrf: visitor.session.csrf };
  const form = await readForm(request);
  if (!form) return tooLarge(viewer);
  if (!csrfMatches(visitor.session, form.get("csrf"))) return csrfRefused(viewer);
  return { viewer, form };
}
