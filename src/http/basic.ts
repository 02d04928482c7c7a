// RFC 7617 Basic credentials: scheme name case-insensitive, split at the first colon.
export interface Credentials {
  userId: string;
  key: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function parseBasicAuth(header: string | null | undefined): Credentials | undefined {
  if (!header) return undefined;
  const match = /^basic[ \t]+(\S+)\s*$/i.exec(header);
  if (!match) return undefined;
  const token = match[1];
  if (token.length % 4 !== 0 || !BASE64.test(token)) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(token, "base64"));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  return { userId: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}
