// Water chemistry of a recipe (API document: Water, Water Profile, Water Adjustments,
// Acid Addition, Water Settings and Water Ingredient objects).
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Num, NumN, Nullable, NumericString, OneOf, Opt, PERCENT, PH, Str } from "./common";

// Real water profiles carry ion amounts and pH as numeric strings ("9.98", ".860", "6.3") as
// well as numbers; both are accepted (bounds apply to numbers).
const ion = () => Opt(Type.Union([Type.Number(), NumericString(), Type.Null()]));

export const WaterProfile = Type.Object({
  _id: Str(),
  name: Str(),
  description: Str(),
  type: Opt(OneOf(["source", "target"] as const)),
  calcium: ion(),
  magnesium: ion(),
  sodium: ion(),
  chloride: ion(),
  sulfate: ion(),
  bicarbonate: Opt(Type.Union([Type.Number(), NumericString()])),
  ph: Opt(Type.Union([Type.Number(PH), NumericString(), Type.Null()])),
  cations: NumN(),
  anions: NumN(),
  ionBalance: NumN(),
  hardness: NumN(),
  alkalinity: NumN(),
  residualAlkalinity: NumN(),
  residualAlkalinityMeqLCalc: NumN(),
  soClRatio: NumN(),
  bicarbonateMeqL: NumN(),
  ionBalanceOff: Bool(),
  hidden: Bool(),
});
export type WaterProfile = Static<typeof WaterProfile>;

export const AcidAddition = Type.Object({
  type: Opt(OneOf(["lactic", "phosphoric"] as const)),
  concentration: Num(),
  amount: Num(),
  alkalinityMeqL: NumN(),
});

/** Salts of the water calculator, in the document's order. */
export const WATER_SALTS = [
  "calciumCarbonate", "sodiumBicarbonate", "calciumHydroxide", "calciumSulfate", "magnesiumSulfate",
  "calciumChloride", "magnesiumChloride", "sodiumChloride", "sodiumMetabisulfite", "ltDWB", "ltAMS",
] as const;

const saltProperties = <T>(make: () => T) =>
  Object.fromEntries(WATER_SALTS.map((salt) => [salt, make()])) as Record<(typeof WATER_SALTS)[number], T>;

export const WaterAdjustments = Type.Object({
  volume: Num(),
  acids: Opt(Type.Array(AcidAddition)),
  ...saltProperties(() => NumN()),
});

export const WaterIngredient = Type.Object({
  mash: Bool(),
  sparge: Bool(),
  auto: Bool(),
  form: Str(),
  concentration: Num(PERCENT),
});

export const WaterSettings = Type.Object({
  adjustSparge: Bool(),
  ...saltProperties(() => Opt(WaterIngredient)),
});

const profile = () => Opt(WaterProfile);
const profileOrNull = () => Opt(Nullable(WaterProfile));

export const Water = Type.Object({
  mashWaterAmount: NumN(),
  spargeWaterAmount: NumN(),
  source: profile(),
  mash: profile(),
  sparge: profile(),
  total: profile(),
  target: profileOrNull(),
  diluted: profileOrNull(),
  dilution: profileOrNull(),
  sourceTargetDiff: profileOrNull(),
  mashTargetDiff: profileOrNull(),
  spargeTargetDiff: profileOrNull(),
  totalTargetDiff: profileOrNull(),
  dilutionPercentage: NumN(PERCENT),
  dilutionAmount: Num(),
  dilutionByAmount: Bool(),
  mashAdjustments: Opt(WaterAdjustments),
  spargeAdjustments: Opt(WaterAdjustments),
  totalAdjustments: Opt(WaterAdjustments),
  enableSpargeAdjustments: Bool(),
  enableAcidAdjustments: Bool(),
  enableSpargeAcidAdjustments: Bool(),
  mashPh: NumN(PH),
  mashPhDistilled: NumN(PH),
  spargeWaterPh: Num(PH),
  spargeWaterTargetPh: Num(PH),
  spargeAcidPhAdjustment: NumN(),
  acidPhAdjustment: NumN(),
  settings: Opt(WaterSettings),
});
export type Water = Static<typeof Water>;
