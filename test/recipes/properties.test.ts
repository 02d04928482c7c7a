// Properties of the recipe endpoints (API document: Endpoints › Recipes rules 1–3; Limits › Recipe
// bounds; Errors). Every input comes from the arbitraries; fast-check prints the seed of a failure.
import { beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { validRecipe } from "./arbitraries.ts";
import { BOUNDS, boundsBase, issueFor, rootOf, setPath } from "./bounds.ts";
import { asJson, clientPart, CLIENT_OR_CALCULATED, DOCUMENTED_FIELDS } from "./fixtures.ts";
import { openWorld, type Doc, type World } from "./harness.ts";

let w: World;
beforeAll(async () => {
  // One world for every run: each run works on the recipe it created.
  w = await openWorld();
});

const clientSet = (...docs: Doc[]) => CLIENT_OR_CALCULATED.filter((f) => docs.some((d) => f in d));

/** Settings a new recipe gets written in when it names none (docs/decisions.md, Recipes). */
const SETTINGS = ["batchSize", "boilTime", "efficiency", "ibuFormula", "path"];
/** The stored client part without the settings written in at create, after checking what was written. */
function withoutSettingsWritten(doc: Doc, sent: Doc): Doc {
  const out = { ...doc };
  for (const k of SETTINGS) {
    if (sent[k] !== undefined) continue;
    const v = doc[k];
    if (k === "path") expect([k, v]).toEqual([k, "/"]);
    else if (k === "ibuFormula") expect([k, v]).toEqual([k, "tinseth"]);
    else expect([k, typeof v === "number" && Number.isFinite(v) && v >= 0]).toEqual([k, true]);
    delete out[k];
  }
  return out;
}

test("any recipe that validates is created and reads back equal, except server-managed and calculated fields", async () => {
  await fc.assert(
    fc.asyncProperty(validRecipe, async (recipe) => {
      const id = await w.create(recipe);
      const doc = await w.read(id);
      expect(withoutSettingsWritten(clientPart(doc, clientSet(recipe)), recipe)).toEqual(asJson(recipe));
      expect([doc._id, doc._uid, doc._type, doc._public]).toEqual([id, "alice", "recipe", false]);
      // Figures the client did not send are filled in as finite numbers.
      for (const f of CLIENT_OR_CALCULATED) if (!(f in recipe)) expect([f, Number.isFinite(doc[f])]).toEqual([f, true]);
    }),
    { numRuns: 60 },
  );
});

const outside = fc.constantFrom(...BOUNDS).chain((b) => {
  // fast-check orders -0 below 0, but JSON has one zero: -0 is sent as 0, inside the bound.
  const below = fc.double({ min: b.min - 1e6, max: b.min, maxExcluded: true, noNaN: true }).filter((v) => !Object.is(v, -0)).map((v) => ({ b, side: "below" as const, v }));
  if (b.max === undefined) return below;
  const above = fc.double({ min: b.max, max: b.max + 1e6, minExcluded: true, noNaN: true }).map((v) => ({ b, side: "above" as const, v }));
  return fc.oneof(below, above);
});

test("any single out-of-bound value is refused with one issue naming its path, on create and on update, and nothing is stored", async () => {
  const target = await w.create({ name: "Target" });
  const targetText = (await w.call("GET", `/v2/recipes/${target}`, "alice")).text;
  await fc.assert(
    fc.asyncProperty(validRecipe, outside, async (recipe, { b, side, v }) => {
      // A valid recipe, given the bounded value's whole root field from a recipe that has the path.
      const root = rootOf(b.path);
      const body = setPath({ ...recipe, [root]: boundsBase()[root] }, b.path, v);
      const countBefore = (await w.call("GET", "/v2/recipes?limit=50", "alice")).json().length;
      const created = await w.call("POST", "/v2/recipes", "alice", { body });
      expect([created.status, created.json()]).toEqual([400, [issueFor(b, side)]]);
      expect((await w.call("GET", "/v2/recipes?limit=50", "alice")).json().length).toBe(countBefore);
      const patched = await w.call("PATCH", `/v2/recipes/${target}`, "alice", { body: { [root]: body[root] } });
      expect([patched.status, patched.json()]).toEqual([400, [issueFor(b, side)]]);
      expect((await w.call("GET", `/v2/recipes/${target}`, "alice")).text).toBe(targetText);
    }),
    { numRuns: 150 },
  );
});

/** A PATCH body: a non-empty subset of another valid recipe's fields. */
const patchOf = validRecipe.chain((source) =>
  fc.subarray(Object.keys(source), { minLength: 1 }).map((keys) => Object.fromEntries(keys.map((k) => [k, source[k]]))),
);

test("PATCH of any subset of fields equals a shallow merge over the stored recipe", async () => {
  await fc.assert(
    fc.asyncProperty(validRecipe, patchOf, async (recipe, patch) => {
      const id = await w.create(recipe);
      const before = await w.read(id);
      const res = await w.call("PATCH", `/v2/recipes/${id}`, "alice", { body: patch });
      expect([res.status, res.text]).toEqual([200, "Updated"]);
      const after = await w.read(id);
      const written = Object.fromEntries(SETTINGS.filter((k) => recipe[k] === undefined).map((k) => [k, before[k]]));
      expect(clientPart(after, clientSet(recipe, patch))).toEqual(asJson({ ...recipe, ...written, ...patch }));
      expect([after._id, after._uid, after._type, after._created, after.createdAt]).toEqual([id, "alice", "recipe", before._created, before.createdAt]);
      expect(after._rev).not.toBe(before._rev);
    }),
    { numRuns: 60 },
  );
});

/** Any JSON under the document's field names, ingredient fields and equipment fields: mostly invalid. */
const anyBody = fc.dictionary(
  fc.constantFrom(...DOCUMENTED_FIELDS, "name", "unknownField"),
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.array(fc.dictionary(fc.constantFrom("name", "amount", "alpha", "time", "use", "potential", "color", "attenuation", "temp", "type"), fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("name", "batchSize", "boilTime", "boilOffPerHr", "trubChillerLoss", "calcBoilVolume", "boilSize", "waterGrainRatio", "calcStrikeWaterTemperature", "grainTemperature", "steps"), fc.jsonValue({ maxDepth: 2 })),
  ),
  { maxKeys: 10 },
).chain((body) => fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }).map((name) => (name === undefined ? body : { ...body, name })));

test("any JSON object is answered 201 with finite figures or 400 with well-formed issues, on create and update; never a failure", async () => {
  const target = await w.create({ name: "Target" });
  const isIssue = (i: Doc) => Object.keys(i).sort().join() === "message,path,rule" && typeof i.path === "string" && typeof i.rule === "string" && i.message.startsWith(i.path === "" ? "document " : `${i.path} `);
  await fc.assert(
    fc.asyncProperty(anyBody, fc.boolean(), async (body, patch) => {
      const res = patch ? await w.call("PATCH", `/v2/recipes/${target}`, "alice", { body }) : await w.call("POST", "/v2/recipes", "alice", { body });
      if (res.status === 400) {
        const issues = res.json() as Doc[];
        expect([issues.length > 0, issues.every(isIssue)]).toEqual([true, true]);
        return;
      }
      expect([res.status, res.text]).toEqual(patch ? [200, expect.stringMatching(/^(Updated|Nothing to update)$/)] : [201, expect.stringMatching(/^\{"id":"\w{20}"\}$/)]);
      const doc = await w.read(patch ? target : res.json().id);
      for (const f of CLIENT_OR_CALCULATED) expect([f, Number.isFinite(doc[f])]).toEqual([f, true]);
    }),
    { numRuns: 300 },
  );
});
