// Secrets never reach any output: keys and the Basic credentials built from them are shown as the
// environment variables that hold them, so a printed curl line still runs in the user's shell.
import { ACCOUNT_VARS, type Account } from "./config.ts";

export interface Secret { text: string; shown: string }

export function basicCredential(userId: string, apiKey: string): string {
  return Buffer.from(`${userId}:${apiKey}`).toString("base64");
}

/** Secrets of the configured accounts and the logging id, longest first so a key inside a longer secret is caught whole. */
export function secretsOf(accounts: Account[], loggingId?: string): Secret[] {
  const out: Secret[] = [];
  if (loggingId) {
    // The logging id travels in the query string, so its URL-encoded form is a secret too.
    out.push({ text: loggingId, shown: "$CONTRACTS_LOGGING_ID" }, { text: encodeURIComponent(loggingId), shown: "$CONTRACTS_LOGGING_ID" });
  }
  for (const a of accounts) {
    const v = ACCOUNT_VARS[a.label];
    out.push({ text: basicCredential(a.userId, a.apiKey), shown: `$(printf %s "$${v.user}:$${v.key}" | base64 -w0)` });
    out.push({ text: a.apiKey, shown: `$${v.key}` });
  }
  return out.filter((s) => s.text.length > 0).sort((a, b) => b.text.length - a.text.length);
}

export function redact(text: string, secrets: Secret[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s.text).join(s.shown);
  return out;
}

function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Double quotes keep `$VAR` and `$(...)` live; everything else the shell would expand is escaped. */
function doubleQuoteRedacted(raw: string, secrets: Secret[]): string {
  let out = raw.replace(/[\\"$`]/g, (c) => "\\" + c);
  for (const s of secrets) out = out.split(s.text.replace(/[\\"$`]/g, (c) => "\\" + c)).join(s.shown);
  return `"${out}"`;
}

export interface CurlRequest { method: string; url: string; headers: Record<string, string>; body?: string }

/** A ready-to-run curl line with every secret replaced by its variable. */
export function curlLine(req: CurlRequest, secrets: Secret[]): string {
  const urlHasSecret = secrets.some((s) => req.url.includes(s.text));
  const parts = ["curl", "-i", "-X", req.method, urlHasSecret ? doubleQuoteRedacted(req.url, secrets) : singleQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    const line = `${name}: ${value}`;
    const secret = secrets.some((s) => line.includes(s.text));
    parts.push("-H", secret ? doubleQuoteRedacted(line, secrets) : singleQuote(line));
  }
  if (req.body !== undefined) parts.push("--data-raw", singleQuote(req.body));
  return parts.join(" ");
}
