/** Query parameters of a request URL, parsed without building a whole URL object. */
export function searchParams(url: string): URLSearchParams {
  const q = url.indexOf("?");
  return new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
}

/** Path of a request URL (scheme and host stripped, query dropped). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const q = url.indexOf("?", start);
  return url.slice(start, q === -1 ? undefined : q);
}
