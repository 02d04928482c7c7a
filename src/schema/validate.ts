// The validators: each schema's ajv code generated ahead of time (src/schema/compiled/, written by
// `bun scripts/validators.ts` from src/schema/validated.ts) and loaded on first use. Nothing compiles
// a schema at run time (compiling the batch schema took about 0.7 s of every import), and this module
// needs neither ajv nor the schemas: a command that validates loads only the code it runs. After a
// schema changes, test/schema/compiled.test.ts fails until the modules are generated again.
import type { ValidateFunction } from "ajv";
import { INGREDIENT_COLLECTIONS, type IngredientCollection } from "../resources.ts";
import { toIssues, type ValidationIssue } from "./issues";

// Each `require` names its file, so that the bundle (scripts/build.ts) puts each in a chunk of its own.
const GENERATED = {
  batch: () => require("./compiled/batch.js"),
  "batch-create": () => require("./compiled/batch-create.js"),
  recipe: () => require("./compiled/recipe.js"),
  reading: () => require("./compiled/reading.js"),
  "brew-tracker": () => require("./compiled/brew-tracker.js"),
  "fermentables-create": () => require("./compiled/fermentables-create.js"),
  "hops-create": () => require("./compiled/hops-create.js"),
  "miscs-create": () => require("./compiled/miscs-create.js"),
  "yeasts-create": () => require("./compiled/yeasts-create.js"),
  "fermentables-patch": () => require("./compiled/fermentables-patch.js"),
  "hops-patch": () => require("./compiled/hops-patch.js"),
  "miscs-patch": () => require("./compiled/miscs-patch.js"),
  "yeasts-patch": () => require("./compiled/yeasts-patch.js"),
} satisfies Record<string, () => { default: ValidateFunction }>;

export type ValidatedName = keyof typeof GENERATED;
export const VALIDATED_NAMES = Object.keys(GENERATED) as ValidatedName[];

const loaded = new Map<ValidatedName, ValidateFunction>();

export function validatorOf(name: ValidatedName): ValidateFunction {
  let validate = loaded.get(name);
  if (!validate) loaded.set(name, (validate = (GENERATED[name]() as { default: ValidateFunction }).default));
  return validate;
}

function run(name: ValidatedName, doc: unknown): ValidationIssue[] {
  const validate = validatorOf(name);
  return validate(doc) ? [] : toIssues(validate.errors);
}

/** Issues of a recipe as created or as merged by an update; [] when valid. */
export const validateRecipe = (doc: unknown): ValidationIssue[] => run("recipe", doc);

/**
 * Issues of an inventory item of the collection. `partial`: nothing is required, for an
 * inventory PATCH that validates only the fields sent (the caller takes `inventory` and
 * `inventory_adjust`, which may be numeric strings there, out of the body first).
 */
export function validateIngredient(c: IngredientCollection, doc: unknown, opts: { partial?: boolean } = {}): ValidationIssue[] {
  if (!INGREDIENT_COLLECTIONS.includes(c)) throw new RangeError(`unknown ingredient collection: ${String(c).slice(0, 40)}`);
  return run(`${c}-${opts.partial ? "patch" : "create"}`, doc);
}

/** Issues of a batch (loose, for imports): types of documented fields, the status set, stated bounds. */
export const validateBatch = (doc: unknown): ValidationIssue[] => run("batch", doc);
export const validateReading = (doc: unknown): ValidationIssue[] => run("reading", doc);
export const validateBrewTracker = (doc: unknown): ValidationIssue[] => run("brew-tracker", doc);
/** Issues of a `POST /v2/batches` body (its recipe, when given whole, included); [] when valid. */
export const validateBatchCreate = (doc: unknown): ValidationIssue[] => run("batch-create", doc);
