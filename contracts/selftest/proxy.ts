// A deliberately wrong server: forwards every request to a conforming target and corrupts one
// thing, chosen by name (see deviations.ts). Run alone:
//   TARGET=http://127.0.0.1:8080 DEVIATION=page-repeats-item bun contracts/selftest/proxy.ts
import { deviationNamed } from "./deviations.ts";

export interface ProxyOptions {
  target: string;
  deviation: string;
  /** Authorization header of another account, for `leak-other-account`. */
  otherAuthorization?: string;
  port?: number;
}

type Json = any;
const STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"];
const ONE_RECORD = /^\/v2\/(batches|recipes|inventory\/(fermentables|hops|miscs|yeasts))\/[^/]+(\/(readings|readings\/last|brewtracker))?$/;

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}
function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

export function startDeviationProxy(opts: ProxyOptions): { url: string; stop: () => void } {
  deviationNamed(opts.deviation);
  const target = opts.target.replace(/\/+$/, "");
  // Every list entry seen, by _id, so a later page can repeat one.
  const seen = new Map<string, Json>();

  async function forward(req: { method: string; url: URL; headers: Headers; body?: string }, override?: { path?: string; search?: string; authorization?: string; body?: string }): Promise<{ status: number; headers: Headers; body: string }> {
    const headers = new Headers(req.headers);
    headers.delete("host");
    if (override?.authorization) headers.set("authorization", override.authorization);
    const body = override?.body ?? req.body;
    const res = await fetch(target + (override?.path ?? req.url.pathname) + (override?.search ?? req.url.search), {
      method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body, redirect: "manual",
    });
    const out = new Headers(res.headers);
    for (const h of ["content-length", "content-encoding", "transfer-encoding"]) out.delete(h);
    return { status: res.status, headers: out, body: await res.text() };
  }

  async function handle(raw: Request): Promise<Response> {
    const url = new URL(raw.url);
    const req = { method: raw.method, url, headers: raw.headers, body: raw.method === "GET" ? undefined : await raw.text() };
    const path = url.pathname;
    const q = url.searchParams;
    const parsed = (): Json => { try { return JSON.parse(req.body ?? ""); } catch { return undefined; } };

    switch (opts.deviation) {
      case "forbidden-instead-of-unauthorized":
        if (!raw.headers.get("authorization")) return text("Forbidden", 403);
        break;
      case "direction-accepts-anything": {
        const d = q.get("order_by_direction");
        if (d !== null && d !== "asc" && d !== "desc") {
          q.delete("order_by_direction");
          const r = await forward(req, { search: q.size ? `?${q}` : "" });
          return new Response(r.body, { status: r.status, headers: r.headers });
        }
        break;
      }
      case "leak-other-account":
        if (req.method === "GET" && ONE_RECORD.test(path) && opts.otherAuthorization) {
          const mine = await forward(req);
          if (mine.status !== 404) return new Response(mine.body, { status: mine.status, headers: mine.headers });
          const theirs = await forward(req, { authorization: opts.otherAuthorization });
          const r = theirs.status === 200 ? theirs : mine;
          return new Response(r.body, { status: r.status, headers: r.headers });
        }
        break;
      case "last-reading-oldest":
        if (/^\/v2\/batches\/[^/]+\/readings\/last$/.test(path)) {
          const all = await forward(req, { path: path.replace(/\/last$/, "") });
          const list = all.status === 200 ? (JSON.parse(all.body) as Json[]) : [];
          if (!list.length) break;
          return json(list.reduce((a, b) => (b.time < a.time ? b : a)));
        }
        break;
      case "page-repeats-item": {
        const after = q.get("start_after");
        if (req.method !== "GET" || !/^\/v2\/(batches|recipes|inventory\/\w+)$/.test(path)) break;
        const r = await forward(req);
        if (r.status !== 200) return new Response(r.body, { status: r.status, headers: r.headers });
        const list = JSON.parse(r.body) as Json[];
        for (const e of list) seen.set(`${path} ${e._id}`, e);
        const prev = after ? seen.get(`${path} ${after}`) : undefined;
        if (!prev || !list.length) return json(list);
        return json([prev, ...list].slice(0, Math.max(list.length, 1)));
      }
      case "mash-ph-edge-exclusive":
        if (req.method === "PATCH" && /^\/v2\/batches\/[^/]+$/.test(path) && parsed()?.measuredMashPh === 14) {
          return text("Invalid measuredMashPh", 400);
        }
        break;
      case "invalid-status-text":
        if (req.method === "PATCH" && /^\/v2\/batches\/[^/]+$/.test(path)) {
          const r = await forward(req);
          if (r.status === 400 && r.body === "Invalid status") return text("Invalid Status", 400);
          return new Response(r.body, { status: r.status, headers: r.headers });
        }
        break;
      case "recipe-keeps-client-id":
        if (req.method === "POST" && path === "/v2/recipes") {
          const sent = parsed();
          const r = await forward(req);
          if (r.status === 201 && typeof sent?._id === "string") return json({ id: sent._id }, 201);
          return new Response(r.body, { status: r.status, headers: r.headers });
        }
        break;
      case "inventory-adjust-wins":
        if (req.method === "PATCH" && path.startsWith("/v2/inventory/")) {
          const body = parsed();
          if (body && "inventory" in body && "inventory_adjust" in body) {
            const { inventory: _dropped, ...rest } = body;
            const r = await forward(req, { body: JSON.stringify(rest) });
            return new Response(r.body, { status: r.status, headers: r.headers });
          }
        }
        break;
      case "v1-no-planning-default":
        if (req.method === "GET" && path === "/v1/batches" && !q.has("status")) {
          const all: Json[] = [];
          for (const s of STATUSES) {
            const r = await forward(req, { search: `?status=${s}&limit=50` });
            if (r.status !== 200) return new Response(r.body, { status: r.status, headers: r.headers });
            all.push(...(JSON.parse(r.body) as Json[]));
          }
          all.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
          const offset = Number(q.get("offset") ?? 0);
          return json(all.slice(offset, offset + Math.min(Number(q.get("limit") ?? 10), 50)));
        }
        break;
      case "no-retry-after": {
        const r = await forward(req);
        r.headers.delete("retry-after");
        return new Response(r.body, { status: r.status, headers: r.headers });
      }
    }
    const r = await forward(req);
    return new Response(r.body, { status: r.status, headers: r.headers });
  }

  const server = Bun.serve({ port: opts.port ?? 0, hostname: "127.0.0.1", fetch: handle });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

if (import.meta.main) {
  const target = process.env.TARGET;
  const deviation = process.env.DEVIATION;
  if (!target || !deviation) {
    console.error("usage: TARGET=<base url> DEVIATION=<name> [OTHER_AUTHORIZATION='Basic …'] [PORT=…] bun contracts/selftest/proxy.ts");
    process.exit(2);
  }
  const p = startDeviationProxy({ target, deviation, otherAuthorization: process.env.OTHER_AUTHORIZATION, port: Number(process.env.PORT ?? 0) });
  console.log(`deviation ${deviation} listening on ${p.url}`);
}
