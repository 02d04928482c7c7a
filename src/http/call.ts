import type { RateState } from "./rate-limit.ts";

/**
 * What the server learns about one request on its way through the hooks and the handler: its id and
 * start, then its account and rate state once authorised. Kept on the Request itself under a private
 * symbol: a WeakMap entry per request, at tens of thousands of requests a second, cost the garbage
 * collector more than the whole authorisation.
 */
export interface Call {
  start: number;
  id: string;
  userId?: string;
  rate?: RateState;
  /** A response can pass two hooks (an error mapped, then mapped again): it is ended once. */
  ended?: boolean;
}

const CALL = Symbol("call");
type Carrier = Request & { [CALL]?: Call };

export function beginCall(request: Request, id: string): Call {
  const call: Call = { start: performance.now(), id };
  (request as Carrier)[CALL] = call;
  return call;
}

/** The request's call, or undefined for a request that did not pass the server's first hook. */
export function callOf(request: Request): Call | undefined {
  return (request as Carrier)[CALL];
}
