// Properties over generated documents: in-bound values are valid, any single out-of-bound value
// gives exactly one issue naming its path, unknown fields are accepted and nothing is changed.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { validateBatch, validateIngredient, validateRecipe, type ValidationIssue } from "../../src/schema";
import { BATCH_BOUNDS, INGREDIENT_BOUNDS, RECIPE_BOUNDS, type Bound } from "./bounds";
import * as samples from "./samples";

type Doc = Record<string, unknown>;

const inBounds = ({ min, max }: Bound) =>
  fc.double({ min: min ?? (max ?? 0) - 1e6, max: max ?? (min ?? 0) + 1e6, noNaN: true, noDefaultInfinity: true });

// Unknown keys carry a prefix no documented field has.
const unknownFields = fc.dictionary(fc.string({ maxLength: 12 }).map((k) => `x-${k}`), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

/** A valid document: the sample with every bounded field drawn in bounds, plus unknown fields. */
function validDoc(sample: () => Doc, bounds: Bound[]): fc.Arbitrary<Doc> {
  return fc.tuple(fc.tuple(...bounds.map(inBounds)), unknownFields).map(([values, extra]) => {
    const doc = { ...sample(), ...extra };
    bounds.forEach((b, i) => samples.setPath(doc, b.path, values[i]));
    return doc;
  });
}

/** One bound, one side of it, and a distance past it. */
function outOfBound(bounds: Bound[]) {
  const sides = bounds.flatMap((b) => [
    ...(b.min !== undefined ? [{ path: b.path, rule: "minimum", edge: b.min, sign: -1 }] : []),
    ...(b.max !== undefined ? [{ path: b.path, rule: "maximum", edge: b.max, sign: 1 }] : []),
  ]);
  return fc.tuple(fc.constantFrom(...sides), fc.double({ min: 1e-6, max: 1e6, noNaN: true }));
}

function singleViolation(kind: string, sample: () => Doc, bounds: Bound[], validate: (d: unknown) => ValidationIssue[]) {
  describe(kind, () => {
    test(`a ${kind} with every bounded field in bounds and unknown fields is valid`, () => {
      fc.assert(fc.property(validDoc(sample, bounds), (doc) => {
        expect(validate(doc)).toEqual([]);
      }));
    });
    test(`any single out-of-bound value on an otherwise valid ${kind} yields exactly one issue naming that path`, () => {
      fc.assert(fc.property(validDoc(sample, bounds), outOfBound(bounds), (doc, [side, distance]) => {
        samples.setPath(doc, side.path, side.edge + side.sign * distance);
        const issues = validate(doc);
        expect(issues).toHaveLength(1);
        expect(issues[0]!.path).toBe(side.path);
        expect(issues[0]!.rule).toBe(side.rule);
        expect(issues[0]!.message.startsWith(`${side.path} must be `)).toBe(true);
      }));
    });
  });
}

singleViolation("recipe", samples.recipe, RECIPE_BOUNDS, validateRecipe);
singleViolation("batch", samples.batch, BATCH_BOUNDS, validateBatch);
singleViolation("hop", samples.hop, [...INGREDIENT_BOUNDS.hops], (d) => validateIngredient("hops", d));
singleViolation("fermentable", samples.fermentable, [...INGREDIENT_BOUNDS.fermentables], (d) => validateIngredient("fermentables", d));

describe("validation only", () => {
  test("validating a recipe with unknown fields at every level leaves it unchanged", () => {
    fc.assert(fc.property(validDoc(samples.recipe, RECIPE_BOUNDS), unknownFields, (doc, extra) => {
      Object.assign((doc.fermentables as Doc[])[0]!, extra);
      Object.assign(doc.water as object, extra);
      const before = structuredClone(doc);
      expect(validateRecipe(doc)).toEqual([]);
      expect(doc).toEqual(before);
    }));
  });

  test("issues come out sorted by path, then rule, for any set of broken fields", () => {
    const broken = fc.subarray(RECIPE_BOUNDS.filter((b) => b.max !== undefined), { minLength: 1 });
    fc.assert(fc.property(broken, fc.boolean(), (bounds, asText) => {
      const doc = samples.recipe() as Doc;
      for (const b of bounds) samples.setPath(doc, b.path, asText ? "text" : b.max! + 1);
      const issues = validateRecipe(doc);
      expect(issues).toHaveLength(bounds.length);
      expect(validateRecipe(structuredClone(doc))).toEqual(issues);
      const resorted = [...issues].sort((a, b) => comparePathsForTest(a.path, b.path) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
      expect(issues).toEqual(resorted);
    }));
  });
});

// An independent statement of the order: segment by segment, indices as numbers.
function comparePathsForTest(a: string, b: string): number {
  const as = a.split("."), bs = b.split(".");
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    if (as[i] === undefined) return -1;
    if (bs[i] === undefined) return 1;
    if (as[i] === bs[i]) continue;
    const na = Number(as[i]), nb = Number(bs[i]);
    if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb;
    return as[i]! < bs[i]! ? -1 : 1;
  }
  return 0;
}
