// PATCH /v2/batches/{id} (API document, Endpoints › Batches: the PATCH table and its rules; States
// and transitions; Errors) and docs/decisions.md (Batches: numeric strings, null stores null, no body
// is `Nothing to update`; HTTP: 404 before 400). Every scenario checks what was stored afterwards.
import { describe, expect } from "bun:test";
import { canonical, runTable, world, type Scenario, type World } from "./harness.ts";
import { paleUntouched } from "./endpoints.ts";
import { ownerImport, PALE } from "./fixtures.ts";
import { justAbove, justBelow, PATCH_FIELDS, STATUSES } from "./patch-fields.ts";

const makeWorld = () => world({ alice: { data: ownerImport() } });

/** The batch now reads back as PALE with exactly these fields changed, keys sorted. */
const stored = (changes: Record<string, unknown>) => async (w: World) => {
  const res = await w.h.call("GET", "/v2/batches/b-pale", w.accounts.alice);
  expect(res.text).toBe(JSON.stringify(canonical({ ...PALE, ...changes })));
};
const unchanged = (w: World) => paleUntouched(w, "alice");

const patch = (name: string, body: unknown, status: number, text: string, after: Scenario["after"]): Scenario => ({
  name,
  method: "PATCH",
  url: "/v2/batches/b-pale",
  as: "alice",
  body,
  status,
  text,
  after,
});
const show = (v: unknown) => (typeof v === "number" ? String(v) : JSON.stringify(v));

describe("status", () => {
  runTable(
    [
      ...STATUSES.map((s) => patch(`status ${s} is Updated and stored`, { status: s }, 200, "Updated", stored({ status: s }))),
      ...["planning", "Done", "", null, 3, ["Brewing"]].map((s) =>
        patch(`status ${show(s)} is 400 Invalid status and changes nothing`, { status: s }, 400, "Invalid status", unchanged),
      ),
      patch("an invalid status refuses the valid fields beside it", { status: "Nope", measuredOg: 1.06 }, 400, "Invalid status", unchanged),
    ],
    makeWorld,
  );
});

describe("measured values: inclusive bounds, null clears, numeric strings count", () => {
  const table: Scenario[] = [];
  for (const { field, min, max } of PATCH_FIELDS) {
    table.push(
      patch(`${field} at its minimum ${min} is Updated`, { [field]: min }, 200, "Updated", stored({ [field]: min })),
      patch(`${field} just below its minimum (${justBelow(min)}) is 400 Invalid ${field}`, { [field]: justBelow(min) }, 400, `Invalid ${field}`, unchanged),
      patch(`${field} null clears it: stored null`, { [field]: null }, 200, "Updated", stored({ [field]: null })),
      patch(`${field} as the numeric string "${min}" is stored as a number`, { [field]: String(min) }, 200, "Updated", stored({ [field]: min })),
      patch(`${field} "abc" is 400 Invalid ${field}`, { [field]: "abc" }, 400, `Invalid ${field}`, unchanged),
      patch(`${field} true is 400 Invalid ${field}`, { [field]: true }, 400, `Invalid ${field}`, unchanged),
    );
    if (max !== undefined) {
      table.push(
        patch(`${field} at its maximum ${max} is Updated`, { [field]: max }, 200, "Updated", stored({ [field]: max })),
        patch(`${field} just above its maximum (${justAbove(max)}) is 400 Invalid ${field}`, { [field]: justAbove(max) }, 400, `Invalid ${field}`, unchanged),
        patch(`${field} as the string "${justAbove(max)}" is 400 Invalid ${field}`, { [field]: String(justAbove(max)) }, 400, `Invalid ${field}`, unchanged),
      );
    } else {
      table.push(patch(`${field} has no maximum: 1e9 is Updated`, { [field]: 1e9 }, 200, "Updated", stored({ [field]: 1e9 })));
    }
  }
  runTable(table, makeWorld);
});

