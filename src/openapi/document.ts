import { BatchPatch, BatchStatusSchema } from "../batches/model.ts";
import type { ApiVersion } from "../http/auth.ts";
import { INGREDIENT_COLLECTIONS, type IngredientCollection } from "../resources.ts";
import { Batch, BrewTracker, Fermentable, Hop, InventoryCreate, InventoryPatch, Misc, Reading, Recipe, RecipeFields, Yeast } from "../schema/index.ts";
import { Type } from "@sinclair/typebox";
import { DEVICE_SCHEMAS, DEVICES_TAG, devicePaths } from "./devices.ts";
import {
  badRequestText, ID_PARAMETER, INCLUDE, json, jsonBody, listParameters, NOT_FOUND, ok, operation, ref, STATUS_FILTER, STOCK_FILTERS, VALIDATION_FAILED,
} from "./operations.ts";

// The OpenAPI document of every v2 and v1 endpoint, built from the same TypeBox schemas the routes
// validate with (src/schema, src/batches/model.ts). OpenAPI 3.1, so JSON Schema is used as is.

type Obj = Record<string, unknown>;
const ITEM_SCHEMA: Record<IngredientCollection, string> = { fermentables: "Fermentable", hops: "Hop", miscs: "Misc", yeasts: "Yeast" };
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

const StockPatch = Type.Object(
  {
    inventory: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: "Sets the stock; a number or numeric string. Wins over inventory_adjust." })),
    inventory_adjust: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: "Adds to (or, negative, subtracts from) the stock; never stored." })),
  },
  { additionalProperties: true },
);

export const SCHEMAS: Obj = {
  Batch, Recipe, Fermentable, Hop, Misc, Yeast, Reading, BrewTracker,
  BatchStatus: BatchStatusSchema,
  BatchPatch,
  RecipePatch: Type.Object(RecipeFields, { description: "Top-level fields to replace (shallow merge)" }),
  StockPatch,
  ...Object.fromEntries(INGREDIENT_COLLECTIONS.flatMap((c) => [
    [`${ITEM_SCHEMA[c]}Create`, InventoryCreate[c]],
    [`${ITEM_SCHEMA[c]}Patch`, Type.Intersect([InventoryPatch[c], StockPatch])],
  ])),
  ValidationIssue: Type.Object({
    path: Type.String({ description: 'Dot path from the root ("fermentables.0.amount"; "" for the root)' }),
    rule: Type.String({ description: "JSON Schema keyword broken (required, type, minimum, maximum, enum, …)" }),
    message: Type.String(),
  }),
  CreatedId: Type.Object({ id: Type.String() }),
  ...DEVICE_SCHEMAS,
};

function batchPaths(v: ApiVersion): Obj {
  const tag = v === 1 ? "Version 1" : "Batches";
  const base = `/v${v}/batches`;
  const read = (summary: string, schema: Obj, description?: string) =>
    operation({ summary, tag, version: v, scope: "batches.read", parameters: [ID_PARAMETER], description, responses: { "200": json(schema, summary), "404": NOT_FOUND } });
  const one: Obj = {
    get: operation({ summary: "Read a batch", tag, version: v, scope: "batches.read", parameters: [ID_PARAMETER, INCLUDE], responses: { "200": json(ref("Batch"), "The batch"), "404": NOT_FOUND } }),
    patch: operation({
      summary: "Update a batch", tag, version: v, scope: "batches.write", parameters: [ID_PARAMETER],
      description: v === 1
        ? "Version 1 changes `status` only. Fields may also be sent as query parameters with no body."
        : "Only sent fields change; `null` clears a measured value. Fields may also be sent as query parameters with no body (numeric strings count as numbers).",
      requestBody: jsonBody(v === 1 ? Type.Object({ status: Type.Optional(BatchStatusSchema) }) : ref("BatchPatch"), "Fields to change"),
      responses: { "200": ok("Updated", "`Updated`, or `Nothing to update` when no valid field was sent"), "400": badRequestText("Invalid measuredOg"), "404": NOT_FOUND },
    }),
  };
  if (v === 2) {
    one.delete = operation({ summary: "Delete a batch", tag, version: v, scope: "batches.delete", parameters: [ID_PARAMETER], responses: { "200": ok("Deleted"), "404": NOT_FOUND } });
  }
  return {
    [base]: { get: operation({ summary: "List batches", tag, version: v, scope: "batches.read", parameters: [...listParameters(v), STATUS_FILTER(v)], responses: { "200": json({ type: "array", items: ref("Batch") }, "One page of batches"), "400": badRequestText("Invalid order by direction") } }) },
    [`${base}/{id}`]: one,
    [`${base}/{id}/readings`]: { get: read("List readings of a batch", { type: "array", items: ref("Reading") }) },
    [`${base}/{id}/readings/last`]: { get: read("Read the last reading", ref("Reading"), "404 when the batch has no reading.") },
    [`${base}/{id}/brewtracker`]: { get: read("Read the brew tracker", ref("BrewTracker"), "404 when no tracker exists for the batch.") },
  };
}

