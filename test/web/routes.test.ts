import { describe, expect, test } from "bun:test";
import { acceptsHtml, clientAddress } from "../../src/web/routes.ts";

const req = (headers: Record<string, string>) => new Request("http://localhost/signin", { headers });

describe("who is asking", () => {
  test("the socket address is used unless a trusted proxy forwards one", () => {
    expect(clientAddress(req({ "x-forwarded-for": "203.0.113.9" }), "10.0.0.1", false)).toBe("10.0.0.1");
    expect(clientAddress(req({}), undefined, false)).toBe("unknown");
  });

  test("behind a trusted proxy, the entry the proxy appended counts, not what the client wrote before it", () => {
    expect(clientAddress(req({ "x-forwarded-for": "1.2.3.4, 203.0.113.9" }), "10.0.0.1", true)).toBe("203.0.113.9");
    expect(clientAddress(req({}), "10.0.0.1", true)).toBe("10.0.0.1");
  });

  test("pages answer requests that accept HTML or anything", () => {
    expect(acceptsHtml(req({ accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }))).toBe(true);
    expect(acceptsHtml(req({ accept: "*/*" }))).toBe(true);
    expect(acceptsHtml(req({ accept: "application/xhtml+xml" }))).toBe(true);
    expect(acceptsHtml(req({ accept: "application/json" }))).toBe(false);
    expect(acceptsHtml(req({ accept: "text/htmlx" }))).toBe(false);
    expect(acceptsHtml(req({}))).toBe(false);
  });
});
