// A relay between `pull` and the remote, for what a real network does and a local server does not:
// latency, a refused call (429) at a chosen moment, a remote that stops answering and comes back. The
// answers themselves come from the real remote server.

export interface Relay {
  url: string;
  /** Requests relayed or refused so far. */
  readonly requests: number;
  /** Stops listening: connections are refused until `resume`. */
  pause(): void;
  resume(): void;
  stop(): void;
}

export interface RelayOptions {
  /** Added before each answer. */
  delayMs?: number;
  /** An answer of its own for request `n` (1-based), instead of relaying it. */
  answer?: (n: number) => Response | undefined;
}

export function startRelay(target: string, options: RelayOptions = {}): Relay {
  let requests = 0;
  const handler = async (req: Request): Promise<Response> => {
    const n = ++requests;
    if (options.delayMs) await Bun.sleep(options.delayMs);
    const own = options.answer?.(n);
    if (own) return own;
    const url = new URL(req.url);
    const res = await fetch(target + url.pathname + url.search, { method: req.method, headers: { authorization: req.headers.get("authorization") ?? "" } });
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(await res.arrayBuffer(), { status: res.status, headers });
  };
  let server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler });
  const port = server.port;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    pause() {
      server.stop(true);
    },
    resume() {
      server = Bun.serve({ hostname: "127.0.0.1", port, fetch: handler });
    },
    stop() {
      server.stop(true);
    },
  };
}
