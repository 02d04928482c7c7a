import type { Call } from "./call.ts";
import { addRateHeaders, setChangingRateHeaders } from "./rate-limit.ts";

/** A kept Headers object and the limit its fixed rate fields were written for. */
interface Kept {
  headers: Headers;
  limit: number;
}

/**
 * The headers every response to a call carries: the request id, the rate budget of a counted call,
 * and HSTS where it applies.
 *
 * An API answer gets them in one Headers object kept per shape (content type, counted or not, API
 * version), with its fixed fields in place: only the fields that change from call to call are set on
 * it before the Response is made. The Response constructor copies the headers it is given (Fetch
 * standard, "fill"), so the next call's values never reach an earlier Response, and nothing waits in
 * between. Setting four fields costs about half of reading seven from an object (docs/performance.md).
 */
export class CallHeaders {
  // By content type: [0] a call not counted (refused before its count), [1] and [2] a call counted on that API version.
  private readonly kept = new Map<string, Array<Kept | undefined>>();

  constructor(private readonly always: Readonly<Record<string, string>> = {}) {}

  /** The headers of an answer of `type` to `call`, valid until the next call to this method. */
  forAnswer(type: string, call: Call): Headers {
    let shapes = this.kept.get(type);
    if (shapes === undefined) this.kept.set(type, (shapes = []));
    const rate = call.rate;
    const slot = rate ? rate.apiVersion : 0;
    let kept = shapes[slot];
    if (kept === undefined || (rate !== undefined && kept.limit !== rate.limit)) {
      kept = shapes[slot] = { headers: new Headers({ "content-type": type, ...this.fields(call) }), limit: rate?.limit ?? 0 };
    } else {
      if (rate) setChangingRateHeaders(kept.headers, rate);
      kept.headers.set("x-request-id", call.id);
    }
    return kept.headers;
  }

  /** The same fields set on a Response made elsewhere (a web page, the API documentation). */
  addTo(headers: Headers, call: Call): void {
    for (const [name, value] of Object.entries(this.fields(call))) headers.set(name, value);
  }

  private fields(call: Call): Record<string, string> {
    const fields: Record<string, string> = { ...this.always };
    if (call.rate) addRateHeaders(fields, call.rate);
    fields["x-request-id"] = call.id;
    return fields;
  }
}
