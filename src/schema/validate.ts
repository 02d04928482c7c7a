// The validators: each schema's ajv code generated ahead of time (src/schema/compiled/, written by
// `bun scripts/validators.ts`) and loaded on first use, so neither a command nor the server compiles a
// schema at run time (compiling the batch schema alone took about 0.7 s of every import). A module
// generated from another version of its schema is not used: the schema is then compiled here, as it
// was before, and test/schema/compiled.test.ts fails until the modules are generated again.
// Validation only: no coercion, no defaults, no removal of unknown fields.
import type { Options, ValidateFunction } from "ajv";
import { Batch } from "./batch";
import { BatchCreate } from "./batch-create";
import { INGREDIENT_COLLECTIONS, InventoryCreate, InventoryPatch, type IngredientCollection } from "./ingredients";
import { toIssues, type ValidationIssue } from "./issues";
import { Reading } from "./reading";
import { Recipe } from "./recipe";
import { BrewTracker } from "./tracker";

// strictNumbers: JSON such as 1e400 parses to Infinity, which is no number a document can keep.
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, strictNumbers: true };

export interface GeneratedValidator {
  default: ValidateFunction;
  /** `schemaHash` of the schema the code was generated from. */
  schemaHash: string;
}

/** A validated schema and its generated module (each `require` names its file, so the bundle splits it off). */
export interface ValidatedSchema {
  schema: object;
  load: () => GeneratedValidator;
}

/** Every schema validated with ajv, by the name of its module in compiled/. */
export const VALIDATED = {
  batch: { schema: Batch, load: () => require("./compiled/batch.js") },
  "batch-create": { schema: BatchCreate, load: () => require("./compiled/batch-create.js") },
  recipe: { schema: Recipe, load: () => require("./compiled/recipe.js") },
  reading: { schema: Reading, load: () => require("./compiled/reading.js") },
  "brew-tracker": { schema: BrewTracker, load: () => require("./compiled/brew-tracker.js") },
  "fermentables-create": { schema: InventoryCreate.fermentables, load: () => require("./compiled/fermentables-create.js") },
  "hops-create": { schema: InventoryCreate.hops, load: () => require("./compiled/hops-create.js") },
  "miscs-create": { schema: InventoryCreate.miscs, load: () => require("./compiled/miscs-create.js") },
  "yeasts-create": { schema: InventoryCreate.yeasts, load: () => require("./compiled/yeasts-create.js") },
  "fermentables-patch": { schema: InventoryPatch.fermentables, load: () => require("./compiled/fermentables-patch.js") },
  "hops-patch": { schema: InventoryPatch.hops, load: () => require("./compiled/hops-patch.js") },
  "miscs-patch": { schema: InventoryPatch.miscs, load: () => require("./compiled/miscs-patch.js") },
  "yeasts-patch": { schema: InventoryPatch.yeasts, load: () => require("./compiled/yeasts-patch.js") },
} satisfies Record<string, ValidatedSchema>;

export type ValidatedName = keyof typeof VALIDATED;

/** What a generated module was made from: the schema as JSON and the options, hashed. */
export const schemaHash = (schema: object): string => Bun.hash(JSON.stringify([AJV_OPTIONS, schema])).toString(16);

/** The schema compiled now: what a module generated from another version of the schema is replaced by. */
export function compileAtRunTime(schema: object): ValidateFunction {
  const { default: Ajv } = require("ajv") as typeof import("ajv");
  return new Ajv(AJV_OPTIONS).compile(schema);
}

/** The generated validator when it was made from this schema, else the schema compiled now. */
export const validatorFrom = (generated: GeneratedValidator, schema: object): ValidateFunction =>
  generated.schemaHash === schemaHash(schema) ? generated.default : compileAtRunTime(schema);

const loaded = new Map<ValidatedName, ValidateFunction>();

export function validatorOf(name: ValidatedName): ValidateFunction {
  let validate = loaded.get(name);
  if (!validate) {
    const { schema, load } = VALIDATED[name] as ValidatedSchema;
    loaded.set(name, (validate = validatorFrom(load(), schema)));
  }
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
