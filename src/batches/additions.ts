import type { Deps } from "../http/deps.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { jsonText } from "../http/errors.ts";
import { json, jsonBody, ref, VALIDATION_FAILED } from "../openapi/operations.ts";
import { createBatch } from "./create.ts";

/** Starting a batch from a recipe: beyond the hosted API (README, "Beyond the hosted API"). */
export function batchAdditionRoutes(deps: Deps): void {
  const { store } = deps;
  new ApiRoutes(deps, { version: 2, tag: "Batches", addition: true }).post(
    "/v2/batches",
    {
      scope: "batches.write",
      body: "object",
      answer: "reply",
      doc: {
        summary: "Create a batch from a recipe",
        description:
          "From `recipeId` (a recipe of the account) or a whole `recipe` object, with optional `name` (default: the recipe's), `brewDate` (default: now), `status` (default `Planning`) and `brewer`. The batch holds a copy of the recipe with its calculated figures, its estimates (`estimatedOg`, …) and the account's next `batchNo`, unique and without gaps.",
        requestBody: jsonBody(ref("BatchCreate"), "Where the batch starts from"),
        responses: { "201": json(ref("CreatedId"), "Created"), "400": VALIDATION_FAILED },
      },
    },
    async ({ userId, body }) => jsonText(JSON.stringify({ id: await createBatch(store, userId, body) }), 201),
  );
}
