import { HttpError } from "../http/errors.ts";
import { patchItem } from "../inventory/service.ts";
import { INGREDIENT_COLLECTIONS, isIngredientCollection, type IngredientCollection } from "../resources.ts";
import { signedInPost, viewerOf, type Web } from "./guard.ts";
import { html } from "./html.ts";
import { messagePage, page, redirect, type Viewer } from "./layout.ts";
import { collectionMain, inventoryOverviewMain, type CollectionView, type InventoryItem } from "./pages/inventory.ts";
import { COLLECTION_LABEL } from "./stock-level.ts";

const PAGE_SIZE = 100;
// The overview counts every item of a collection; past this many it counts the first ones by name.
const OVERVIEW_LIMIT = 2000;

const back = html`<p><a href="/inventory">Inventory</a></p>`;
const unknownCollection = (viewer: Viewer) => messagePage(404, "No such collection", "The inventory has four collections: fermentables, hops, miscs and yeasts.", viewer, back);

export async function getInventory(web: Web, request: Request): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const collections = await Promise.all(
    INGREDIENT_COLLECTIONS.map(async (collection) => {
      const texts = await web.store.list(viewer.userId, collection, { limit: OVERVIEW_LIMIT, orderBy: "name", desc: false, fields: "summary" });
      const items = texts === "unknown-cursor" ? [] : texts.map((t) => JSON.parse(t) as InventoryItem);
      return { collection, items };
    }),
  );
  return page({ title: "Inventory", section: "inventory", viewer, main: inventoryOverviewMain(collections) });
}

async function collectionPage(web: Web, params: URLSearchParams, viewer: Viewer, c: IngredientCollection, extra: Pick<CollectionView, "changed" | "refused"> = {}, status = 200): Promise<Response> {
  const show = params.get("show");
  const filter = show === "exists" || show === "negative" ? show : undefined;
  const after = params.get("after") || undefined;
  const texts = await web.store.list(viewer.userId, c, { limit: PAGE_SIZE, orderBy: "name", desc: false, startAfter: after, fields: "body", inventory: filter });
  if (texts === "unknown-cursor") return messagePage(400, "Page not found", "That page of the inventory no longer exists.", viewer, html`<p><a href="/inventory/${c}">First page</a></p>`);
  const items = texts.map((t) => JSON.parse(t) as InventoryItem);
  let next: string | undefined;
  if (items.length === PAGE_SIZE) {
    const q = new URLSearchParams();
    if (filter) q.set("show", filter);
    q.set("after", items[items.length - 1]!._id);
    next = `/inventory/${c}?${q}`;
  }
  const view: CollectionView = { collection: c, items, csrf: viewer.csrf, filter, next, paged: Boolean(after), ...extra };
  return page({ title: COLLECTION_LABEL[c], section: "inventory", viewer, main: collectionMain(view) }, status);
}

export async function getCollection(web: Web, request: Request, collection: string): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  if (!isIngredientCollection(collection)) return unknownCollection(viewer);
  const params = new URL(request.url).searchParams;
  const changedId = params.get("changed");
  const changedText = changedId ? await web.store.get(viewer.userId, collection, changedId) : undefined;
  const changed = changedText === undefined ? undefined : (JSON.parse(changedText) as InventoryItem);
  return collectionPage(web, params, viewer, collection, { changed });
}

/**
 * A stock change from the collection page: an inventory PATCH under the API's own rules (patchItem),
 * `inventory_adjust` for Adjust and `inventory` for Set, made in one write.
 */
export async function postStock(web: Web, request: Request, collection: string, id: string): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, form } = posted;
  if (!isIngredientCollection(collection)) return unknownCollection(viewer);
  const amount = form.get("amount") ?? "";
  const body = form.get("mode") === "set" ? { inventory: amount } : { inventory_adjust: amount };
  try {
    await patchItem(web.store, viewer.userId, collection, id, { value: body });
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    if (e.status === 404) return messagePage(404, "Item not found", "There is no such item in this inventory.", viewer, html`<p><a href="/inventory/${collection}">${COLLECTION_LABEL[collection]}</a></p>`);
    const item = await web.store.get(viewer.userId, collection, id);
    const name = item === undefined ? undefined : (JSON.parse(item) as InventoryItem).name;
    const refused = { id, name: typeof name === "string" ? name : undefined, message: e.body, amount };
    return collectionPage(web, new URLSearchParams(), viewer, collection, { refused }, e.status);
  }
  return redirect(`/inventory/${collection}?${new URLSearchParams({ changed: id })}#item-${encodeURIComponent(id)}`);
}
