import { html, type Html } from "../html.ts";

export interface SignInView {
  csrf: string;
  userId?: string;
  next?: string;
  /** Shown above the form: why the visitor is here (a session that ended, a sign-out). */
  notice?: string;
  /** What went wrong with the last attempt. */
  error?: string;
}

export function signInMain(view: SignInView): Html {
  return html`<h1>Sign in</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ""}
${view.error ? html`<p class="error" role="alert" id="signin-error">${view.error}</p>` : ""}
<form class="card" method="post" action="/signin"${view.error ? html` aria-describedby="signin-error"` : ""}>
<input type="hidden" name="csrf" value="${view.csrf}">
${view.next ? html`<input type="hidden" name="next" value="${view.next}">` : ""}
<p><label for="user-id">User id</label>
<input id="user-id" name="userId" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="128" value="${view.userId ?? ""}"${view.userId ? "" : html` autofocus`}></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${view.userId ? html` autofocus` : ""}></p>
<p><button type="submit">Sign in</button></p>
</form>
<p class="hint">No password yet? An administrator sets one with <code>brewrecords user passwd &lt;userId&gt;</code>.</p>`;
}
