// The validators: one Ajv instance, each schema compiled once, on first use (compiling all of them
// takes about a second, which a command or a server start that needs none should not pay).
// Validation only: no coercion, no defaults, no removal of unknown fields.
import Ajv, { type ValidateFunction } from "ajv";
import { Batch } from "./batch";
import { BatchCreate } from "./batch-create";
import { INGREDIENT_COLLECTIONS, InventoryCreate, InventoryPatch, type IngredientCollection } from "./ingredients";
import { toIssues, type ValidationIssue } from "./issues";
import { Reading } from "./reading";
import { Recipe } from "./recipe";
import { BrewTracker } from "./tracker";

// strictNumbers: JSON such as 1e400 parses to Infinity, which is no number a document can keep.
const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true });

const compiled = new Map<object, ValidateFunction>();

function run(schema: object, doc: unknown): ValidationIssue[] {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate(doc) ? [] : toIssues(validate.errors);
}

/** Issues of a recipe as created or as merged by an update; [] when valid. */
export const validateRecipe = (doc: unknown): ValidationIssue[] => run(Recipe, doc);

/**
 * Issues of an inventory item of the collection. `partial`: nothing is required, for an
 * inventory PATCH that validates only the fields sent (the caller takes `inventory` and
 * `inventory_adjust`, which may be numeric strings there, out of the body first).
 */
export function validateIngredient(c: IngredientCollection, doc: unknown, opts: { partial?: boolean } = {}): ValidationIssue[] {
  if (!INGREDIENT_COLLECTIONS.includes(c)) throw new RangeError(`unknown ingredient collection: ${String(c).slice(0, 40)}`);
  return run((opts.partial ? InventoryPatch : InventoryCreate)[c], doc);
}

/** Issues of a batch (loose, for imports): types of documented fields, the status set, stated bounds. */
export const validateBatch = (doc: unknown): ValidationIssue[] => run(Batch, doc);
export const validateReading = (doc: unknown): ValidationIssue[] => run(Reading, doc);
export const validateBrewTracker = (doc: unknown): ValidationIssue[] => run(BrewTracker, doc);
/** Issues of a `POST /v2/batches` body (its recipe, when given whole, included); [] when valid. */
export const validateBatchCreate = (doc: unknown): ValidationIssue[] => run(BatchCreate, doc);
