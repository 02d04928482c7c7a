// Every object of the API document, written once as TypeBox schemas (route validation, types and
// OpenAPI), with ajv validators derived from them.
export { ADDITION_USES, Nullable, OneOf, TIME_UNITS } from "./common";
export * from "./ingredients";
export * from "./profiles";
export * from "./water";
export * from "./recipe";
export * from "./batch";
export * from "./reading";
export * from "./tracker";
export { BatchRecipeResponse, BatchResponse, FermentableResponse, HopResponse, MiscResponse, RecipeResponse, YeastResponse } from "./response";
export { comparePaths, type ValidationIssue } from "./issues";
export { BatchCreate } from "./batch-create";
export { validateBatch, validateBatchCreate, validateBrewTracker, validateIngredient, validateReading, validateRecipe } from "./validate";
export { INVENTORY_SERVER_MANAGED, RECIPE_SERVER_MANAGED, stripServerManaged } from "./server-managed";
