// Every real object of the hosted service in the reference folder must be accepted. The folder
// is not part of the repository: these tests run only where it exists.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { validateBatch, validateBrewTracker, validateIngredient, validateReading, validateRecipe, type IngredientCollection, type ValidationIssue } from "../../src/schema";

const DIR = "/work/shared/fixtures/brewfather";
const present = existsSync(DIR);

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith(".json") ? [path] : [];
  });
}

/** Which validator a file's objects go to, from its name; null for derived tables and field lists. */
function validatorFor(name: string): ((doc: unknown) => ValidationIssue[]) | null {
  if (name.startsWith("_") || name.includes("field_paths")) return null;
  const inventory = /inventory_(fermentables|hops|miscs|yeasts)_/.exec(name);
  if (inventory) return (doc) => validateIngredient(inventory[1] as IngredientCollection, doc);
  if (/RECIPE_|recipe\.json$/.test(name)) return validateRecipe;
  if (/readings/.test(name)) return validateReading;
  if (/brewtracker/.test(name)) return validateBrewTracker;
  if (/batch/.test(name)) return validateBatch;
  throw new Error(`no validator for ${name}`);
}

describe("real objects of the hosted service", () => {
  const files = present ? jsonFiles(DIR).map((path) => relative(DIR, path)).sort() : [];

  test.skipIf(!present)("the reference folder holds recipes, batches, readings, trackers and inventory items", () => {
    const kinds = new Set(files.map((f) => validatorFor(f)?.name ?? null));
    expect(files.filter((f) => validatorFor(f) !== null).length).toBeGreaterThanOrEqual(25);
    expect(kinds.has("validateRecipe") && kinds.has("validateBatch") && kinds.has("validateReading") && kinds.has("validateBrewTracker")).toBe(true);
  });

  for (const name of files) {
    const validate = validatorFor(name);
    if (!validate) continue;
    test.skipIf(!present)(`${name} is accepted`, () => {
      const parsed: unknown = JSON.parse(readFileSync(join(DIR, name), "utf8"));
      const docs = Array.isArray(parsed) ? parsed : [parsed];
      expect(docs.length).toBeGreaterThan(0);
      expect(docs.map((doc, i) => ({ i, issues: validate(doc) })).filter((r) => r.issues.length > 0)).toEqual([]);
    });
  }
});
