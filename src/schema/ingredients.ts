// Fermentable, Hop, Misc and Yeast objects (API document: "Fermentable Object" … "Misc Object").
// One schema each, used as inventory items, recipe ingredients and batch ingredients.
import { Type, type Static, type TObject } from "@sinclair/typebox";
import { Bool, BoolN, MetaFields, Num, NumN, Nullable, OneOf, Opt, PERCENT, Str, StrN, TIME_UNITS, ADDITION_USES } from "./common";

/** Hosted service documentation: Fermentable Type. */
export const FERMENTABLE_TYPES = ["Grain", "Sugar", "Liquid Extract", "Dry Extract", "Adjunct", "Other"] as const;
export const GRAIN_CATEGORIES = [
  "Base", "Base (Pilsner)", "Base (Wheat)", "Base (Munich)", "Base (Vienna)", "Base (Maris Otter)",
  "Base (6-Row)", "Crystal/Caramel", "Roasted", "Acidulated", "Other", "Ignore",
] as const;
/** Hosted service documentation: Hop Use. */
export const HOP_USES = ["Boil", "Dry Hop", "Mash", "First Wort", "Aroma"] as const;
export const HOP_USAGES = ["Aroma", "Bittering", "Both"] as const;
export const YEAST_UNITS = ["g", "ml", "pkg", "billion cells", "oz"] as const;
export const MISC_UNITS = [
  "g", "mg", "kg", "oz", "lb", "ml", "l", "tsp", "tbsp", "cup", "pkg", "items", "drops", "pt", "qt", "gal",
] as const;

const timeUnit = () => Opt(Nullable(OneOf(TIME_UNITS)));

// Real recipes carry `notes: null` on ingredients although the document says string.
const common = {
  ...MetaFields,
  name: Str(),
  inventory: NumN(),
  costPerAmount: NumN(),
  notes: StrN(),
  hidden: Bool(),
};

export const HopAroma = Type.Object({
  floral: Num(PERCENT), grassy: Num(PERCENT), herbal: Num(PERCENT), earthy: Num(PERCENT),
  woody: Num(PERCENT), onion: Num(PERCENT), citrus: Num(PERCENT), fruity: Num(PERCENT),
});

export const FermentableFields = {
  ...common,
  type: Opt(OneOf(FERMENTABLE_TYPES)),
  grainCategory: Opt(Nullable(OneOf(GRAIN_CATEGORIES))),
  amount: Num(),
  percentage: Num(PERCENT),
  color: Num(),
  lovibond: Num(),
  // Real recipes send `use: ""` on fermentables with no addition step.
  use: Opt(Nullable(OneOf([...ADDITION_USES, ""] as const))),
  time: Num(),
  timeUnit: timeUnit(),
  origin: Str(),
  supplier: StrN(),
  potential: NumN({ minimum: 1, maximum: 1.5 }),
  moisture: NumN(PERCENT),
  diastaticPower: NumN(),
  protein: NumN(PERCENT),
  // Documented as a percent; real fermentables carry a fraction (0.81). Both fit 0..100.
  attenuation: NumN(PERCENT),
  notFermentable: BoolN(),
};

export const HopFields = {
  ...common,
  alpha: Num(),
  // Documented as a number; real inventory hops carry `amount: null`.
  amount: NumN(),
  use: Opt(OneOf(HOP_USES)),
  time: NumN({ minimum: 0, maximum: 365 }),
  timeUnit: timeUnit(),
  type: Str(),
  ibu: Num(),
  beta: NumN({ minimum: 0, maximum: 20 }),
  hsi: NumN(PERCENT),
  origin: StrN(),
  // Real recipes send `usage: ""`.
  usage: Opt(Nullable(OneOf([...HOP_USAGES, ""] as const))),
  temp: NumN({ minimum: 0, maximum: 100 }),
  year: NumN(),
  oil: NumN({ minimum: 0, maximum: 10 }),
  myrcene: NumN(PERCENT),
  humulene: NumN(PERCENT),
  caryophyllene: NumN(PERCENT),
  farnesene: NumN(PERCENT),
  geraniol: NumN(PERCENT),
  linalool: NumN(PERCENT),
  aroma: Opt(HopAroma),
};

export const YeastFields = {
  ...common,
  type: Str(),
  form: Str(),
  amount: NumN(),
  unit: Opt(OneOf(YEAST_UNITS)),
  laboratory: StrN(),
  productId: StrN(),
  flocculation: StrN(),
  attenuation: NumN(PERCENT),
  minAttenuation: NumN(PERCENT),
  maxAttenuation: NumN(PERCENT),
  minTemp: NumN(),
  maxTemp: NumN(),
  maxAbv: NumN({ minimum: 0, maximum: 30 }),
  bestFor: Str(),
  starter: BoolN(),
  starterSize: NumN(),
};

export const MiscFields = {
  ...common,
  type: Str(),
  use: Opt(OneOf(ADDITION_USES)),
  // Documented as a number; real recipes carry `time: null`.
  time: NumN(),
  timeUnit: timeUnit(),
  amount: Num(),
  unit: Opt(OneOf(MISC_UNITS)),
  amountPerL: NumN(),
  concentration: NumN(PERCENT),
  waterAdjustment: Bool(),
};

export const Fermentable = Type.Object(FermentableFields);
export const Hop = Type.Object(HopFields);
export const Yeast = Type.Object(YeastFields);
export const Misc = Type.Object(MiscFields);
export type Fermentable = Static<typeof Fermentable>;
export type Hop = Static<typeof Hop>;
export type Yeast = Static<typeof Yeast>;
export type Misc = Static<typeof Misc>;

/** Inventory-tracking fields the document adds to every batch ingredient entry. */
export const TrackingFields = {
  removedFromInventory: Bool(),
  removedAmount: Num(),
  removedUnit: Str(),
  inventoryUnit: StrN(),
  checked: Opt(Type.Union([Type.Number(), Type.Boolean()])),
  notInRecipe: Bool(),
};

export const BatchFermentable = Type.Object({ ...FermentableFields, ...TrackingFields });
export const BatchHop = Type.Object({ ...HopFields, ...TrackingFields });
export const BatchMisc = Type.Object({ ...MiscFields, ...TrackingFields });
export const BatchYeast = Type.Object({ ...YeastFields, ...TrackingFields });

export type IngredientCollection = "fermentables" | "hops" | "miscs" | "yeasts";
export const INGREDIENT_COLLECTIONS: readonly IngredientCollection[] = ["fermentables", "hops", "miscs", "yeasts"];

const ItemName = Type.String({ minLength: 1 });

/** Inventory items as created: `name` required and non-empty. */
export const InventoryCreate = {
  fermentables: Type.Object({ ...FermentableFields, name: ItemName }),
  hops: Type.Object({ ...HopFields, name: ItemName }),
  miscs: Type.Object({ ...MiscFields, name: ItemName }),
  yeasts: Type.Object({ ...YeastFields, name: ItemName }),
} satisfies Record<IngredientCollection, TObject>;

/** Inventory PATCH bodies: nothing required, but a sent `name` must still be non-empty. */
export const InventoryPatch = {
  fermentables: Type.Object({ ...FermentableFields, name: Opt(ItemName) }),
  hops: Type.Object({ ...HopFields, name: Opt(ItemName) }),
  miscs: Type.Object({ ...MiscFields, name: Opt(ItemName) }),
  yeasts: Type.Object({ ...YeastFields, name: Opt(ItemName) }),
} satisfies Record<IngredientCollection, TObject>;
