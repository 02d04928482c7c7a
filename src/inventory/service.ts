import { catalogItem } from "../catalog/index.ts";
import { bodyOrThrow, type BodyOrRefusal } from "../http/body.ts";
import { badRequest, ERRORS, HttpError, notFound, TEXT, validationFailed } from "../http/errors.ts";
import { type Awaitable, andThen } from "../lib/awaitable.ts";
import { newId } from "../lib/ids.ts";
import { canonicalJson, projector, type Doc } from "../lib/json.ts";
import { stamp, STAMP_MEMBERS } from "../lib/stamps.ts";
import { DEFAULT_FIELDS, type IngredientCollection } from "../resources.ts";
import { INVENTORY_SERVER_MANAGED, stripServerManaged, validateIngredient } from "../schema/index.ts";
import type { Store, StoredColumns } from "../store/types.ts";
import { parseInclude } from "../http/list-params.ts";
import { applyStock, planInventoryPatch, roundStock, type InventoryPatch } from "./stock.ts";

// Inventory (API document, Endpoints › Inventory). A user's item, or else the default catalog's item
// of the same `_id`: the first edit or stock change copies a default into the user's inventory.

/** One item as JSON text: the user's copy, else the catalog default; 404 when neither exists. */
export function readItem(store: Store, userId: string, c: IngredientCollection, id: string, params: URLSearchParams): Awaitable<string> {
  return andThen(store.get(userId, c, id), (own) => {
    const include = parseInclude(params);
    if (own !== undefined && include.length === 0) return own;
    const doc = own !== undefined ? (JSON.parse(own) as Doc) : catalogItem(c, id);
    if (!doc) throw notFound();
    return include.length ? projector([...DEFAULT_FIELDS[c], ...include])(doc) : canonicalJson(doc);
  });
}

export async function createItem(store: Store, userId: string, c: IngredientCollection, body: Doc | undefined, now = Date.now()): Promise<string> {
  if (!body) throw badRequest(ERRORS.missingBody);
  const { inventory_adjust: _adjust, ...fields } = stripServerManaged(body, INVENTORY_SERVER_MANAGED);
  const issues = validateIngredient(c, fields);
  if (issues.length) throw validationFailed(issues);
  const id = newId();
  if (typeof fields.inventory === "number") fields.inventory = roundStock(fields.inventory);
  await store.insert(userId, c, stamp({ ...fields, _id: id }, now, true));
  return id;
}

/** `input` is the body as read, or its refusal: a missing item is 404 whatever the body holds. */
export function patchItem(store: Store, userId: string, c: IngredientCollection, id: string, input: BodyOrRefusal<Doc | undefined>, now = Date.now()): Awaitable<string> {
  const planned = planPatch(input);
  const stock = "value" in planned && planned.value?.mode === "inventory-only" ? planned.value.stock : undefined;
  if (stock === undefined) return patchParsed(store, userId, c, id, planned, now);
  // Stock alone, the most common change (inventory_adjust on a brew day), is made from the stored stock
  // without parsing the item. An item not yet the user's own (a catalog default) takes the parsing way.
  const fields = (stored: StoredColumns) => ({ inventory: applyStock(stored.inventory, stock) });
  return andThen(store.setFields(userId, c, id, fields, now), (found) => (found ? TEXT.updated : patchParsed(store, userId, c, id, planned, now)));
}

/** The body's plan (undefined without a body), or the refusal of the body or of its plan, kept for after the 404. */
function planPatch(input: BodyOrRefusal<Doc | undefined>): BodyOrRefusal<InventoryPatch | undefined> {
  if ("error" in input || input.value === undefined) return input as BodyOrRefusal<undefined>;
  try {
    return { value: planInventoryPatch(input.value, INVENTORY_SERVER_MANAGED) };
  } catch (e) {
    if (e instanceof HttpError) return { error: e };
    throw e;
  }
}

function patchParsed(store: Store, userId: string, c: IngredientCollection, id: string, planned: BodyOrRefusal<InventoryPatch | undefined>, now: number): Awaitable<string> {
  return store.update(userId, c, id, (current) => {
    const base = current ?? catalogItem(c, id);
    if (!base) throw notFound();
    const plan = bodyOrThrow(planned);
    if (!plan || (Object.keys(plan.fields).length === 0 && !plan.stock)) return { result: TEXT.nothingToUpdate };
    if (plan.mode === "partial") {
      const issues = validateIngredient(c, plan.fields, { partial: true });
      if (issues.length) throw validationFailed(issues);
    }
    const stock = applyStock(base.inventory, plan.stock);
    // The stored document is this decision's own copy; a catalog default is shared, so it is copied.
    const next: Doc = current ? Object.assign(current, plan.fields) : { ...base, ...plan.fields };
    if (stock !== undefined) next.inventory = stock;
    // Every other member is the stored document's own: the store need not check its key order again.
    const changed = [...Object.keys(plan.fields), "inventory", ...STAMP_MEMBERS];
    return { write: stamp(next, now, current === undefined), result: TEXT.updated, changed };
  });
}
