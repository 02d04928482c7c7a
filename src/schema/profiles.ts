// Style, equipment, mash and fermentation profiles, tags and nutrition of a recipe.
// The document lists Style fields only partly and Equipment/Mash/Fermentation fields not at all;
// the fields typed here are the ones real recipes carry, with the types seen there.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, MetaFields, Num, NumN, Nullable, Opt, Str, StrN } from "./common";

// `categoryNumber` is documented as a string but real styles carry a number; `type` may be null.
export const Style = Type.Object({
  _id: Str(),
  name: Str(),
  category: Str(),
  categoryNumber: Opt(Type.Union([Type.String(), Type.Number()])),
  styleLetter: Str(),
  styleGuide: Str(),
  type: StrN(),
  ogMin: NumN(), ogMax: NumN(),
  fgMin: NumN(), fgMax: NumN(),
  ibuMin: NumN(), ibuMax: NumN(),
  colorMin: NumN(), colorMax: NumN(),
  abvMin: NumN(), abvMax: NumN(),
  buGuMin: NumN(), buGuMax: NumN(),
  rbrMin: NumN(), rbrMax: NumN(),
  carbMin: NumN(), carbMax: NumN(),
  lovibondMin: NumN(), lovibondMax: NumN(),
});
export type Style = Static<typeof Style>;

export const Equipment = Type.Object({
  ...MetaFields,
  name: Str(),
  hidden: Bool(),
  notes: Str(),
  batchSize: NumN(), boilSize: NumN(), boilTime: NumN(), boilOffPerHr: NumN(),
  evaporationRate: NumN(), postBoilKettleVol: NumN(), fermenterVolume: NumN(),
  fermenterLoss: NumN(), trubChillerLoss: NumN(), bottlingVolume: NumN(),
  efficiency: NumN(), brewhouseEfficiency: NumN(), mashEfficiency: NumN(), efficiencyType: StrN(),
  mashTunDeadSpace: NumN(), mashTunLoss: NumN(), mashTunHeatCapacity: NumN(),
  grainAbsorptionRate: NumN(), waterGrainRatio: NumN(),
  // Formula text such as "(GrainAmountKg * WaterGrainRatio) + MashTunDeadSpaceL".
  mashWaterFormula: StrN(), spargeWaterFormula: StrN(), spargeWaterOverflow: StrN(),
  spargeTemperature: NumN(),
  // Real equipment carries `grainTemperature` as a string.
  grainTemperature: Opt(Nullable(Type.Union([Type.Number(), Type.String()]))),
  ambientTemperature: NumN(), calcStrikeWaterTemperature: Opt(Nullable(Type.Boolean())),
  boilTemp: NumN(), altitude: NumN(), hopUtilization: NumN(), aromaHopUtilization: NumN(),
  hopstandTemperature: NumN(), whirlpoolTime: NumN(), waterCalculation: StrN(),
});
export type Equipment = Static<typeof Equipment>;

// `displayStepTemp` is a number or a string in real mash steps.
export const MashStep = Type.Object({
  name: Str(),
  type: Str(),
  stepTemp: NumN(),
  stepTime: NumN(),
  rampTime: NumN(),
  displayStepTemp: Opt(Nullable(Type.Union([Type.Number(), Type.String()]))),
});

export const MashProfile = Type.Object({
  ...MetaFields,
  name: Str(),
  hidden: Bool(),
  steps: Opt(Type.Array(MashStep)),
});
export type MashProfile = Static<typeof MashProfile>;

/** API document: Fermentation Step Object. */
export const FermentationStep = Type.Object({
  name: Str(),
  type: Str(),
  stepTemp: Num({ minimum: -100, maximum: 100 }),
  stepTime: Num({ minimum: 0, maximum: 365 }),
  ramp: NumN({ minimum: 0, maximum: 365 }),
  pressure: NumN({ minimum: -100, maximum: 100 }),
  displayStepTemp: NumN(),
  displayPressure: NumN(),
  actualTime: NumN(),
  actualRampTime: NumN(),
});

export const FermentationProfile = Type.Object({
  ...MetaFields,
  name: Str(),
  hidden: Bool(),
  pressurized: Opt(Nullable(Type.Boolean())),
  steps: Opt(Type.Array(FermentationStep)),
});
export type FermentationProfile = Static<typeof FermentationProfile>;

export const Tag = Type.Object({ display: Str(), value: Str() });

export const Nutrition = Type.Object({
  calories: Opt(Type.Object({ total: Num(), alcohol: Num(), carbs: Num(), kJ: Num() })),
  carbs: Opt(Type.Object({ total: Num() })),
});
