import type { ApiVersion } from "../http/auth.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments, removeDocument } from "../http/documents.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText } from "../http/errors.ts";
import { parseBoolean, parseListRequestFor } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { andThen } from "../lib/awaitable.ts";
import type { Doc } from "../lib/json.ts";
import { lazy } from "../lib/lazy.ts";
import { badRequestText, ID_PARAMETER, INCLUDE, ITEM_SCHEMA, json, jsonBody, listParameters, NOT_FOUND, ok, ref, STOCK_FILTERS, VALIDATION_FAILED } from "../openapi/operations.ts";
import { INGREDIENT_COLLECTIONS, type IngredientCollection } from "../resources.ts";

// Reading one item, and every write, need the default catalog and the schemas: loaded with the first.
const inventoryService = lazy(() => import("./service.ts"));

/**
 * Inventory (API document, Endpoints › Inventory): one module, the collection a path parameter (any
 * other collection is an unknown route, 404 after the credentials like any other).
 * Version 1 (Versioning): reads and a PATCH of `inventory` / `inventory_adjust` only.
 */
export function inventoryRoutes(deps: Deps, version: ApiVersion): void {
  const { store } = deps;
  const base = `${prefix(version)}/inventory/:collection`;
  const collectionOf = (params: Record<string, string>) => params.collection as IngredientCollection;
  const item = (values: Record<string, string>) => ITEM_SCHEMA[values.collection as IngredientCollection];
  const api = new ApiRoutes(deps, { version, tag: version === 1 ? "Version 1" : "Inventory", enumerated: { collection: INGREDIENT_COLLECTIONS } })
    .get(
      base,
      {
        scope: "inventory.read",
        answer: "json",
        doc: ({ collection }) => ({
          summary: `List ${collection}`,
          parameters: [...listParameters(version), ...STOCK_FILTERS],
          responses: { "200": json({ type: "array", items: ref(`${item({ collection })}Response`) }, `One page of ${collection}`), "400": badRequestText("Invalid order by direction") },
        }),
      },
      ({ request, params, userId }) => {
        const query = searchParams(request.url);
        const list = parseListRequestFor(version, query);
        const exists = parseBoolean(query, "inventory_exists");
        const negative = parseBoolean(query, "inventory_negative");
        // Both filters at once ask for stock > 0 and < 0: no item can match (docs/decisions.md).
        const inventory = negative ? "negative" : exists ? "exists" : undefined;
        const page = listDocuments(store, userId, collectionOf(params), list, inventory === undefined ? undefined : { inventory });
        return exists && negative ? andThen(page, () => "[]") : page;
      },
    )
    .get(
      `${base}/:id`,
      {
        scope: "inventory.read",
        answer: "json",
        doc: ({ collection }) => ({
          summary: `Read one of ${collection}`,
          parameters: [ID_PARAMETER, INCLUDE],
          description: "The account's item, or the default catalog's item of that `_id`.",
          responses: { "200": json(ref(`${item({ collection })}Response`), "The item"), "404": NOT_FOUND },
        }),
      },
      async ({ request, params, userId }) => (await inventoryService()).readItem(store, userId, collectionOf(params), params.id, searchParams(request.url)),
    )
    .patch(
      `${base}/:id`,
      {
        scope: "inventory.write",
        body: "patch",
        answer: "text",
        doc: ({ collection }) => ({
          summary: `Update one of ${collection}`,
          parameters: [ID_PARAMETER],
          description:
            version === 1
              ? "Version 1 changes stock only (`inventory` wins over `inventory_adjust`)."
              : "Only `inventory`/`inventory_adjust`: stock only. Any other field: partial update of the sent fields, validated against the collection's schema.",
          requestBody: jsonBody(ref(version === 1 ? "StockPatch" : `${item({ collection })}Patch`), "Stock change or fields to write"),
          responses: { "200": ok("Updated", "`Updated`, or `Nothing to update`"), "400": VALIDATION_FAILED, "404": NOT_FOUND },
        }),
      },
      ({ params, userId, body }) => {
        const sent = version === 1 && "value" in body ? { value: stockFieldsOnly(body.value) } : body;
        return andThen(inventoryService(), (service) => service.patchItem(store, userId, collectionOf(params), params.id, sent));
      },
    );
  if (version === 1) return;
  api
    .post(
      base,
      {
        scope: "inventory.write",
        body: "object",
        answer: "reply",
        doc: ({ collection }) => ({
          summary: `Create one of ${collection}`,
          requestBody: jsonBody(ref(`${item({ collection })}Create`), "The item"),
          responses: { "201": json(ref("CreatedId"), "Created"), "400": VALIDATION_FAILED },
        }),
      },
      async ({ params, userId, body }) => {
        const id = await (await inventoryService()).createItem(store, userId, collectionOf(params), body);
        return jsonText(JSON.stringify({ id }), 201);
      },
    )
    .delete(
      `${base}/:id`,
      {
        scope: "inventory.delete",
        answer: "text",
        doc: ({ collection }) => ({ summary: `Delete one of ${collection}`, parameters: [ID_PARAMETER], responses: { "200": ok("Deleted"), "404": NOT_FOUND } }),
      },
      ({ params, userId }) => removeDocument(store, userId, collectionOf(params), params.id),
    );
}

/** Version 1 PATCH changes stock only: other fields of the body are ignored. */
function stockFieldsOnly(input: Doc | undefined): Doc | undefined {
  if (!input) return undefined;
  const out: Doc = {};
  if ("inventory" in input) out.inventory = input.inventory;
  if ("inventory_adjust" in input) out.inventory_adjust = input.inventory_adjust;
  return out;
}
