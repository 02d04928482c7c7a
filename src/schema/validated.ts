// The schemas validated with ajv, by the name of the module generated from each (src/schema/compiled/,
// written by `bun scripts/validators.ts`; src/schema/validate.ts loads them).
import type { Options } from "ajv";
import { Batch } from "./batch";
import { BatchCreate } from "./batch-create";
import { InventoryCreate, InventoryPatch } from "./ingredients";
import { Reading } from "./reading";
import { Recipe } from "./recipe";
import { BrewTracker } from "./tracker";
import type { ValidatedName } from "./validate";

// Validation only: no coercion, no defaults, no removal of unknown fields. strictNumbers: JSON such as
// 1e400 parses to Infinity, which is no number a document can keep. messages: false, as the issues are
// worded from each error's keyword and parameters (issues.ts), which keeps ajv's own text out of the code.
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, strictNumbers: true, messages: false };

export const VALIDATED_SCHEMAS: Record<ValidatedName, object> = {
  batch: Batch,
  "batch-create": BatchCreate,
  recipe: Recipe,
  reading: Reading,
  "brew-tracker": BrewTracker,
  "fermentables-create": InventoryCreate.fermentables,
  "hops-create": InventoryCreate.hops,
  "miscs-create": InventoryCreate.miscs,
  "yeasts-create": InventoryCreate.yeasts,
  "fermentables-patch": InventoryPatch.fermentables,
  "hops-patch": InventoryPatch.hops,
  "miscs-patch": InventoryPatch.miscs,
  "yeasts-patch": InventoryPatch.yeasts,
};
