// The headers of every answer (docs/decisions.md, Rate limits and Observability), made from Headers
// objects kept per shape: a Response keeps the values of its own call whatever calls come after it.
import { describe, expect, test } from "bun:test";
import { CallHeaders } from "../../src/http/call-headers.ts";
import type { Call } from "../../src/http/call.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const counted = (id: string, remaining: number, reset: number, apiVersion: 1 | 2 = 2, limit = 500): Call => ({
  start: 0,
  id,
  rate: { limit, remaining, reset, apiVersion },
});
const headersOf = (r: Response) => Object.fromEntries(r.headers.entries());

describe("CallHeaders.forAnswer", () => {
  test("a counted call: content type, the five rate fields and the request id", () => {
    const res = new Response("[]", { headers: new CallHeaders().forAnswer(JSON_TYPE, counted("a-1", 499, 3600)) });
    expect(headersOf(res)).toEqual({
      "content-type": JSON_TYPE,
      "ratelimit-policy": '"v2";q=500;w=3600',
      ratelimit: '"v2";r=499;t=3600',
      "x-ratelimit-limit": "500",
      "x-ratelimit-remaining": "499",
      "x-ratelimit-reset": "3600",
      "x-request-id": "a-1",
    });
  });

  test("each Response keeps its own call's values when later calls reuse the kept headers", () => {
    const headers = new CallHeaders();
    const responses = [0, 1, 2, 3].map((n) => new Response("[]", { headers: headers.forAnswer(JSON_TYPE, counted(`id-${n}`, 499 - n, 3600 - n)) }));
    responses.forEach((res, n) => {
      expect(res.headers.get("x-request-id")).toBe(`id-${n}`);
      expect(res.headers.get("ratelimit")).toBe(`"v2";r=${499 - n};t=${3600 - n}`);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(499 - n));
      expect(res.headers.get("x-ratelimit-reset")).toBe(String(3600 - n));
    });
  });

  test("shapes stay apart: an uncounted call after a counted one carries no rate fields, and versions keep their own policy", () => {
    const headers = new CallHeaders();
    new Response("[]", { headers: headers.forAnswer(JSON_TYPE, counted("c-1", 10, 60, 2, 500)) });
    const refused = new Response("Unauthorized", { headers: headers.forAnswer("text/plain; charset=utf-8", { start: 0, id: "c-2" }) });
    expect(headersOf(refused)).toEqual({ "content-type": "text/plain; charset=utf-8", "x-request-id": "c-2" });
    const v1 = new Response("[]", { headers: headers.forAnswer(JSON_TYPE, counted("c-3", 149, 60, 1, 150)) });
    expect(v1.headers.get("ratelimit-policy")).toBe('"v1";q=150;w=3600');
    expect(v1.headers.get("x-ratelimit-limit")).toBe("150");
    const v2 = new Response("[]", { headers: headers.forAnswer(JSON_TYPE, counted("c-4", 9, 59, 2, 500)) });
    expect(v2.headers.get("ratelimit-policy")).toBe('"v2";q=500;w=3600');
    expect(v2.headers.get("ratelimit")).toBe('"v2";r=9;t=59');
  });

  test("a changed limit rewrites the fixed fields", () => {
    const headers = new CallHeaders();
    new Response("[]", { headers: headers.forAnswer(JSON_TYPE, counted("d-1", 10, 60, 2, 500)) });
    const res = new Response("[]", { headers: headers.forAnswer(JSON_TYPE, counted("d-2", 10, 60, 2, 1000)) });
    expect(res.headers.get("ratelimit-policy")).toBe('"v2";q=1000;w=3600');
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  test("fields every response carries (HSTS) are on every shape", () => {
    const headers = new CallHeaders({ "strict-transport-security": "max-age=31536000" });
    for (const call of [counted("e-1", 1, 1), { start: 0, id: "e-2" }, counted("e-3", 0, 1)]) {
      const res = new Response("", { headers: headers.forAnswer(JSON_TYPE, call) });
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
      expect(res.headers.get("x-request-id")).toBe(call.id);
    }
  });
});

describe("CallHeaders.addTo", () => {
  test("sets the same fields on a Response made elsewhere, keeping its own content type", () => {
    const page = new Response("<p>", { headers: { "content-type": "text/html; charset=utf-8" } });
    new CallHeaders({ "strict-transport-security": "max-age=31536000" }).addTo(page.headers, counted("f-1", 7, 30));
    expect(headersOf(page)).toEqual({
      "content-type": "text/html; charset=utf-8",
      "strict-transport-security": "max-age=31536000",
      "ratelimit-policy": '"v2";q=500;w=3600',
      ratelimit: '"v2";r=7;t=30',
      "x-ratelimit-limit": "500",
      "x-ratelimit-remaining": "7",
      "x-ratelimit-reset": "30",
      "x-request-id": "f-1",
    });
  });
});