function recipePaths(v: ApiVersion): Obj {
  const tag = v === 1 ? "Version 1" : "Recipes";
  const base = `/v${v}/recipes`;
  const list: Obj = { get: operation({ summary: "List recipes", tag, version: v, scope: "recipes.read", parameters: listParameters(v), responses: { "200": json({ type: "array", items: ref("Recipe") }, "One page of recipes"), "400": badRequestText("Invalid order by direction") } }) };
  const one: Obj = { get: operation({ summary: "Read a recipe", tag, version: v, scope: "recipes.read", parameters: [ID_PARAMETER, INCLUDE], responses: { "200": json(ref("Recipe"), "The recipe"), "404": NOT_FOUND } }) };
  if (v === 2) {
    list.post = operation({ summary: "Create a recipe", tag, version: v, scope: "recipes.write", description: "Server-managed fields (root `_*`, `createdAt`, `updatedAt`, `data`) are set by the service; omitted `og`, `fg`, `ibu`, `color`, `abv` are calculated.", requestBody: jsonBody(ref("Recipe"), "The recipe, metric units"), responses: { "201": json(ref("CreatedId"), "Created"), "400": VALIDATION_FAILED } });
    one.patch = operation({ summary: "Update a recipe", tag, version: v, scope: "recipes.write", parameters: [ID_PARAMETER], description: "Shallow merge: each top-level field replaces the stored one; arrays replace whole arrays. The merged recipe is validated.", requestBody: jsonBody(ref("RecipePatch"), "Fields to replace"), responses: { "200": ok("Updated"), "400": VALIDATION_FAILED, "404": NOT_FOUND } });
    one.delete = operation({ summary: "Delete a recipe", tag, version: v, scope: "recipes.delete", parameters: [ID_PARAMETER], responses: { "200": ok("Deleted"), "404": NOT_FOUND } });
  }
  return { [base]: list, [`${base}/{id}`]: one };
}

function inventoryPaths(v: ApiVersion, c: IngredientCollection): Obj {
  const tag = v === 1 ? "Version 1" : "Inventory";
  const base = `/v${v}/inventory/${c}`;
  const item = ITEM_SCHEMA[c];
  const list: Obj = { get: operation({ summary: `List ${c}`, tag, version: v, scope: "inventory.read", parameters: [...listParameters(v), ...STOCK_FILTERS], responses: { "200": json({ type: "array", items: ref(item) }, `One page of ${c}`), "400": badRequestText("Invalid order by direction") } }) };
  const one: Obj = {
    get: operation({ summary: `Read one of ${c}`, tag, version: v, scope: "inventory.read", parameters: [ID_PARAMETER, INCLUDE], description: "The account's item, or the default catalog's item of that `_id`.", responses: { "200": json(ref(item), "The item"), "404": NOT_FOUND } }),
    patch: operation({
      summary: `Update one of ${c}`, tag, version: v, scope: "inventory.write", parameters: [ID_PARAMETER],
      description: v === 1 ? "Version 1 changes stock only (`inventory` wins over `inventory_adjust`)." : "Only `inventory`/`inventory_adjust`: stock only. Any other field: partial update of the sent fields, validated against the collection's schema.",
      requestBody: jsonBody(ref(v === 1 ? "StockPatch" : `${item}Patch`), "Stock change or fields to write"),
      responses: { "200": ok("Updated", "`Updated`, or `Nothing to update`"), "400": VALIDATION_FAILED, "404": NOT_FOUND },
    }),
  };
  if (v === 2) {
    list.post = operation({ summary: `Create one of ${c}`, tag, version: v, scope: "inventory.write", requestBody: jsonBody(ref(`${item}Create`), "The item"), responses: { "201": json(ref("CreatedId"), "Created"), "400": VALIDATION_FAILED } });
    one.delete = operation({ summary: `Delete one of ${c}`, tag, version: v, scope: "inventory.delete", parameters: [ID_PARAMETER], responses: { "200": ok("Deleted"), "404": NOT_FOUND } });
  }
  return { [base]: list, [`${base}/{id}`]: one };
}

const HEALTH: Obj = {
  "/healthz": {
    get: {
      tags: ["Operations"], summary: "Health", operationId: "health", security: [],
      description: "No authentication. Status and database reachability; nothing secret.",
      responses: {
        "200": { description: "Healthy", content: { "application/json": { schema: { type: "object", properties: { status: { type: "string" }, database: { type: "string" } } } } } },
        "503": { description: "The database does not answer" },
      },
    },
  },
};

export function openApiPaths(): Obj {
  const paths: Obj = { ...HEALTH };
  for (const v of [2, 1] as const) {
    Object.assign(paths, batchPaths(v), recipePaths(v));
    for (const c of INGREDIENT_COLLECTIONS) Object.assign(paths, inventoryPaths(v, c));
  }
  return Object.assign(paths, devicePaths());
}

export const DOCUMENTATION = (version: string): Obj => ({
  openapi: "3.1.0",
  info: {
    title: "Brewing Records Service API (brewrecords)",
    version,
    description: "Batches, readings, brew trackers, recipes and inventory. Version 2, plus the deprecated version 1. Errors are plain text unless stated.",
    license: { name: "MIT", identifier: "MIT" },
  },
  servers: [{ url: "/", description: "This server" }],
  tags: [
    ...["Batches", "Recipes", "Inventory", "Version 1", "Operations"].map((name) => ({ name, description: `${cap(name)} endpoints` })),
    { name: DEVICES_TAG, description: "Device logging and a batch's devices: additions beyond the hosted API's document (`x-brewrecords-addition`)", "x-brewrecords-addition": true },
  ],
  security: [{ basicAuth: [] }],
  components: {
    securitySchemes: {
      basicAuth: { type: "http", scheme: "basic", description: "User id and API key: `Authorization: Basic base64(userid:apikey)`. Scopes (`x-scopes` on each operation): recipes.read, recipes.write, recipes.delete, batches.read, batches.write, batches.delete, inventory.read, inventory.write, inventory.delete." },
    },
    schemas: SCHEMAS,
  },
  paths: openApiPaths(),
});
