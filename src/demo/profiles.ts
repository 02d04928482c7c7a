import { PROFILE_IDS as P } from "./ids.ts";
import { round } from "./random.ts";

// Equipment, mash, fermentation, water and style objects nested in recipes,
// with the field names real recipes carry (the API document leaves them open).

type Obj = Record<string, unknown>;

/** Volumes come from the recipe so the copy a recipe holds agrees with it. */
export function equipment(batchSize: number, boilSize: number, postBoilKettleVol: number): Obj {
  return {
    _id: P.equipment,
    name: "Demo Brewhouse 35 L",
    batchSize, boilSize, boilTime: 60, boilOffPerHr: 3.5,
    evaporationRate: round(3.5 / boilSize, 4),
    postBoilKettleVol,
    fermenterVolume: batchSize, fermenterLoss: 1, trubChillerLoss: 1.5,
    bottlingVolume: batchSize - 1,
    efficiency: 72, brewhouseEfficiency: 72, mashEfficiency: 80, efficiencyType: "Fermenter",
    mashTunDeadSpace: 0.5, mashTunLoss: 0.5, mashTunHeatCapacity: 0,
    grainAbsorptionRate: 0.96, waterGrainRatio: 2.8,
    mashWaterFormula: "(GrainAmountKg * WaterGrainRatio) + MashTunDeadSpaceL",
    spargeWaterFormula: "BoilVolumeL - MashWaterL + (GrainAmountKg * GrainAbsorptionRate) + MashTunLossL",
    spargeWaterOverflow: "Mash", spargeTemperature: 76,
    grainTemperature: "20", ambientTemperature: 20, calcStrikeWaterTemperature: true,
    boilTemp: 100, altitude: 0, hopUtilization: 1, aromaHopUtilization: 0.23,
    hopstandTemperature: 80, whirlpoolTime: 0, waterCalculation: "Default",
  };
}

function mashStep(name: string, stepTemp: number, stepTime: number, rampTime: number | null): Obj {
  return { name, type: "Temperature", stepTemp, displayStepTemp: stepTemp, stepTime, rampTime };
}

export function singleInfusionMash(restTemp: number): Obj {
  return {
    _id: P.mashSingle,
    name: "Single Infusion, Mash Out",
    steps: [mashStep("Saccharification", restTemp, 60, null), mashStep("Mash Out", 76, 10, 10)],
  };
}

export const STEP_MASH: Obj = {
  _id: P.mashStep,
  name: "Hochkurz Step Mash",
  steps: [
    mashStep("Beta Rest", 64, 45, null),
    mashStep("Alpha Rest", 72, 20, 8),
    mashStep("Mash Out", 78, 10, 6),
  ],
};

function fermentationStep(name: string, type: string, stepTemp: number, stepTime: number, ramp: number | null): Obj {
  return { name, type, stepTemp, displayStepTemp: stepTemp, stepTime, ramp, pressure: null, displayPressure: null };
}

export const ALE_FERMENTATION: Obj = {
  _id: P.fermentationAle,
  name: "Ale, 18 °C then 20 °C",
  pressurized: false,
  steps: [
    fermentationStep("Primary", "Primary", 18, 4, null),
    fermentationStep("Free Rise", "Primary", 20, 10, 1),
    fermentationStep("Cold Crash", "Cold Crash", 2, 2, 1),
    fermentationStep("Carbonation", "Carbonation", 20, 14, null),
  ],
};

export const LAGER_FERMENTATION: Obj = {
  _id: P.fermentationLager,
  name: "Lager, Diacetyl Rest, Lagering",
  pressurized: false,
  steps: [
    fermentationStep("Primary", "Primary", 10, 10, null),
    fermentationStep("Diacetyl Rest", "Primary", 16, 3, 2),
    fermentationStep("Lagering", "Conditioning", 1, 28, 3),
  ],
};

const SOURCE_WATER: Obj = {
  _id: P.waterSource, name: "Demo Tap Water", type: "source",
  calcium: 40, magnesium: 8, sodium: 12, chloride: 25, sulfate: 30, bicarbonate: 120, ph: 7.6,
};

function targetWater(_id: string, name: string, ions: Obj): Obj {
  return { _id, name, type: "target", ...ions };
}

/** Salt and acid additions in grams and millilitres for the mash. */
export function water(target: "pale" | "pilsner" | "stout", gypsum: number, calciumChloride: number, lactic: number, mashPh: number): Obj {
  const targets: Record<typeof target, Obj> = {
    pale: targetWater(P.waterPale, "Pale Ale, Hoppy", { calcium: 110, magnesium: 10, sodium: 15, chloride: 60, sulfate: 250, bicarbonate: 40 }),
    pilsner: targetWater(P.waterPilsner, "Pilsner, Soft", { calcium: 50, magnesium: 5, sodium: 10, chloride: 50, sulfate: 60, bicarbonate: 20 }),
    stout: targetWater(P.waterStout, "Dry Stout", { calcium: 90, magnesium: 10, sodium: 20, chloride: 60, sulfate: 70, bicarbonate: 160 }),
  };
  return {
    source: SOURCE_WATER,
    target: targets[target],
    mashAdjustments: {
      calciumSulfate: gypsum, calciumChloride, magnesiumSulfate: 0, sodiumChloride: 0, sodiumBicarbonate: 0,
      acids: lactic > 0 ? [{ type: "lactic", concentration: 80, amount: lactic }] : [],
    },
    enableAcidAdjustments: lactic > 0,
    mashPh,
  };
}

function style(_id: string, name: string, categoryNumber: string, styleLetter: string, category: string, limits: Record<string, number>): Obj {
  const midGravityPoints = ((limits.ogMin + limits.ogMax) / 2 - 1) * 1000;
  return {
    _id, name, category, categoryNumber, styleLetter, styleGuide: "BJCP 2015", type: "Ale",
    ...limits,
    buGuMin: round(limits.ibuMin / midGravityPoints, 2),
    buGuMax: round(limits.ibuMax / midGravityPoints, 2),
  };
}

export const STYLES = {
  paleAle: style(P.stylePaleAle, "American Pale Ale", "18", "B", "Pale American Ale", {
    ogMin: 1.045, ogMax: 1.06, fgMin: 1.01, fgMax: 1.015, ibuMin: 30, ibuMax: 50,
    colorMin: 5, colorMax: 10, abvMin: 4.5, abvMax: 6.2, carbMin: 2.3, carbMax: 2.8,
  }),
  pilsner: { ...style(P.stylePilsner, "German Pils", "5", "D", "Pale Bitter European Beer", {
    ogMin: 1.044, ogMax: 1.05, fgMin: 1.008, fgMax: 1.013, ibuMin: 22, ibuMax: 40,
    colorMin: 2, colorMax: 5, abvMin: 4.4, abvMax: 5.2, carbMin: 2.4, carbMax: 2.8,
  }), type: "Lager" },
  stout: style(P.styleStout, "Irish Stout", "15", "B", "Irish Beer", {
    ogMin: 1.036, ogMax: 1.044, fgMin: 1.007, fgMax: 1.011, ibuMin: 25, ibuMax: 45,
    colorMin: 25, colorMax: 40, abvMin: 4, abvMax: 4.5, carbMin: 1.9, carbMax: 2.3,
  }),
};
