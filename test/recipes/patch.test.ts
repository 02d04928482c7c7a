// Recipe PATCH (API document: Endpoints › Recipes rule 2, "Update merges shallowly"; Errors) and
// docs/decisions.md (HTTP: precedence 401, 403, 404, 400). Every scenario checks what was stored after.
import { describe, expect, test } from "bun:test";
import { paleAle } from "./fixtures.ts";
import { openWorld, runTable, type Doc, type Scenario, type World } from "./harness.ts";

/** One imported recipe with fixed contents, so the tables can name exact results. */
const STORED: Doc = {
  _id: "r-1",
  name: "Stored",
  author: "Ann",
  type: "All Grain",
  batchSize: 20,
  efficiency: 72,
  og: 1.05,
  fg: 1.01,
  ibu: 30,
  color: 8,
  abv: 5.25,
  style: { name: "Bitter", category: "British", ogMin: 1.03 },
  hops: [{ name: "Fuggle", alpha: 4.5, amount: 30, use: "Boil", time: 60 }, { name: "Goldings", alpha: 5, amount: 20, use: "Boil", time: 10 }],
  notes: "old notes",
  ogPlato: 12.4,
};
const makeWorld = () => openWorld({ alice: { recipes: [STORED] } });
const JSON_TYPE = { "content-type": "application/json" };

async function storedText(w: World): Promise<string> {
  return (await w.call("GET", "/v2/recipes/r-1", "alice")).text;
}
/** The client's part of the stored recipe after the call. */
async function clientFields(w: World): Promise<Doc> {
  const doc = await w.read("r-1");
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith("_") && !["createdAt", "updatedAt", "data"].includes(k)));
}
const withoutServer = (doc: Doc) => Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith("_")));
/** The stored recipe is exactly as imported: not a byte was written. */
const untouched = async (w: World) => expect(await storedText(w)).toBe(JSON.stringify(sortDeep(STORED)));

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep((v as Doc)[k])]));
}

const patch = (name: string, body: unknown, status: number, rest: Partial<Scenario> = {}): Scenario => ({ name, method: "PATCH", url: "/v2/recipes/r-1", as: "alice", body, status, ...rest });
/** After an accepted PATCH: the client's fields equal the stored ones with these replaced. */
const merged = (changes: Doc) => async (w: World) => {
  const fields = await clientFields(w);
  const expected = { ...withoutServer(STORED), ...changes };
  // A hop's `ibu` is calculated: compare the rest of each hop.
  const hops = (fields.hops as Doc[] | undefined)?.map(({ ibu: _ibu, ...h }) => h);
  expect({ ...fields, ...(hops ? { hops } : {}) }).toMatchObject(expected);
  for (const k of Object.keys(expected)) expect([k, k in fields]).toEqual([k, true]);
};

