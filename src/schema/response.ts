// What the server returns, for the OpenAPI document's responses. A request is held to the bounds
// of its schema (`og` ≤ 1.2, `color` ≤ 100); the figures the service calculates are not, since an
// extreme recipe really has an OG or colour beyond them. Every stored document has its `_id`.
import { Type, type TSchema } from "@sinclair/typebox";
import { Batch } from "./batch";
import { FermentableFields, HopFields, MiscFields, YeastFields } from "./ingredients";
import { Num, NumN } from "./common";
import { RecipeFields } from "./recipe";

/** Calculated recipe figures, without the input bounds the request schema carries. */
const CalculatedFigures = { og: Num(), color: Num() };

/** A recipe as a batch carries it in a response. */
export const BatchRecipeResponse = Type.Object({ ...RecipeFields, ...CalculatedFigures });

/** A recipe as GET returns it. */
export const RecipeResponse = Type.Object({ ...RecipeFields, ...CalculatedFigures, _id: Type.String(), name: Type.String() }, { description: "A stored recipe; calculated figures carry no input bounds" });

/** Measured values a PATCH may clear with `null` (API document, Update Batch): read back as null. */
const clearable = Object.fromEntries(
  Object.entries(Batch.properties)
    .filter(([field, schema]) => (field.startsWith("measured") || field === "carbonationTemp") && (schema as { type?: string }).type === "number")
    .map(([field]) => [field, NumN()]),
);

/** A batch as GET returns it. */
export const BatchResponse = Type.Object(
  { ...Batch.properties, ...clearable, _id: Type.String(), recipe: Type.Optional(BatchRecipeResponse) },
  { description: "A stored batch; its recipe's calculated figures carry no input bounds" },
);

/** Inventory items as GET returns them: the account's item or the catalog default, each with its `_id`. */
const item = (fields: Record<string, TSchema>, name: string) =>
  Type.Object({ ...fields, _id: Type.String() }, { description: `A stored ${name}, or the default catalog's of that _id` });
export const FermentableResponse = item(FermentableFields, "fermentable");
export const HopResponse = item(HopFields, "hop");
export const MiscResponse = item(MiscFields, "misc");
export const YeastResponse = item(YeastFields, "yeast");
