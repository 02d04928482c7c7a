import type { Server } from "bun";
import { Webhook } from "standardwebhooks";

// A real webhook receiver on 127.0.0.1 for the tests: it records every request it gets and answers as
// the test says (200 by default; a status, or a wait past the sender's timeout).

export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
}

export type Answer = (request: Request, received: Received, n: number) => Response | Promise<Response>;

export class Receiver {
  readonly received: Received[] = [];
  answer: Answer = () => new Response(null, { status: 204 });
  private server: Server<undefined> | undefined;
  private port = 0;

  start(): this {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: this.port,
      idleTimeout: 30,
      fetch: async (request) => {
        const body = await request.text();
        const r: Received = {
          path: new URL(request.url).pathname,
          id: request.headers.get("webhook-id") ?? "",
          timestamp: request.headers.get("webhook-timestamp") ?? "",
          signature: request.headers.get("webhook-signature") ?? "",
          body,
          json: JSON.parse(body),
        };
        this.received.push(r);
        return this.answer(request, r, this.received.length);
      },
    });
    this.port = this.server.port!;
    return this;
  }

  /** Stops listening (connections are refused) until started again on the same port. */
  async stop(): Promise<void> {
    await this.server?.stop(true);
    this.server = undefined;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** True when the Standard Webhooks reference library accepts the delivery under the secret. */
  static verifies(secret: string, r: Received): boolean {
    try {
      new Webhook(secret).verify(r.body, { "webhook-id": r.id, "webhook-timestamp": r.timestamp, "webhook-signature": r.signature });
      return true;
    } catch {
      return false;
    }
  }
}

/** Waits until `done` holds, polling; throws with `what` after `ms`. */
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** Each delivery once, by its webhook-id (retries repeat the id), in the order first received. */
export function firstOfEach(list: Received[]): Received[] {
  const seen = new Set<string>();
  return list.filter((r) => !seen.has(r.id) && seen.add(r.id));
}
