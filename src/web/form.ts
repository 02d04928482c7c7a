// Form posts of the web pages: URL-encoded, small. Anything else is read as an empty form, which
// then fails its CSRF check like any forged post.

export const MAX_FORM_BYTES = 16 * 1024;

/** The posted fields, or null when the body is larger than a form of these pages can be. */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<URLSearchParams | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return null;
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    await request.body?.cancel().catch(() => undefined);
    return new URLSearchParams();
  }
  const text = await request.text();
  if (text.length > maxBytes) return null;
  return new URLSearchParams(text);
}

// After sign-in the browser returns to the page it asked for, but only to a path on this site:
// "//host" or "/\host" would leave it.
const LOCAL_PATH = /^\/(?![\/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@\/%?]*$/;

export function safeNext(value: string | null | undefined): string | undefined {
  return value && value.length <= 512 && LOCAL_PATH.test(value) ? value : undefined;
}
