import { html, type Html } from "./html.ts";

// The page frame and the HTTP response every page goes out in.

export interface Viewer {
  userId: string;
  csrf: string;
}

export type Section = "batches" | "recipes" | "inventory" | "settings" | "signin" | "none";

const SECTIONS: Array<[Section, string, string]> = [
  ["batches", "/batches", "Batches"],
  ["recipes", "/recipes", "Recipes"],
  ["inventory", "/inventory", "Inventory"],
  ["settings", "/settings", "Settings"],
];

export interface PageParts {
  title: string;
  main: Html;
  viewer?: Viewer;
  section?: Section;
  /** Small scripts of this server's own (static/) the page uses where it can do more with script. */
  scripts?: ReadonlyArray<"copy.js" | "chart.js" | "live.js">;
  /** The page's script fetches from this server (live.js). */
  connects?: boolean;
}

// Pages hold private data: never cached, never framed, no inline script or style, nothing fetched
// from anywhere but this server. Only a page whose script asks this server for more (a batch page's new
// readings) may connect, and only to this server.
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

function navLink(href: string, label: string, current: boolean): Html {
  return current ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`;
}

export function layout({ title, main, viewer, section = "none", scripts = [] }: PageParts): Html {
  const header = viewer
    ? html`<nav aria-label="Main">${SECTIONS.map(([name, href, label]) => navLink(href, label, section === name))}</nav>
<form class="signout" method="post" action="/signout"><input type="hidden" name="csrf" value="${viewer.csrf}"><span class="who">Signed in as <strong>${viewer.userId}</strong></span> <button type="submit">Sign out</button></form>`
    : html``;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · brewrecords</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
${scripts.map((name) => html`<script src="/static/${name}" defer></script>\n`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><span class="brand">brewrecords</span>${header}</header>
<main id="main" tabindex="-1">
${main}
</main>
</body>
</html>
`;
}

export function page(parts: PageParts, status = 200, headers: Record<string, string> = {}): Response {
  const csp = parts.connects ? { "content-security-policy": `${PAGE_HEADERS["content-security-policy"]}; connect-src 'self'` } : {};
  return new Response(layout(parts).text, { status, headers: { ...PAGE_HEADERS, ...csp, ...headers } });
}

/** 303 See Other: after a form, the browser fetches the target with GET. */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

/** A page that only explains what went wrong. */
export function messagePage(status: number, title: string, message: Html | string, viewer?: Viewer, link = html`<p><a href="/">Back to the start page</a></p>`): Response {
  return page({ title, viewer, main: html`<h1>${title}</h1><p class="message" role="alert">${message}</p>${link}` }, status);
}
