// The body of `POST /v2/batches` (beyond the hosted API): a batch started from a recipe of the
// account (`recipeId`) or from a whole recipe object, with the few fields a new batch is given.
import { Type } from "@sinclair/typebox";
import { BATCH_STATUSES } from "./batch";
import { Nullable, OneOf } from "./common";
import { Recipe } from "./recipe";

export const BatchCreate = Type.Object(
  {
    recipeId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "`_id` of one of the account's recipes" })),
    recipe: Type.Optional(Recipe),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Default: the recipe's name" })),
    brewDate: Type.Optional(Type.Integer({ minimum: 0, description: "ms since 1970; default: when the batch is created" })),
    status: Type.Optional(OneOf(BATCH_STATUSES)),
    brewer: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { description: "Exactly one of `recipeId` and `recipe`; other members are ignored." },
);
