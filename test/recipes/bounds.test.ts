// Recipe bounds over HTTP (API document: Limits › Recipe bounds; the bounds each nested object states;
// Endpoints › Recipes rules 1–2; Errors: "JSON array of validation errors"). Every bound is inclusive:
// its edge is accepted and kept; just outside it is refused with one issue naming the path, on
// create and on update, and nothing is stored.
import { beforeAll, describe, expect, test } from "bun:test";
import { BOUNDS, boundsBase, getPath, issueFor, rootOf, setPath, type Bound } from "./bounds.ts";
import { openWorld, type World } from "./harness.ts";

let w: World;
let target: string;
let targetText: string;
let countBefore: number;

const count = async () => (await w.call("GET", "/v2/recipes?limit=50&complete=True", "alice")).json().length;

beforeAll(async () => {
  // One world for the whole file: refused requests must leave it as it was, which each test checks.
  w = await openWorld();
  target = await w.create(boundsBase());
  targetText = (await w.call("GET", `/v2/recipes/${target}`, "alice")).text;
  countBefore = await count();
});

test("the base recipe is valid and keeps every bounded value as sent", async () => {
  const doc = await w.read(target);
  for (const b of BOUNDS.filter((x) => !x.recalculated)) expect([b.path, getPath(doc, b.path)]).toEqual([b.path, getPath(boundsBase(), b.path)]);
});

// Just outside an edge: far enough that no rounding can bring it back in.
const below = (b: Bound) => b.min - (Math.abs(b.min) >= 1 ? 0.001 : 1e-6);
const above = (b: Bound) => b.max! + (Math.abs(b.max!) >= 1 ? 0.001 : 1e-6);

describe.each(BOUNDS.map((b) => [b.path, b] as const))("%s", (_path, b) => {
  const edges: Array<["min" | "max", number]> = [["min", b.min]];
  if (b.max !== undefined) edges.push(["max", b.max]);

  for (const [label, edge] of edges) {
    test(`POST with ${b.path} = ${edge} (the ${label}) is 201 and the value reads back${b.recalculated ? " recalculated" : " equal"}`, async () => {
      const id = await w.create(setPath(boundsBase(), b.path, edge));
      const doc = await w.read(id);
      if (!b.recalculated) expect(getPath(doc, b.path)).toBe(edge);
      else expect(typeof getPath(doc, b.path)).toBe("number");
      expect((await w.call("DELETE", `/v2/recipes/${id}`, "alice")).text).toBe("Deleted");
    });
  }

  const outside: Array<["below" | "above", number]> = [["below", below(b)]];
  if (b.max !== undefined) outside.push(["above", above(b)]);
  for (const [side, value] of outside) {
    test(`POST with ${b.path} = ${value} (${side} its bound) is 400 with one issue naming ${b.path}, nothing stored`, async () => {
      const res = await w.call("POST", "/v2/recipes", "alice", { body: setPath(boundsBase(), b.path, value) });
      expect([res.status, res.json()]).toEqual([400, [issueFor(b, side)]]);
      expect(await count()).toBe(countBefore);
    });

    test(`PATCH of ${rootOf(b.path)} with ${b.path} = ${value} is 400 with the same issue, nothing stored`, async () => {
      const root = rootOf(b.path);
      const body = { [root]: setPath(boundsBase(), b.path, value)[root] };
      const res = await w.call("PATCH", `/v2/recipes/${target}`, "alice", { body });
      expect([res.status, res.json()]).toEqual([400, [issueFor(b, side)]]);
      expect((await w.call("GET", `/v2/recipes/${target}`, "alice")).text).toBe(targetText);
    });
  }
});

describe("values the bounds do not refuse", () => {
  test("batchSize has no maximum: 100000 is accepted", async () => {
    const id = await w.create(setPath(boundsBase(), "batchSize", 100_000));
    expect((await w.read(id)).batchSize).toBe(100_000);
    await w.call("DELETE", `/v2/recipes/${id}`, "alice");
  });

  test("a bounded field sent as a numeric string is refused with a type issue (recipe fields are typed JSON)", async () => {
    const res = await w.call("POST", "/v2/recipes", "alice", { body: { name: "s", efficiency: "75" } });
    expect([res.status, res.json()]).toEqual([400, [{ path: "efficiency", rule: "type", message: "efficiency must be number" }]]);
  });

  test("nullable bounded fields accept null (hop temp, fermentation ramp, water mashPh)", async () => {
    let doc = setPath(boundsBase(), "hops.0.temp", null);
    doc = setPath(doc, "fermentation.steps.0.ramp", null);
    doc = setPath(doc, "water.mashPh", null);
    const read = await w.read(await w.create(doc));
    expect([read.hops[0].temp, read.fermentation.steps[0].ramp, read.water.mashPh]).toEqual([null, null, null]);
  });

  test("og and color may not be null: they are numbers (Recipe Object)", async () => {
    const res = await w.call("POST", "/v2/recipes", "alice", { body: { name: "n", og: null, color: null } });
    expect([res.status, res.json()]).toEqual([400, [
      { path: "color", rule: "type", message: "color must be number" },
      { path: "og", rule: "type", message: "og must be number" },
    ]]);
  });
});
