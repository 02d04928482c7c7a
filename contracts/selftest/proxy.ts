// A deliberately wrong server: forwards every request to a conforming target and corrupts one
// thing, chosen by name (see deviations.ts). Run alone:
//   TARGET=http://127.0.0.1:8080 DEVIATION=page-repeats-item bun contracts/selftest/proxy.ts
import { deviationNamed } from "./deviations.ts";
import type { Call, Override, Upstream } from "./deviation.ts";

export interface ProxyOptions {
  target: string;
  deviation: string;
  /** Authorization headers of the main and another account, for deviations that leak records. */
  mainAuthorization?: string;
  otherAuthorization?: string;
  port?: number;
}

function respond(u: Upstream): Response {
  return new Response(u.body, { status: u.status, headers: u.headers });
}

export function startDeviationProxy(opts: ProxyOptions): { url: string; stop: () => void } {
  const deviation = deviationNamed(opts.deviation);
  const target = opts.target.replace(/\/+$/, "");
  const state = new Map<string, any>();

  async function handle(raw: Request): Promise<Response> {
    const url = new URL(raw.url);
    const body = raw.method === "GET" || raw.method === "HEAD" ? undefined : await raw.text();
    const forward = async (o: Override = {}): Promise<Upstream> => {
      const headers = new Headers(raw.headers);
      headers.delete("host");
      if (o.authorization) headers.set("authorization", o.authorization);
      const method = o.method ?? raw.method;
      const res = await fetch(target + (o.path ?? url.pathname) + (o.search ?? url.search), {
        method, headers, body: method === "GET" || method === "HEAD" ? undefined : o.body ?? body, redirect: "manual",
      });
      const out = new Headers(res.headers);
      for (const h of ["content-length", "content-encoding", "transfer-encoding"]) out.delete(h);
      return { status: res.status, headers: out, body: await res.text() };
    };
    const call: Call = {
      method: raw.method,
      path: url.pathname,
      query: url.searchParams,
      headers: raw.headers,
      body,
      json() { try { return JSON.parse(body ?? ""); } catch { return undefined; } },
      forward,
      search(changes) {
        const q = new URLSearchParams(url.searchParams);
        for (const [k, v] of Object.entries(changes)) v === undefined ? q.delete(k) : q.set(k, v);
        return q.size ? `?${q}` : "";
      },
      state,
      mainAuthorization: opts.mainAuthorization,
      otherAuthorization: opts.otherAuthorization,
    };
    const out = (await deviation.handle(call)) ?? (await forward());
    return out instanceof Response ? out : respond(out);
  }

  const server = Bun.serve({ port: opts.port ?? 0, hostname: "127.0.0.1", fetch: handle });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

if (import.meta.main) {
  const target = process.env.TARGET;
  const deviation = process.env.DEVIATION;
  if (!target || !deviation) {
    console.error("usage: TARGET=<base url> DEVIATION=<name> [MAIN_AUTHORIZATION='Basic …'] [OTHER_AUTHORIZATION='Basic …'] [PORT=…] bun contracts/selftest/proxy.ts");
    process.exit(2);
  }
  const p = startDeviationProxy({
    target, deviation, port: Number(process.env.PORT ?? 0),
    mainAuthorization: process.env.MAIN_AUTHORIZATION, otherAuthorization: process.env.OTHER_AUTHORIZATION,
  });
  console.log(`deviation ${deviation} listening on ${p.url}`);
}
