// Boundary cases for every bound the API document states: the edge is valid, just past it is
// refused with exactly one issue naming the path and the broken keyword.
import { describe, expect, test } from "bun:test";
import { validateBatch, validateIngredient, validateReading, validateRecipe, type ValidationIssue } from "../../src/schema";
import { BATCH_BOUNDS, INGREDIENT_BOUNDS, READING_BOUNDS, RECIPE_BOUNDS, justAbove, justBelow, type Bound } from "./bounds";
import * as samples from "./samples";

type Validate = (doc: unknown) => ValidationIssue[];

function boundaryCases(kind: string, bounds: Bound[], sample: () => Record<string, unknown>, validate: Validate) {
  const withValue = (path: string, value: number) => {
    const doc = sample();
    samples.setPath(doc, path, value);
    return validate(doc);
  };
  describe(`${kind} bounds`, () => {
    test(`the ${kind} sample is valid`, () => {
      expect(validate(sample())).toEqual([]);
    });
    for (const { path, min, max } of bounds) {
      if (min !== undefined) {
        test(`${path} ${min} is valid`, () => {
          expect(withValue(path, min)).toEqual([]);
        });
        test(`${path} ${justBelow(min)} is invalid with rule minimum at path ${path}`, () => {
          expect(withValue(path, justBelow(min))).toEqual([{ path, rule: "minimum", message: `${path} must be >= ${min}` }]);
        });
      }
      if (max !== undefined) {
        test(`${path} ${max} is valid`, () => {
          expect(withValue(path, max)).toEqual([]);
        });
        test(`${path} ${justAbove(max)} is invalid with rule maximum at path ${path}`, () => {
          expect(withValue(path, justAbove(max))).toEqual([{ path, rule: "maximum", message: `${path} must be <= ${max}` }]);
        });
      }
    }
  });
}

boundaryCases("recipe", RECIPE_BOUNDS, samples.recipe, validateRecipe);
boundaryCases("batch", BATCH_BOUNDS, samples.batch, validateBatch);
boundaryCases("reading", READING_BOUNDS, samples.reading, validateReading);
boundaryCases("inventory fermentable", [...INGREDIENT_BOUNDS.fermentables], samples.fermentable, (d) => validateIngredient("fermentables", d));
boundaryCases("inventory hop", [...INGREDIENT_BOUNDS.hops], samples.hop, (d) => validateIngredient("hops", d));
boundaryCases("inventory misc", [...INGREDIENT_BOUNDS.miscs], samples.misc, (d) => validateIngredient("miscs", d));
boundaryCases("inventory yeast", [...INGREDIENT_BOUNDS.yeasts], samples.yeast, (d) => validateIngredient("yeasts", d));
boundaryCases("inventory hop PATCH", [...INGREDIENT_BOUNDS.hops], () => ({}), (d) => validateIngredient("hops", d, { partial: true }));
