import { isIP } from "node:net";
import { ERRORS } from "../http/errors.ts";
import { settledWithin } from "../lib/awaitable.ts";

// Where deliveries may go: HTTPS only, and never to an address inside the server's own networks
// (loopback, private, link-local, cloud metadata, and the like), unless the operator allows the host
// (WEBHOOK_ALLOW_HOSTS). Every address a name resolves to is checked, when the subscription is made and
// again before each delivery.

/** Every address of a host name. */
export type Resolver = (host: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (host) => (await Bun.dns.lookup(host)).map((a) => a.address);

/**
 * How long a name may take to resolve: the system resolver waits out each silent name server (seconds
 * each, tried again), which would hold a subscribing request, or a delivery beyond its own time limit.
 */
export const RESOLVE_MS = 5000;

const v4 = (ip: string): number[] | undefined => {
  const parts = ip.split(".").map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : undefined;
};

// [first octets, prefix length] of IPv4 ranges that are not the public internet (RFC 6890 and friends).
const V4_BLOCKED: Array<[number[], number]> = [
  [[0], 8], [[10], 8], [[100, 64], 10], [[127], 8], [[169, 254], 16], [[172, 16], 12], [[192, 0, 0], 24], [[192, 0, 2], 24],
  [[192, 168], 16], [[198, 18], 15], [[198, 51, 100], 24], [[203, 0, 113], 24], [[224], 4], [[240], 4],
];

function v4Blocked(parts: number[]): boolean {
  const n = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  return V4_BLOCKED.some(([start, bits]) => {
    const s = ((start[0]! << 24) | ((start[1] ?? 0) << 16) | ((start[2] ?? 0) << 8)) >>> 0;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (s & mask) >>> 0;
  });
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail becomes two groups). */
function v6Groups(ip: string): number[] | undefined {
  let text = ip.toLowerCase().split("%")[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const p = v4(tail[1]!);
    if (!p) return undefined;
    text = text.slice(0, -tail[1]!.length) + `${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const a = parse(head);
  const b = rest === undefined ? [] : parse(rest);
  const groups = rest === undefined ? a : [...a, ...new Array(8 - a.length - b.length).fill(0), ...b];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** True for an address on the public internet; false for loopback, private, link-local, metadata, reserved. */
export function isPublicAddress(ip: string): boolean {
  const four = v4(ip);
  if (four) return !v4Blocked(four);
  const g = v6Groups(ip);
  if (!g) return false;
  const embedded = [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255];
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return !v4Blocked(embedded); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return !v4Blocked(embedded); // NAT64
  if (g.slice(0, 7).every((x) => x === 0)) return false; // :: and ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return false; // unique local, fd00:ec2::254 (metadata) among them
  if ((g[0]! & 0xffc0) === 0xfe80) return false; // link-local
  if ((g[0]! & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  return true;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();

/** Why deliveries may not go to this URL, or undefined when they may. */
export async function destinationRefusal(text: string, allowHosts: readonly string[], resolve: Resolver = dnsResolver, resolveMs = RESOLVE_MS): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return ERRORS.invalidWebhookUrl;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return ERRORS.invalidWebhookUrl;
  const host = hostOf(url);
  if (allowHosts.includes(host)) return undefined;
  if (url.protocol !== "https:") return ERRORS.webhookNotHttps;
  let addresses: string[] | undefined;
  try {
    addresses = isIP(host) ? [host] : await settledWithin(resolve(host), resolveMs);
  } catch {
    return ERRORS.webhookUnresolvable(host);
  }
  if (addresses === undefined) return ERRORS.webhookResolveTimeout(host, resolveMs);
  if (addresses.length === 0) return ERRORS.webhookUnresolvable(host);
  const inside = addresses.find((a) => !isPublicAddress(a));
  return inside === undefined ? undefined : ERRORS.webhookRefusedAddress(host, inside);
}
