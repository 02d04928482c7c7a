// Recipe Object and the Recipe Data Object calculated by the service (API document: "Recipe Object").
import { Type, type Static } from "@sinclair/typebox";
import { Bool, BoolN, MetaFields, Num, NumN, Nullable, OneOf, Opt, PERCENT, Str, StrN } from "./common";
import { Fermentable, Hop, Misc, Yeast } from "./ingredients";
import { Equipment, FermentationProfile, MashProfile, Nutrition, Style, Tag } from "./profiles";
import { Water } from "./water";

/** Hosted service documentation: Recipe Type. */
export const RECIPE_TYPES = ["Extract", "Partial Mash", "All Grain"] as const;
export const IBU_FORMULAS = ["tinseth", "tinseth*", "rager", "garetz", "noonan"] as const;

export const RecipeData = Type.Object({
  mashVolume: NumN(),
  mashWaterAmount: Num(),
  spargeWaterAmount: Num(),
  totalWaterAmount: Num(),
  hltWaterAmount: Num(),
  topUpWater: Num(),
  strikeTemp: NumN(),
  mashFermentablesAmount: Num(),
  otherFermentablesAmount: Num(),
  hopsAmount: Num(),
  mashVolumeSurplus: NumN(),
  batchSpargeWaterAmount1: NumN(),
  batchSpargeWaterAmount2: NumN(),
  batchSpargeWaterAmount3: NumN(),
  batchSpargeWaterAmount4: NumN(),
  mashFermentables: Opt(Type.Array(Fermentable)),
  otherFermentables: Opt(Type.Array(Fermentable)),
  allDiastaticPower: Bool(),
  totalDiastaticPower: Num(),
});
export type RecipeData = Static<typeof RecipeData>;

/** Every recipe field; nothing required (a recipe nested in a batch). */
export const RecipeFields = {
  ...MetaFields,
  name: Str(),
  author: StrN(),
  type: Opt(OneOf(RECIPE_TYPES)),
  teaser: Str(),
  img_url: Str(),
  hidden: Bool(),
  style: Opt(Nullable(Style)),
  styleConformity: BoolN(),
  batchSize: Num({ minimum: 0.5 }),
  boilSize: Num(),
  boilTime: Num(),
  efficiency: Num({ minimum: 35, maximum: 100 }),
  mashEfficiency: Num(PERCENT),
  fermentables: Opt(Type.Array(Fermentable)),
  hops: Opt(Type.Array(Hop)),
  miscs: Opt(Type.Array(Misc)),
  yeasts: Opt(Type.Array(Yeast)),
  fermentablesTotalAmount: Num(),
  hopsTotalAmount: Num(),
  og: Num({ minimum: 1, maximum: 1.2 }),
  fg: Num(),
  fgEstimated: Num(),
  attenuation: Num(),
  preBoilGravity: NumN(),
  postBoilGravity: Num(),
  firstWortGravity: NumN(),
  color: Num({ minimum: 0, maximum: 100 }),
  ibu: Num(),
  ibuFormula: Opt(OneOf(IBU_FORMULAS)),
  buGuRatio: Num(),
  rbRatio: Num(),
  abv: Num(),
  carbonation: Num({ minimum: 0, maximum: 5 }),
  carbonationTemp: Num(),
  primingSugarEquiv: Num(),
  equipment: Opt(Equipment),
  mash: Opt(MashProfile),
  fermentation: Opt(FermentationProfile),
  water: Opt(Water),
  data: Opt(RecipeData),
  notes: Str(),
  // Documented as Tag[]; real recipes carry `tags: null`.
  tags: Opt(Nullable(Type.Array(Tag))),
  nutrition: Opt(Nutrition),
  path: Str(),
  diastaticPower: Num(),
};

/** A recipe nested in a batch: the same fields, none required. */
export const BatchRecipe = Type.Object(RecipeFields);

/** A stored or submitted recipe: `name` is required and non-empty. */
export const Recipe = Type.Object({ ...RecipeFields, name: Type.String({ minLength: 1 }) });
export type Recipe = Static<typeof Recipe>;