describe("the body as a whole", () => {
  const noBody = (name: string, url: string, status: number, text: string, after: Scenario["after"], headers?: Record<string, string>): Scenario => ({
    name,
    method: "PATCH",
    url,
    as: "alice",
    headers,
    status,
    text,
    after,
  });
  runTable(
    [
      patch("several fields at once are all stored", { status: "Fermenting", measuredOg: 1.061, measuredFg: "1.012", carbonationTemp: -50 }, 200, "Updated",
        stored({ status: "Fermenting", measuredOg: 1.061, measuredFg: 1.012, carbonationTemp: -50 })),
      patch("the first failing field in the document's order is named", { carbonationTemp: 101, measuredFg: 2, measuredOg: 2 }, 400, "Invalid measuredOg", unchanged),
      patch("one bad field refuses the whole body", { status: "Brewing", measuredOg: 1.06, measuredBoilSize: -1 }, 400, "Invalid measuredBoilSize", unchanged),
      patch("an empty object is Nothing to update", {}, 200, "Nothing to update", unchanged),
      patch("only unknown fields is Nothing to update", { foo: 1, name: "Renamed", measuredAbv: 6 }, 200, "Nothing to update", unchanged),
      patch("unknown fields beside a known one are ignored and not stored", { status: "Brewing", foo: 1, name: "Renamed", _id: "hijack", brewer: "Eve" }, 200, "Updated",
        async (w) => {
          await stored({ status: "Brewing" })(w);
          expect(await w.h.store.get("alice", "batch", "hijack")).toBeUndefined();
        }),
      noBody("no body at all is Nothing to update (decisions, Batches)", "/v2/batches/b-pale", 200, "Nothing to update", unchanged),
      noBody("no body with a JSON content type is Nothing to update", "/v2/batches/b-pale", 200, "Nothing to update", unchanged, { "content-type": "application/json" }),
      { ...patch("a body of white space counts as no body", undefined, 200, "Nothing to update", unchanged), raw: " \n ", headers: { "content-type": "application/json" } },
      { ...patch("application/json with a charset is JSON", undefined, 200, "Updated", stored({ status: "Brewing" })), raw: '{"status":"Brewing"}', headers: { "content-type": "application/json; charset=utf-8" } },
      { ...patch("an application/*+json type is JSON (decisions, HTTP)", undefined, 200, "Updated", stored({ status: "Brewing" })), raw: '{"status":"Brewing"}', headers: { "content-type": "application/merge-patch+json" } },
      noBody("fields as query parameters without body or content type are applied", "/v2/batches/b-pale?status=Conditioning&measuredOg=1.052", 200, "Updated",
        stored({ status: "Conditioning", measuredOg: 1.052 })),
      noBody("query fields with a non-JSON content type but no body are applied (415 needs a body)", "/v2/batches/b-pale?status=Brewing", 200, "Updated",
        stored({ status: "Brewing" }), { "content-type": "text/plain" }),
      noBody("a query value that is not a number is 400", "/v2/batches/b-pale?measuredOg=abc", 400, "Invalid measuredOg", unchanged),
      noBody("a query value out of bounds is 400", "/v2/batches/b-pale?measuredMashPh=14.01", 400, "Invalid measuredMashPh", unchanged),
      noBody("a query status not of the six is 400", "/v2/batches/b-pale?status=Bad", 400, "Invalid status", unchanged),
      noBody("only unknown query parameters is Nothing to update", "/v2/batches/b-pale?foo=1&name=x", 200, "Nothing to update", unchanged),
      { ...patch("a JSON body wins over the query: the query is not read", { status: "Brewing" }, 200, "Updated", stored({ status: "Brewing" })),
        url: "/v2/batches/b-pale?status=Completed&measuredOg=1.06" },
      { ...patch("an unknown id is 404 Not Found", { status: "Brewing" }, 404, "Not Found", unchanged), url: "/v2/batches/no-such-id" },
      { ...patch("an unknown id with a bad body is 404, not 400 (decisions, HTTP)", { status: "Bad" }, 404, "Not Found", unchanged), url: "/v2/batches/no-such-id" },
      { ...patch("an unknown id with an empty body is 404", {}, 404, "Not Found", unchanged), url: "/v2/batches/no-such-id" },
      noBody("an unknown id with query fields is 404", "/v2/batches/no-such-id?status=Brewing", 404, "Not Found", unchanged),
    ],
    makeWorld,
  );
});