describe("PATCH /v2/recipes/{id}: shallow merge", () => {
  runTable(
    [
      patch("a top-level field is replaced, the others are kept: 200 Updated", { notes: "new notes" }, 200, { text: "Updated", after: merged({ notes: "new notes" }) }),
      patch("an object field is replaced whole, not merged into", { style: { name: "Mild" } }, 200, {
        text: "Updated",
        after: async (w) => expect((await w.read("r-1")).style).toEqual({ name: "Mild" }),
      }),
      patch("an array replaces the whole array: one hop sent, one hop stored", { hops: [{ name: "Target", alpha: 11, amount: 15, use: "Boil", time: 60 }] }, 200, {
        text: "Updated",
        after: async (w) => expect((await w.read("r-1")).hops.map(({ ibu: _i, ...h }: Doc) => h)).toEqual([{ name: "Target", alpha: 11, amount: 15, use: "Boil", time: 60 }]),
      }),
      patch("an empty array empties the list", { hops: [] }, 200, { text: "Updated", after: async (w) => expect((await w.read("r-1")).hops).toEqual([]) }),
      patch("null is stored where the field allows it (author string|null)", { author: null }, 200, { text: "Updated", after: merged({ author: null }) }),
      patch("an unknown field is added and kept beside the stored unknown field", { brewNotes: { boil: "vigorous" } }, 200, {
        text: "Updated",
        after: merged({ brewNotes: { boil: "vigorous" }, ogPlato: 12.4 }),
      }),
      patch("several fields at once each replace their stored field", { name: "Renamed", author: "Bo", type: "Extract" }, 200, {
        text: "Updated",
        after: merged({ name: "Renamed", author: "Bo", type: "Extract" }),
      }),
      patch("a new batch size is stored; the imported figures follow it (calculations.test.ts)", { batchSize: 25 }, 200, {
        text: "Updated",
        after: async (w) => {
          const fields = await clientFields(w);
          const { og: _og, fg: _fg, ibu: _ibu, color: _color, abv: _abv, ...rest } = withoutServer(STORED);
          expect(fields).toMatchObject({ ...rest, batchSize: 25, og: 1, fg: 1, color: 0, abv: 0 });
          // IBU follows the hops at the new size: the sum of each hop's own (each rounded to 0.1, so the
          // sum is within 0.05 a hop of the recipe's figure), no longer the imported 30.
          const hopIbus = (fields.hops as Doc[]).map((h) => h.ibu as number);
          expect(Math.abs((fields.ibu as number) - hopIbus.reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(0.05 * hopIbus.length + 1e-9);
          expect(fields.ibu).not.toBe(30);
        },
      }),
      patch("an empty object is 200 Nothing to update and writes nothing", {}, 200, { text: "Nothing to update", after: untouched }),
      patch("the same value again is still a write: 200 Updated", { name: "Stored" }, 200, { text: "Updated", after: merged({ name: "Stored" }) }),
    ],
    makeWorld,
  );

  test("list entries follow a PATCH of a default field (name, equipment.name)", async () => {
    const w = await makeWorld();
    expect((await w.call("PATCH", "/v2/recipes/r-1", "alice", { body: { name: "Renamed", equipment: { name: "New kettle" } } })).text).toBe("Updated");
    expect((await w.call("GET", "/v2/recipes", "alice")).json()).toEqual([{ _id: "r-1", author: "Ann", equipment: { name: "New kettle" }, name: "Renamed", style: { name: "Bitter" }, type: "All Grain" }]);
  });
});

describe("PATCH /v2/recipes/{id}: the merged recipe is validated; nothing is stored when invalid", () => {
  runTable(
    [
      patch("efficiency 34 is 400 with one issue, nothing stored", { efficiency: 34 }, 400, { json: [{ path: "efficiency", rule: "minimum", message: "efficiency must be >= 35" }], after: untouched }),
      patch("a valid field beside an invalid one is not stored either", { notes: "x", og: 1.3 }, 400, { json: [{ path: "og", rule: "maximum", message: "og must be <= 1.2" }], after: untouched }),
      patch("an empty name is refused: the merged recipe needs a name", { name: "" }, 400, { json: [{ path: "name", rule: "minLength", message: "name must not be empty" }], after: untouched }),
      patch("a null name is refused", { name: null }, 400, { json: [{ path: "name", rule: "type", message: "name must be string" }], after: untouched }),
      patch("a non-array hops is refused", { hops: { name: "Saaz" } }, 400, { json: [{ path: "hops", rule: "type", message: "hops must be array" }], after: untouched }),
      patch("an ingredient's issue names its index", { hops: [{ name: "A", time: 30 }, { name: "B", time: -1 }] }, 400, {
        json: [{ path: "hops.1.time", rule: "minimum", message: "hops.1.time must be >= 0" }],
        after: untouched,
      }),
      patch("each problem is one issue, sorted by path", { batchSize: 0, carbonation: 9, style: { ogMin: "1.03" } }, 400, {
        json: [
          { path: "batchSize", rule: "minimum", message: "batchSize must be >= 0.5" },
          { path: "carbonation", rule: "maximum", message: "carbonation must be <= 5" },
          { path: "style.ogMin", rule: "type", message: "style.ogMin must be number or null" },
        ],
        after: untouched,
      }),
    ],
    makeWorld,
  );
});

describe("PATCH /v2/recipes/{id}: body errors and precedence", () => {
  const missing = (s: Scenario): Scenario => ({ ...s, name: `on an unknown id: ${s.name.split(" is ")[0]} is 404 Not Found first`, url: "/v2/recipes/no-such-id", status: 404, text: "Not Found", json: undefined });
  const BAD: Scenario[] = [
    patch("no body is 400 Missing body", undefined, 400, { text: "Missing body", after: untouched }),
    patch("an empty body with a JSON content type is 400 Missing body", undefined, 400, { raw: "", headers: JSON_TYPE, text: "Missing body", after: untouched }),
    patch("malformed JSON is 400 Invalid JSON", undefined, 400, { raw: '{"name":', headers: JSON_TYPE, text: "Invalid JSON", after: untouched }),
    patch("a JSON array is 400 Body must be a JSON object", [{ name: "x" }], 400, { text: "Body must be a JSON object", after: untouched }),
    patch("a form body is 415", undefined, 415, { raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" }, text: "Content-Type must be application/json", after: untouched }),
    patch("a schema failure is 400 with the issues", { efficiency: 101 }, 400, { json: [{ path: "efficiency", rule: "maximum", message: "efficiency must be <= 100" }], after: untouched }),
  ];
  runTable(
    [
      ...BAD,
      ...BAD.map((s) => ({ ...missing(s), after: untouched })),
      patch("an unknown id is 404 Not Found", { name: "x" }, 404, { url: "/v2/recipes/no-such-id", text: "Not Found", after: untouched }),
      patch("another account's recipe is 404 Not Found", { name: "x" }, 404, { as: "bob", text: "Not Found", after: untouched }),
      patch("an empty id is 400 Missing ID", { name: "x" }, 400, { url: "/v2/recipes/", text: "Missing ID", after: untouched }),
      patch("the reader key is 403 Forbidden before any body check", undefined, 403, { as: "reader", text: "Forbidden", after: untouched }),
      patch("query parameters are not a recipe PATCH body: 400 Missing body", undefined, 400, { url: "/v2/recipes/r-1?name=x", text: "Missing body", after: untouched }),
    ],
    makeWorld,
  );
});

test("a recipe created by POST is PATCHed and read back merged", async () => {
  const w = await openWorld();
  const body = paleAle();
  const id = await w.create(body);
  const before = await w.read(id);
  expect((await w.call("PATCH", `/v2/recipes/${id}`, "alice", { body: { teaser: "Now hazy", miscs: [] } })).text).toBe("Updated");
  const after = await w.read(id);
  expect({ teaser: after.teaser, miscs: after.miscs, yeasts: after.yeasts, water: after.water, ogPlato: after.ogPlato }).toEqual({
    teaser: "Now hazy", miscs: [], yeasts: before.yeasts, water: before.water, ogPlato: 12.4,
  });
});
