// `Missing ID` (API document, Errors: "the id is not provided", for update and delete of one batch;
// docs/decisions.md, HTTP: an empty id segment on a one-record operation is 400 after authentication).
// An empty id followed by a trailing slash is still an empty id.
import { describe } from "bun:test";
import { runTable, world, type Scenario } from "./harness.ts";
import { ownerImport } from "./fixtures.ts";

const makeWorld = () => world({ alice: { data: ownerImport() } });
const s = (method: string, url: string, as: string | null, status: number, text: string): Scenario => ({
  name: `${method} ${url} ${as ? "is" : "without credentials is"} ${status} ${text}`,
  method,
  url,
  as,
  status,
  text,
});

describe("an empty id before a trailing slash", () => {
  runTable(
    [
      s("PATCH", "/v2/batches//", "alice", 400, "Missing ID"),
      s("DELETE", "/v2/batches//", "alice", 400, "Missing ID"),
      s("PATCH", "/v2/batches//", null, 401, "Unauthorized"),
      s("DELETE", "/v2/batches//", null, 401, "Unauthorized"),
    ],
    makeWorld,
  );
});
