import { deferred, readJsonObject } from "../http/body.ts";
import type { ApiVersion } from "../http/auth.ts";
import { prefix, type Deps } from "../http/deps.ts";
import { listDocuments, readDocument } from "../http/documents.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText, notFound, text, TEXT } from "../http/errors.ts";
import { parseListRequestFor } from "../http/list-params.ts";
import { searchParams } from "../http/url.ts";
import { andThen } from "../lib/awaitable.ts";
import { lazy } from "../lib/lazy.ts";

// Recipe writes need the schemas, their validators and the brewing calculations: loaded with the first.
const rules = lazy(() => import("./service.ts"));

/** Recipes (API document, Endpoints › Recipes). Version 1 reads only (Versioning). */
export function recipeRoutes(deps: Deps, version: ApiVersion): void {
  const { auth, store, config } = deps;
  const base = `${prefix(version)}/recipes`;
  const read = (request: Request) => auth.authorize(request, "recipes.read", version);
  const api = new ApiRoutes(deps)
    .get(base, ({ request }) =>
      andThen(read(request), ({ userId }) =>
        andThen(listDocuments(store, userId, "recipe", parseListRequestFor(version, searchParams(request.url))), jsonText),
      ),
    )
    .get(`${base}/:id`, ({ request, params }) =>
      andThen(read(request), ({ userId }) => andThen(readDocument(store, userId, "recipe", params.id, searchParams(request.url)), jsonText)),
    );
  if (version === 1) return;
  api
    .post(base, async ({ request }) => {
      const { userId } = await auth.authorize(request, "recipes.write", version);
      const { createRecipe } = await rules();
      const id = await createRecipe(store, userId, await readJsonObject(request, config.maxBodyBytes));
      return jsonText(JSON.stringify({ id }), 201);
    })
    .patch(`${base}/:id`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "recipes.write", version);
      const { updateRecipe } = await rules();
      return text(await updateRecipe(store, userId, params.id, await deferred(readJsonObject(request, config.maxBodyBytes))));
    })
    .delete(`${base}/:id`, async ({ request, params }) => {
      const { userId } = await auth.authorize(request, "recipes.delete", version);
      if (!(await store.remove(userId, "recipe", params.id))) throw notFound();
      return text(TEXT.deleted);
    });
}
