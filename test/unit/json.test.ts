// Canonical JSON and projections (src/lib/json.ts). API document: "List endpoints return properties
// in alphabetical key order"; `include` dot paths; docs/decisions.md: missing fields are omitted, a
// path that crosses an array stops there, JSON deeper than 64 levels is refused.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalJson, depthOf, MAX_DEPTH, projector, sortKeys } from "../../src/lib/json.ts";

const keysSorted = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.every(keysSorted)
    : v === null || typeof v !== "object"
      ? true
      : Object.keys(v).join("\u0000") === Object.keys(v).sort().join("\u0000") && Object.values(v).every(keysSorted);

// JavaScript objects list integer-like keys ("0", "12") first whatever their insertion order, and
// `__proto__` is no ordinary key: documents here use other keys (test/unit/json-keys.test.ts has those).
const jsonDoc = fc.object({
  key: fc.string().filter((k) => !/^\d+$/.test(k) && k !== "__proto__"),
  values: [fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.constant(null)],
  maxDepth: 4,
});

describe("sortKeys", () => {
  test("orders keys alphabetically at every level, inside arrays too, keeping array order", () => {
    const out = sortKeys({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null }, _id: "x", B: true });
    expect(JSON.stringify(out)).toBe('{"B":true,"_id":"x","a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
  });
  test("drops undefined members, as JSON text would", () => {
    expect(JSON.stringify(sortKeys({ b: undefined, a: 1 }))).toBe('{"a":1}');
  });
  test("leaves scalars alone", () => {
    for (const v of [null, 0, -1.5, "s", true]) expect(sortKeys(v)).toBe(v);
  });
  test("for any JSON object: same value, keys sorted everywhere, and sorting again changes nothing", () => {
    fc.assert(
      fc.property(jsonDoc, (v) => {
        const once = sortKeys(v);
        expect(once).toEqual(v as any);
        expect(keysSorted(once)).toBe(true);
        expect(JSON.stringify(sortKeys(once))).toBe(JSON.stringify(once));
      }),
      { numRuns: 500 },
    );
  });
});

describe("depthOf", () => {
  const nest = (n: number) => {
    let v: unknown = 1;
    for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };
  const cases: Array<[string, unknown, number]> = [
    ["a scalar has depth 0", 5, 0],
    ["null has depth 0", null, 0],
    ["an empty object has depth 1", {}, 1],
    ["an empty array has depth 1", [], 1],
    ["an object of scalars has depth 1", { a: 1, b: "x" }, 1],
    ["the deepest branch counts", { a: { b: { c: 1 } }, d: [1, [2]] }, 3],
    ["64 levels are 64", nest(64), 64],
  ];
  for (const [name, value, depth] of cases) test(name, () => expect(depthOf(value)).toBe(depth));
  test("stops counting past the limit instead of walking the whole value", () => {
    expect(depthOf(nest(10), 3)).toBe(4);
    expect(depthOf(nest(65))).toBe(MAX_DEPTH + 1);
  });
  test("100,000 levels are measured without overflowing the stack", () => {
    expect(depthOf(nest(100_000), 200_000)).toBe(100_000);
  });
});

describe("projector", () => {
  const batch = {
    status: "Planning",
    _id: "b1",
    name: "Pale",
    brewer: null,
    recipe: { name: "R", mash: { name: "M", steps: [{ a: 1 }] }, fermentation: { name: "F" }, hops: [{ name: "H" }] },
  };
  const project = (doc: object, paths: string[]) => JSON.parse(projector(paths)(doc as Record<string, unknown>));
  const cases: Array<[string, string[], unknown]> = [
    ["top-level paths copy those fields only", ["_id", "name"], { _id: "b1", name: "Pale" }],
    ["a null value is kept (present, not missing)", ["brewer"], { brewer: null }],
    ["missing fields are omitted, not null", ["batchNo", "brewDate", "name"], { name: "Pale" }],
    ["a dot path builds the nested object", ["recipe.name"], { recipe: { name: "R" } }],
    ["two dot paths under one parent merge", ["recipe.name", "recipe.mash"], { recipe: { mash: { name: "M", steps: [{ a: 1 }] }, name: "R" } }],
    ["a whole object asked beside one of its fields stays whole", ["recipe.name", "recipe"], { recipe: batch.recipe }],
    ["the whole object asked first stays whole", ["recipe", "recipe.name"], { recipe: batch.recipe }],
    ["a path through an array stops there", ["recipe.hops.name"], {}],
    ["a path through a scalar stops there", ["name.length"], {}],
    ["a missing parent yields nothing", ["style.name"], {}],
    ["an inherited name is not a member", ["constructor", "recipe.toString"], {}],
    ["no paths give an empty object", [], {}],
  ];
  for (const [name, paths, expected] of cases) {
    test(name, () => expect(project(batch, paths)).toEqual(expected as any));
  }
  test("the text has alphabetical keys at every level", () => {
    const out = projector(["status", "recipe.name", "_id", "recipe.fermentation", "brewer"])(batch);
    expect(out).toBe('{"_id":"b1","brewer":null,"recipe":{"fermentation":{"name":"F"},"name":"R"},"status":"Planning"}');
  });
  test("projecting does not change the source document", () => {
    const copy = structuredClone(batch);
    projector(["recipe.name", "recipe", "name"])(batch);
    expect(batch).toEqual(copy);
  });

  // A model: the members at each path copied into a new object one path at a time, then serialised.
  function model(doc: Record<string, unknown>, paths: string[]): string {
    const plain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
    const out: Record<string, unknown> = {};
    const whole = new Set<string>();
    for (const path of paths) {
      const parts = path.split(".");
      let src: unknown = doc;
      if (!parts.every((p) => plain(src) && Object.hasOwn(src, p) && ((src = src[p]), true))) continue;
      let dst = out;
      let prefix = "";
      let covered = false;
      for (const p of parts.slice(0, -1)) {
        prefix += p + ".";
        if (whole.has(prefix)) covered = true;
        if (!plain(dst[p])) dst[p] = {};
        dst = dst[p] as Record<string, unknown>;
      }
      if (covered) continue;
      whole.add(path + ".");
      dst[parts.at(-1)!] = structuredClone(src);
    }
    return canonicalJson(out);
  }
  const segment = fc.constantFrom("a", "b", "B", "_id", "name", "x y", "é", "");
  const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("."));
  const nested: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(null, 1, "s", true),
      fc.dictionary(segment, tie("node"), { maxKeys: 4 }),
      fc.array(tie("node"), { maxLength: 2 }),
    ),
  })).node;
  test("for any document and paths: the model's canonical text", () => {
    fc.assert(
      fc.property(fc.dictionary(segment, nested, { maxKeys: 6 }), fc.array(path, { maxLength: 5 }), (doc, paths) => {
        expect(projector(paths)(doc)).toBe(model(doc, paths));
      }),
      { numRuns: 1000 },
    );
  });
});
