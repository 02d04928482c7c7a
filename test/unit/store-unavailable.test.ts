// Which failures mean "the database is away for now" (503, retry) rather than a defect (500).
import { expect, test } from "bun:test";
import { isStoreUnavailable } from "../../src/store/unavailable.ts";

test.each([
  ["connection refused (Bun's client)", { code: "ERR_POSTGRES_CONNECTION_REFUSED" }, true],
  ["connection closed mid-request", { code: "ERR_POSTGRES_CONNECTION_CLOSED" }, true],
  ["admin shutdown (57P01)", { code: "ERR_POSTGRES_SERVER_ERROR", errno: "57P01" }, true],
  ["the server starting up (57P03)", { code: "ERR_POSTGRES_SERVER_ERROR", errno: "57P03" }, true],
  ["a connection exception (08006)", { code: "ERR_POSTGRES_SERVER_ERROR", errno: "08006" }, true],
  ["a socket reset", { code: "ECONNRESET" }, true],
  ["a unique violation (23505) is a defect, not an outage", { code: "ERR_POSTGRES_SERVER_ERROR", errno: "23505" }, false],
  ["a syntax error (42601)", { code: "ERR_POSTGRES_SERVER_ERROR", errno: "42601" }, false],
  ["a plain Error", new Error("boom"), false],
  ["not an object", "ECONNREFUSED", false],
  ["null", null, false],
])("%s: %p", (_name, error, expected) => {
  expect(isStoreUnavailable(error)).toBe(expected);
});
