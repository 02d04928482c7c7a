// The validators: one Ajv instance, every schema compiled once at module load.
// Validation only: no coercion, no defaults, no removal of unknown fields.
import Ajv, { type ValidateFunction } from "ajv";
import { Batch } from "./batch";
import { INGREDIENT_COLLECTIONS, InventoryCreate, InventoryPatch, type IngredientCollection } from "./ingredients";
import { toIssues, type ValidationIssue } from "./issues";
import { Reading } from "./reading";
import { Recipe } from "./recipe";
import { BrewTracker } from "./tracker";

const ajv = new Ajv({ allErrors: true, strict: false });

const byCollection = (schemas: Record<IngredientCollection, object>) =>
  Object.fromEntries(INGREDIENT_COLLECTIONS.map((c) => [c, ajv.compile(schemas[c])])) as Record<IngredientCollection, ValidateFunction>;

const recipe = ajv.compile(Recipe);
const batch = ajv.compile(Batch);
const reading = ajv.compile(Reading);
const brewTracker = ajv.compile(BrewTracker);
const itemCreate = byCollection(InventoryCreate);
const itemPatch = byCollection(InventoryPatch);

function run(validate: ValidateFunction, doc: unknown): ValidationIssue[] {
  return validate(doc) ? [] : toIssues(validate.errors);
}

/** Issues of a recipe as created or as merged by an update; [] when valid. */
export const validateRecipe = (doc: unknown): ValidationIssue[] => run(recipe, doc);

/**
 * Issues of an inventory item of the collection. `partial`: nothing is required, for an
 * inventory PATCH that validates only the fields sent (the caller takes `inventory` and
 * `inventory_adjust`, which may be numeric strings there, out of the body first).
 */
export function validateIngredient(c: IngredientCollection, doc: unknown, opts: { partial?: boolean } = {}): ValidationIssue[] {
  const validators = opts.partial ? itemPatch : itemCreate;
  const validate = validators[c];
  if (!validate) throw new RangeError(`unknown ingredient collection: ${String(c).slice(0, 40)}`);
  return run(validate, doc);
}

/** Issues of a batch (loose, for imports): types of documented fields, the status set, stated bounds. */
export const validateBatch = (doc: unknown): ValidationIssue[] => run(batch, doc);
export const validateReading = (doc: unknown): ValidationIssue[] => run(reading, doc);
export const validateBrewTracker = (doc: unknown): ValidationIssue[] => run(brewTracker, doc);
