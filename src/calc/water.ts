// Water volumes of the brew day and the strike temperature.
import type { Equipment } from "./equipment.ts";
import { COOLING_SHRINKAGE, type BoilVolumes } from "./gravity.ts";
import { round } from "./input.ts";

/** Litres one kilogram of grain adds to the mash volume. */
export const GRAIN_DISPLACEMENT = 0.67;
/** Share of the grain's heat capacity relative to water, in the strike formula. */
export const GRAIN_HEAT_RATIO = 0.4;

export interface Water {
  mashWaterAmount: number;
  spargeWaterAmount: number;
  totalWaterAmount: number;
  hltWaterAmount: number;
  topUpWater: number;
  mashVolume: number;
  mashVolumeSurplus: number;
}

/**
 * mash = grain kg × water-to-grain ratio + mash tun dead space;
 * sparge = boil volume − mash + grain kg × absorption + mash tun loss, with the boil
 * volume cooled (× 0.96) unless the profile uses the app's older "Default" calculation;
 * mash volume = mash water + 0.67 L per kg grain. Volumes are rounded to 0.01 L before
 * they feed the next figure, as the app does. Maximum volumes move the excess: too much
 * mash water goes to the sparge; too much sparge water goes to the mash or is topped up.
 */
export function waterVolumes(grainKg: number, eq: Equipment, vol: BoilVolumes): Water {
  const boilVolume = eq.hotSpargeBasis ? vol.boilSize : vol.boilSize * COOLING_SHRINKAGE;
  if (!(grainKg > 0)) {
    // Nothing to mash: all the water goes straight into the kettle.
    const kettle = round(boilVolume, 2);
    return { mashWaterAmount: 0, spargeWaterAmount: 0, totalWaterAmount: kettle, hltWaterAmount: 0, topUpWater: 0, mashVolume: 0, mashVolumeSurplus: 0 };
  }
  let mash = round(grainKg * eq.waterGrainRatio + eq.mashTunDeadSpace, 2);
  let sparge = round(Math.max(0, boilVolume - mash + grainKg * eq.grainAbsorptionRate + eq.mashTunLoss), 2);
  let topUp = 0;
  if (eq.mashWaterMax !== undefined && mash > eq.mashWaterMax) {
    sparge = round(sparge + mash - eq.mashWaterMax, 2);
    mash = eq.mashWaterMax;
  }
  if (eq.spargeWaterMax !== undefined && sparge > eq.spargeWaterMax) {
    const excess = sparge - eq.spargeWaterMax;
    sparge = eq.spargeWaterMax;
    if (eq.overflowToMash) mash = round(mash + excess, 2);
    else topUp = round(excess, 2);
  }
  const mashVolume = mash + GRAIN_DISPLACEMENT * grainKg;
  return {
    mashWaterAmount: mash,
    spargeWaterAmount: sparge,
    totalWaterAmount: round(mash + sparge + topUp, 2),
    hltWaterAmount: sparge,
    topUpWater: topUp,
    mashVolume: round(mashVolume, 2),
    mashVolumeSurplus: eq.mashTunVolume !== undefined ? round(Math.max(0, mashVolume - eq.mashTunVolume), 2) : 0,
  };
}

/**
 * Strike water temperature for a single infusion: T + 0.4 × (T − grain temperature)
 * × grain kg / water L, where T is the first mash step. Null when there is no water
 * or no step temperature to aim for.
 */
export function strikeTemperature(targetC: number | undefined, grainTempC: number, grainKg: number, waterL: number): number | null {
  if (targetC === undefined || !(waterL > 0)) return null;
  const t = targetC + (GRAIN_HEAT_RATIO * (targetC - grainTempC) * grainKg) / waterL;
  return Number.isFinite(t) ? round(t, 1) : null;
}
