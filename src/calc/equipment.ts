// The equipment profile with every value the calculations need, defaults filled in.
// Defaults follow the API document (boil time 60, efficiency 72) or, where it is
// silent, the values the hosted app stores in fresh equipment profiles.
import { type Obj, fraction, key, nonNeg, num, obj, pick } from "./input.ts";

export interface Equipment {
  batchSize: number; // L into the fermenter
  trubChillerLoss: number; // L left in the kettle
  boilTime: number; // min
  boilOffPerHr: number | undefined; // L/h when stated
  evaporationRate: number; // fraction of the boil volume per hour, used when boilOffPerHr is absent
  fixedBoilSize: number | undefined; // L, when the profile says not to calculate it
  topUpWater: number; // L of water added to the fermenter after a partial boil
  efficiency: number; // fraction
  mashTunDeadSpace: number; // L
  mashTunLoss: number; // L
  grainAbsorptionRate: number; // L/kg
  waterGrainRatio: number; // L/kg
  hotSpargeBasis: boolean; // sparge from the hot boil volume (the app's "Default" calculation)
  mashWaterMax: number | undefined;
  spargeWaterMax: number | undefined;
  overflowToMash: boolean; // sparge water above its maximum goes to the mash instead of top-up
  mashTunVolume: number | undefined;
  grainTemperature: number; // °C
  calcStrikeWaterTemperature: boolean;
  boilTemp: number; // °C
  altitude: number; // m
  hopUtilization: number; // fraction
  aromaHopUtilization: number | undefined; // fraction, as stored
  calcAromaHopUtilization: boolean;
  hopstandTemperature: number; // °C
  whirlpoolTime: number; // min the wort stays hot after the boil before chilling
}

export const DEFAULTS = {
  batchSize: 20,
  boilTime: 60,
  efficiencyPercent: 72,
  evaporationRate: 0.1, // 10 % of the boil volume per hour
  grainAbsorptionRate: 0.8, // L/kg; reproduces the app when the profile has none
  waterGrainRatio: 2.7, // L/kg
  grainTemperature: 20,
  hopstandTemperature: 80,
} as const;

/** Boiling point of water at an altitude (about 1 °C per 300 m). */
export function boilingPoint(altitudeM: number): number {
  return 100 - altitudeM * 0.00335;
}

export function readEquipment(recipe: Obj): Equipment {
  const e = obj(recipe.equipment);
  const altitude = pick(0, e.altitude);
  const boilTempRaw = num(e.boilTemp);
  const boilTemp = boilTempRaw !== undefined && boilTempRaw > 0 && boilTempRaw <= 100 ? boilTempRaw : boilingPoint(altitude);
  const batchSize = positive(recipe.batchSize) ?? positive(e.batchSize) ?? DEFAULTS.batchSize;
  const efficiency = positiveFraction(recipe.efficiency) ?? positiveFraction(e.efficiency) ?? DEFAULTS.efficiencyPercent / 100;
  const fixedBoilSize = e.calcBoilVolume === false ? positive(e.boilSize) ?? positive(recipe.boilSize) : undefined;
  return {
    batchSize,
    trubChillerLoss: nonNeg(e.trubChillerLoss),
    boilTime: nonNeg(recipe.boilTime, nonNeg(e.boilTime, DEFAULTS.boilTime)),
    boilOffPerHr: num(e.boilOffPerHr) !== undefined ? nonNeg(e.boilOffPerHr) : undefined,
    evaporationRate: fraction(e.evaporationRate) ?? DEFAULTS.evaporationRate,
    fixedBoilSize,
    topUpWater: nonNeg(e.topUpWater),
    efficiency,
    mashTunDeadSpace: nonNeg(e.mashTunDeadSpace),
    mashTunLoss: nonNeg(e.mashTunLoss),
    grainAbsorptionRate: nonNeg(e.grainAbsorptionRate, DEFAULTS.grainAbsorptionRate),
    waterGrainRatio: positive(e.waterGrainRatio) ?? DEFAULTS.waterGrainRatio,
    hotSpargeBasis: key(e.waterCalculation) === "default",
    mashWaterMax: e.mashWaterVolumeLimitEnabled === false ? undefined : positive(e.mashWaterMax),
    spargeWaterMax: positive(e.spargeWaterMax),
    overflowToMash: key(e.spargeWaterOverflow) === "mash",
    mashTunVolume: positive(e.mashTunVolume),
    grainTemperature: pick(DEFAULTS.grainTemperature, e.grainTemperature),
    calcStrikeWaterTemperature: e.calcStrikeWaterTemperature === true,
    boilTemp,
    altitude,
    hopUtilization: positiveFraction(e.hopUtilization) ?? 1,
    aromaHopUtilization: fraction(e.aromaHopUtilization),
    calcAromaHopUtilization: e.calcAromaHopUtilization !== false,
    hopstandTemperature: pick(DEFAULTS.hopstandTemperature, e.hopstandTemperature),
    whirlpoolTime: nonNeg(e.whirlpoolTime),
  };
}

function positive(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && n > 0 ? n : undefined;
}

function positiveFraction(v: unknown): number | undefined {
  const f = fraction(v);
  return f !== undefined && f > 0 ? Math.min(f, 1) : undefined;
}
