import type { ApiVersion } from "../http/auth.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments, readDocument, removeDocument } from "../http/documents.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText } from "../http/errors.ts";
import { parseListRequestFor } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { lazy } from "../lib/lazy.ts";
import { badRequestText, ID_PARAMETER, INCLUDE, json, jsonBody, listParameters, NOT_FOUND, ok, ref, VALIDATION_FAILED } from "../openapi/operations.ts";

// Recipe writes need the schemas, their validators and the brewing calculations: loaded with the first.
const recipeService = lazy(() => import("./service.ts"));

/** Recipes (API document, Endpoints › Recipes). Version 1 reads only (Versioning). */
export function recipeRoutes(deps: Deps, version: ApiVersion): void {
  const { store } = deps;
  const base = `${prefix(version)}/recipes`;
  const api = new ApiRoutes(deps, { version, tag: version === 1 ? "Version 1" : "Recipes" })
    .get(
      base,
      {
        scope: "recipes.read",
        answer: "json",
        doc: {
          summary: "List recipes",
          parameters: listParameters(version),
          responses: { "200": json({ type: "array", items: ref("RecipeResponse") }, "One page of recipes"), "400": badRequestText("Invalid order by direction") },
        },
      },
      ({ request, userId }) => listDocuments(store, userId, "recipe", parseListRequestFor(version, searchParams(request.url))),
    )
    .get(
      `${base}/:id`,
      {
        scope: "recipes.read",
        answer: "json",
        doc: { summary: "Read a recipe", parameters: [ID_PARAMETER, INCLUDE], responses: { "200": json(ref("RecipeResponse"), "The recipe"), "404": NOT_FOUND } },
      },
      ({ request, params, userId }) => readDocument(store, userId, "recipe", params.id, searchParams(request.url)),
    );
  if (version === 1) return;
  api
    .post(
      base,
      {
        scope: "recipes.write",
        body: "object",
        answer: "reply",
        doc: {
          summary: "Create a recipe",
          description: "Server-managed fields (root `_*`, `createdAt`, `updatedAt`, `data`) are set by the service; omitted `og`, `fg`, `ibu`, `color`, `abv` are calculated.",
          requestBody: jsonBody(ref("Recipe"), "The recipe, metric units"),
          responses: { "201": json(ref("CreatedId"), "Created"), "400": VALIDATION_FAILED },
        },
      },
      async ({ userId, body }) => {
        const id = await (await recipeService()).createRecipe(store, userId, body);
        return jsonText(JSON.stringify({ id }), 201);
      },
    )
    .patch(
      `${base}/:id`,
      {
        scope: "recipes.write",
        body: "held",
        answer: "text",
        doc: {
          summary: "Update a recipe",
          parameters: [ID_PARAMETER],
          description: "Shallow merge: each top-level field replaces the stored one; arrays replace whole arrays. The merged recipe is validated.",
          requestBody: jsonBody(ref("RecipePatch"), "Fields to replace"),
          responses: { "200": ok("Updated"), "400": VALIDATION_FAILED, "404": NOT_FOUND },
        },
      },
      async ({ params, userId, body }) => (await recipeService()).updateRecipe(store, userId, params.id, body),
    )
    .delete(
      `${base}/:id`,
      { scope: "recipes.delete", answer: "text", doc: { summary: "Delete a recipe", parameters: [ID_PARAMETER], responses: { "200": ok("Deleted"), "404": NOT_FOUND } } },
      ({ params, userId }) => removeDocument(store, userId, "recipe", params.id),
    );
}
