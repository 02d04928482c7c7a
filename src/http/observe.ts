import type { Config } from "../config.ts";
import { newId } from "../lib/ids.ts";
import { beginCall, callOf, type Call } from "./call.ts";

// Request ids: a random prefix per process and a counter, unique without drawing random bytes per request.
const PROCESS_PREFIX = newId().slice(0, 8);
let sequence = 0;
const nextRequestId = () => `${PROCESS_PREFIX}-${(++sequence).toString(36)}`;

// One structured JSON line per request (method, route, status, duration, request id, user id). The
// Authorization header, keys and bodies are never logged.

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 } as const;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

export class Observer {
  private readonly level: number;
  /** Requests begun since the process started (the delivery worker gives way while it rises). */
  begun = 0;

  constructor(config: Pick<Config, "logLevel">, private readonly write: (line: string) => void = (l) => process.stdout.write(l + "\n")) {
    this.level = LEVELS[config.logLevel];
  }

  begin(request: Request): void {
    this.begun++;
    const given = request.headers.get("x-request-id");
    beginCall(request, given && REQUEST_ID.test(given) ? given : nextRequestId());
  }

  /** Ends a request: writes its log line and returns its call, once; undefined the second time. */
  end(request: Request, status: number, route: string | undefined): Call | undefined {
    const info = callOf(request);
    if (!info || info.ended) return undefined;
    info.ended = true;
    // 503 is the database away for a while (logged once as a warning where it starts): not a defect.
    const name = status === 503 ? "warn" : status >= 500 ? "error" : "info";
    if (LEVELS[name] >= this.level) {
      this.log(name, "request", {
        method: request.method,
        route: route ?? "(unmatched)",
        status,
        ms: Math.round((performance.now() - info.start) * 100) / 100,
        requestId: info.id,
        userId: info.userId ?? null,
      });
    }
    return info;
  }

  log(level: keyof typeof LEVELS, msg: string, fields: Record<string, unknown> = {}): void {
    if (LEVELS[level] < this.level) return;
    this.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
  }
}
