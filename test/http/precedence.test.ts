// Precedence (docs/decisions.md, HTTP): 401, then 403, then 404 (record), then 400 (input); "a PATCH
// with a bad body on a missing record is 404". A body that cannot be read as a JSON object is bad input.
import { describe } from "bun:test";
import { runTable, world, type Scenario } from "./harness.ts";
import { ownerImport } from "./fixtures.ts";

const makeWorld = () => world({ alice: { data: ownerImport() } });
const onMissing = (name: string, raw: string): Scenario => ({
  name,
  method: "PATCH",
  url: "/v2/batches/no-such-id",
  as: "alice",
  raw,
  headers: { "content-type": "application/json" },
  status: 404,
  text: "Not Found",
});

describe("PATCH of a missing batch is 404 whatever the body", () => {
  runTable(
    [
      onMissing("malformed JSON on a missing batch is 404, not 400 Invalid JSON", '{"status":'),
      onMissing("a JSON array on a missing batch is 404, not 400 Body must be a JSON object", "[]"),
      onMissing("JSON nested too deeply on a missing batch is 404, not 400", '{"a":'.repeat(70) + "1" + "}".repeat(70)),
    ],
    makeWorld,
  );
});
