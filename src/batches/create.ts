import { calculateRecipe } from "../calc/index.ts";
import { badRequest, ERRORS, validationFailed } from "../http/errors.ts";
import { newId } from "../lib/ids.ts";
import type { Doc } from "../lib/json.ts";
import { stamp } from "../lib/stamps.ts";
import { RECIPE_SERVER_MANAGED, stripServerManaged, validateBatchCreate, type ValidationIssue } from "../schema/index.ts";
import type { Store } from "../store/types.ts";

// Starting a batch from a recipe (`POST /v2/batches`, beyond the hosted API; README). The batch holds
// a copy of the recipe as real batches do (`recipe`), its estimated figures, the account's next
// `batchNo` and the service's own fields; nothing else of the body is stored.

/** The recipe's figures a batch carries as its estimates, by the batch field's name. */
const ESTIMATES: ReadonlyArray<readonly [batchField: string, recipeField: string]> = [
  ["estimatedOg", "og"],
  ["estimatedFg", "fg"],
  ["estimatedIbu", "ibu"],
  ["estimatedColor", "color"],
  ["estimatedBuGuRatio", "buGuRatio"],
  ["estimatedRbRatio", "rbRatio"],
];

const issue = (path: string, rule: string, message: string): ValidationIssue => ({ path, rule, message });

/** The checked body: its recipe (stored or given, with its figures) and the new batch's own fields. */
export interface BatchStart {
  recipe: Doc;
  name?: string;
  brewDate?: number;
  status?: string;
  brewer?: string | null;
}

/**
 * Checks a body and finds its recipe. Refusals are the recipes endpoints' (a JSON array of issues; no
 * body: `Missing body`); a `recipeId` of no recipe of the account is an issue of that field.
 */
export async function checkBatchStart(store: Store, userId: string, body: Doc | undefined): Promise<BatchStart> {
  if (!body) throw badRequest(ERRORS.missingBody);
  const given = body.recipe !== null && typeof body.recipe === "object" && !Array.isArray(body.recipe) ? stripServerManaged(body.recipe as Doc, RECIPE_SERVER_MANAGED) : body.recipe;
  const issues = validateBatchCreate({ ...body, ...(given === undefined ? {} : { recipe: given }) });
  if (issues.length) throw validationFailed(issues);
  if ((body.recipeId === undefined) === (given === undefined)) {
    throw validationFailed([issue("", "oneOf", "give exactly one of recipeId (a recipe of the account) and recipe (a whole recipe)")]);
  }
  let recipe: Doc;
  if (given !== undefined) {
    recipe = calculateRecipe(given as Doc);
  } else {
    const stored = await store.get(userId, "recipe", body.recipeId as string);
    if (stored === undefined) throw validationFailed([issue("recipeId", "exists", "recipeId names no recipe of this account")]);
    recipe = JSON.parse(stored) as Doc;
  }
  const { name, brewDate, status, brewer } = body as Partial<Record<"name" | "status", string>> & { brewDate?: number; brewer?: string | null };
  return { recipe, name, brewDate, status, brewer };
}

/** The new batch's document for its number: the service's fields, the body's, the recipe and its estimates. */
export function newBatch(start: BatchStart, batchNo: number, ids: { id: string; userId: string }, now: number): Doc {
  const { recipe } = start;
  const doc: Doc = {
    _id: ids.id,
    _type: "batch",
    _uid: ids.userId,
    _archived: false,
    _init: true,
    hidden: false,
    name: start.name ?? (typeof recipe.name === "string" && recipe.name ? recipe.name : `Batch #${batchNo}`),
    batchNo,
    status: start.status ?? "Planning",
    brewer: start.brewer ?? null,
    brewDate: start.brewDate ?? now,
    recipe,
  };
  for (const [field, from] of ESTIMATES) if (typeof recipe[from] === "number") doc[field] = recipe[from];
  return stamp(doc, now, true);
}

/** Creates the batch with the account's next `batchNo` (unique and without gaps, however many at once); its id. */
export async function createBatch(store: Store, userId: string, body: Doc | undefined, now = Date.now()): Promise<string> {
  const start = await checkBatchStart(store, userId, body);
  const id = newId();
  await store.insertNumbered(userId, "batch", "batchNo", (batchNo) => newBatch(start, batchNo, { id, userId }, now));
  return id;
}
