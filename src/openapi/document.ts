import { BatchPatch, BatchStatusSchema } from "../batches/model.ts";
import { INGREDIENT_COLLECTIONS } from "../resources.ts";
import {
  Batch, BatchCreate, BatchResponse, BrewTracker, Fermentable, FermentableResponse, Hop, HopResponse, InventoryCreate, InventoryPatch, Misc, MiscResponse, Reading, Recipe, RecipeFields,
  RecipeResponse, Yeast, YeastResponse,
} from "../schema/index.ts";
import { Type } from "@sinclair/typebox";
import type { Route } from "../http/endpoint.ts";
import { ADDITION_TAG, ITEM_SCHEMA, operation } from "./operations.ts";
import { DEVICE_SCHEMAS } from "../devices/model.ts";

// The OpenAPI document of every v2 and v1 endpoint, built from the same TypeBox schemas the routes
// validate with (src/schema, src/batches/model.ts). OpenAPI 3.1, so JSON Schema is used as is.

type Obj = Record<string, unknown>;

const StockPatch = Type.Object(
  {
    inventory: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: "Sets the stock; a number or numeric string. Wins over inventory_adjust." })),
    inventory_adjust: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: "Adds to (or, negative, subtracts from) the stock; never stored." })),
  },
  { additionalProperties: true },
);

export const SCHEMAS: Obj = {
  BatchCreate,
  Batch, Recipe, Fermentable, Hop, Misc, Yeast, Reading, BrewTracker, BatchResponse, RecipeResponse,
  FermentableResponse, HopResponse, MiscResponse, YeastResponse,
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

/** The document's paths, one operation per route of the table: `:id` becomes `{id}`, an enumerated parameter one path per value. */
export function openApiPaths(routes: readonly Route[]): Obj {
  const paths: Record<string, Obj> = {};
  for (const route of routes) {
    for (const values of expansions(route.enumerated)) {
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? `{${name}}`);
      const doc = typeof route.doc === "function" ? route.doc(values) : route.doc;
      (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
    }
  }
  return paths;
}

/** Every combination of the enumerated parameters' values (one empty combination when there are none). */
function expansions(enumerated: Record<string, readonly string[]>): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [name, values] of Object.entries(enumerated)) out = out.flatMap((combo) => values.map((v) => ({ ...combo, [name]: v })));
  return out;
}

export const DOCUMENTATION = (version: string, routes: readonly Route[]): Obj => ({
  openapi: "3.1.0",
  info: {
    title: "Brewing Records Service API (brewrecords)",
    version,
    description: "Batches, readings, brew trackers, recipes and inventory. Version 2, plus the deprecated version 1. Errors are plain text unless stated.",
    license: { name: "MIT", identifier: "MIT" },
  },
  servers: [{ url: "/", description: "This server" }],
  tags: [
    ...["Batches", "Recipes", "Inventory", "Version 1", "Operations", ...["Devices", "Webhooks"].filter((tag) => routes.some((r) => r.tag === tag))].map((name) => ({ name, description: `${name} endpoints` })),
    ...(routes.some((r) => r.addition) ? [{ name: ADDITION_TAG, description: "Endpoints beyond the hosted service's API document (`x-brewrecords-addition`)", "x-brewrecords-addition": true }] : []),
  ],
  security: [{ basicAuth: [] }],
  components: {
    securitySchemes: {
      basicAuth: { type: "http", scheme: "basic", description: "User id and API key: `Authorization: Basic base64(userid:apikey)`. Scopes (`x-scopes` on each operation): recipes.read, recipes.write, recipes.delete, batches.read, batches.write, batches.delete, inventory.read, inventory.write, inventory.delete." },
    },
    schemas: SCHEMAS,
  },
  paths: openApiPaths(routes),
});
