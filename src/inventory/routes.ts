import { readJsonObject, readPatchInput } from "../http/body.ts";
import type { ApiVersion } from "../http/auth.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments } from "../http/documents.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText, notFound, text, TEXT } from "../http/errors.ts";
import { parseBoolean, parseListRequestFor } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { isIngredientCollection, type IngredientCollection } from "../resources.ts";
import { andThen } from "../lib/awaitable.ts";
import { lazy } from "../lib/lazy.ts";

// Reading one item, and every write, need the default catalog and the schemas: loaded with the first.
const rules = lazy(() => import("./service.ts"));

/**
 * Inventory (API document, Endpoints › Inventory): one module, the collection a path parameter.
 * Version 1 (Versioning): reads and a PATCH of `inventory` / `inventory_adjust` only.
 */
export function inventoryRoutes(deps: Deps, version: ApiVersion): void {
  const { auth, store, config } = deps;
  const base = `${prefix(version)}/inventory/:collection`;
  // An unknown collection is an unknown route, checked after authentication like any other 404.
  const collection = (params: Record<string, string>): IngredientCollection => {
    const name = params.collection;
    if (!isIngredientCollection(name)) throw notFound();
    return name;
  };
  const api = new ApiRoutes(deps)
    .get(base, ({ request, params }) =>
      andThen(auth.authorize(request, "inventory.read", version), ({ userId }) => {
        const c = collection(params);
        const query = searchParams(request.url);
        const req = parseListRequestFor(version, query);
        const exists = parseBoolean(query, "inventory_exists");
        const negative = parseBoolean(query, "inventory_negative");
        // Both filters at once ask for stock > 0 and < 0: no item can match (docs/decisions.md).
        const inventory = negative ? "negative" : exists ? "exists" : undefined;
        return andThen(listDocuments(store, userId, c, req, inventory === undefined ? undefined : { inventory }), (page) => jsonText(exists && negative ? "[]" : page));
      }),
    )
    .get(`${base}/:id`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "inventory.read", version);
      const { readItem } = await rules();
      return jsonText(await readItem(store, userId, collection(params), params.id, searchParams(request.url)));
    })
    .patch(`${base}/:id`, ({ request, params }) =>
      andThen(auth.authorize(request, "inventory.write", version), ({ userId }) => {
        const c = collection(params);
        // A bad body on a missing item is 404 first (docs/decisions.md, HTTP precedence): its refusal waits.
        return readPatchInput(request, config.maxBodyBytes).then((input) => {
          const sent = version === 1 && "value" in input ? { value: stockFieldsOnly(input.value) } : input;
          return andThen(rules(), ({ patchItem }) => andThen(patchItem(store, userId, c, params.id, sent), text));
        });
      }),
    );
  if (version === 1) return;
  api
    .post(base, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "inventory.write", version);
      const c = collection(params);
      const { createItem } = await rules();
      const id = await createItem(store, userId, c, await readJsonObject(request, config.maxBodyBytes));
      return jsonText(JSON.stringify({ id }), 201);
    })
    .delete(`${base}/:id`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "inventory.delete", version);
      if (!(await store.remove(userId, collection(params), params.id))) throw notFound();
      return text(TEXT.deleted);
    });
}

/** Version 1 PATCH changes stock only: other fields of the body are ignored. */
function stockFieldsOnly(input: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!input) return undefined;
  const out: Record<string, unknown> = {};
  if ("inventory" in input) out.inventory = input.inventory;
  if ("inventory_adjust" in input) out.inventory_adjust = input.inventory_adjust;
  return out;
}
