import { calculateRecipe, settingsUsed } from "../calc/index.ts";
import { badRequest, ERRORS, notFound, TEXT, validationFailed } from "../http/errors.ts";
import { bodyOrThrow, type BodyOrRefusal } from "../http/body.ts";
import type { Awaitable } from "../lib/awaitable.ts";
import { newId } from "../lib/ids.ts";
import type { Doc } from "../lib/json.ts";
import { stamp } from "../lib/stamps.ts";
import { RECIPE_SERVER_MANAGED, stripServerManaged, validateRecipe } from "../schema/index.ts";
import type { Store } from "../store/types.ts";

// Recipes (API document, Endpoints › Recipes, rules 1–3).

/** Figures a client may set itself; when it does not, the service fills them in (src/calc). */
export const CLIENT_OR_CALCULATED = ["og", "fg", "ibu", "color", "abv"] as const;
/** Server-managed record of which of those the service filled in, so an update recalculates them. */
const CALCULATED = "_calculated";

const isSet = (v: unknown) => typeof v === "number" && Number.isFinite(v);

/** Adds calculated fields and the service's own fields to a validated recipe. */
function finish(recipe: Doc, server: Doc, now: number, created: boolean): Doc {
  const calculated = CLIENT_OR_CALCULATED.filter((f) => !isSet(recipe[f]));
  return stamp({ ...calculateRecipe(recipe), ...server, [CALCULATED]: calculated }, now, created);
}

/**
 * A new recipe with the settings it is calculated with written in where it names none (settingsUsed:
 * its equipment's, else the document's defaults), and the default folder: what a client reads back is
 * what the figures rest on, as in the hosted service's recipes, which always carry them.
 */
function withSettings(recipe: Doc): Doc {
  const used: Doc = { ...settingsUsed(recipe), path: "/" };
  const out: Doc = { ...recipe };
  for (const [k, v] of Object.entries(used)) if (out[k] === undefined) out[k] = v;
  return out;
}

export async function createRecipe(store: Store, userId: string, body: Doc | undefined, now = Date.now()): Promise<string> {
  if (!body) throw badRequest(ERRORS.missingBody);
  const sent = stripServerManaged(body, RECIPE_SERVER_MANAGED);
  const issues = validateRecipe(sent);
  if (issues.length) throw validationFailed(issues);
  const recipe = withSettings(sent);
  const id = newId();
  const server = { _id: id, _uid: userId, _type: "recipe", _public: false, _init: true };
  await store.insert(userId, "recipe", finish(recipe, server, now, true));
  return id;
}

/** The five figures as the service calculates them from a recipe's ingredients and settings, whatever it holds of them. */
function calculatedFigures(recipe: Doc): string {
  const inputs: Doc = { ...recipe };
  for (const f of CLIENT_OR_CALCULATED) delete inputs[f];
  const out = calculateRecipe(inputs);
  return JSON.stringify(CLIENT_OR_CALCULATED.map((f) => out[f]));
}

/**
 * The figures of the stored recipe the service calculated, to be calculated again: those its
 * `_calculated` names. A recipe without one came in whole (an import, a pull from the hosted service,
 * which calculates them all): its figures are the service's when the update changes what they are
 * calculated from, and stay as they are when it does not (a new name or notes keep the hosted numbers).
 */
function calculatedBefore(current: Doc, kept: Doc, merged: Doc): readonly string[] {
  if (Array.isArray(current[CALCULATED])) return current[CALCULATED] as string[];
  return calculatedFigures(kept) === calculatedFigures(merged) ? [] : CLIENT_OR_CALCULATED;
}

/**
 * Shallow merge: each top-level field of the body replaces the stored one, arrays whole. The merged
 * recipe is validated; when invalid nothing is stored. Figures the service calculated before are
 * recalculated unless the body sets them (calculatedBefore).
 */
export function updateRecipe(store: Store, userId: string, id: string, input: BodyOrRefusal<Doc | undefined>, now = Date.now()): Awaitable<string> {
  return store.update(userId, "recipe", id, (current) => {
    if (!current) throw notFound();
    const body = bodyOrThrow(input);
    const changes = body ? stripServerManaged(body, RECIPE_SERVER_MANAGED) : undefined;
    if (!changes) throw badRequest(ERRORS.missingBody);
    if (Object.keys(changes).length === 0) return { result: TEXT.nothingToUpdate };
    const server: Doc = {};
    const kept: Doc = {};
    for (const [k, v] of Object.entries(current)) {
      if (k === "data") continue; // recalculated below
      if (k.startsWith("_") || RECIPE_SERVER_MANAGED.includes(k)) server[k] = v;
      else kept[k] = v;
    }
    const before = calculatedBefore(current, kept, { ...kept, ...changes });
    const merged: Doc = {};
    for (const [k, v] of Object.entries(kept)) if (!(before.includes(k) && !(k in changes))) merged[k] = v;
    Object.assign(merged, changes);
    const issues = validateRecipe(merged);
    if (issues.length) throw validationFailed(issues);
    delete server[CALCULATED];
    // An imported recipe may lack the service's own fields: every write sets them.
    const own = { _public: false, ...server, _id: id, _uid: userId, _type: "recipe" };
    return { write: finish(merged, own, now, false), result: TEXT.updated };
  });
}
