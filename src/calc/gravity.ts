// Boil volumes, gravities, attenuation and alcohol.
import type { Equipment } from "./equipment.ts";
import { type Fermentable, points } from "./fermentables.ts";
import { clamp } from "./input.ts";

/** Wort shrinks by 4 % from boiling to fermenter temperature. */
export const COOLING_SHRINKAGE = 0.96;

export interface BoilVolumes {
  postBoil: number; // L, hot, in the kettle at the end of the boil
  boilSize: number; // L, hot, at the start of the boil
}

/**
 * Post-boil volume = (batch + trub/chiller loss − top-up water) / 0.96; pre-boil volume =
 * that plus the boil-off over the boil time. A profile with `calcBoilVolume: false` keeps
 * its own. Top-up water (a partial boil, as extract brewers do) is added after the boil.
 */
export function boilVolumes(eq: Equipment): BoilVolumes {
  const cooled = Math.max(eq.batchSize + eq.trubChillerLoss - eq.topUpWater, 0);
  const postBoil = cooled / COOLING_SHRINKAGE;
  if (eq.fixedBoilSize !== undefined) return { postBoil, boilSize: eq.fixedBoilSize };
  const hours = eq.boilTime / 60;
  if (eq.boilOffPerHr !== undefined) return { postBoil, boilSize: postBoil + eq.boilOffPerHr * hours };
  // Only a rate relative to the boil volume: solve boil = post + rate × boil × hours.
  const kept = Math.max(1 - eq.evaporationRate * hours, 0.25);
  return { postBoil, boilSize: postBoil / kept };
}

/** Gravity points (SG − 1) × 1000 that the given fermentables give in `litres`. */
export function gravityPoints(list: Fermentable[], efficiency: number, litres: number): number {
  if (!(litres > 0)) return 0;
  let sum = 0;
  for (const f of list) sum += points(f, efficiency);
  return sum / litres;
}

export interface Gravities {
  og: number; // in the fermenter, including additions there
  postBoil: number; // end of the boil, before any top-up water
  preBoil: number; // start of the boil
  /** Gravity in the kettle with `minutes` of the boil left: what a hop added then boils in. */
  boilAt: (minutes: number) => number;
  nonFermentablePoints: number; // part of OG no yeast can take (lactose, maltodextrin)
  sugarPoints: number; // part of OG the yeast takes completely (plain sugar)
}

/**
 * OG = 1 + Σ(kg × (potential − 1) × 1000 × 8.3454 × yield) / batchSize / 1000, where
 * yield is the efficiency for grains and 1 for sugars and extracts. Priming sugar
 * (`use: Bottling`) is left out: it ferments in the bottle, after OG is measured.
 * The kettle holds the mash's points plus every boil addition from the minute it goes in
 * (extract and sugar at the start, late extract at its `time`), in the pre-boil volume;
 * at the end of the boil they are concentrated into what is left before top-up water.
 */
export function gravities(list: Fermentable[], eq: Equipment, vol: BoilVolumes): Gravities {
  const pts = (s: Fermentable[]) => gravityPoints(s, eq.efficiency, eq.batchSize);
  const mash = list.filter((f) => f.stage === "mash");
  const kettle = list.filter((f) => f.stage === "kettle");
  const mashPts = pts(mash);
  const kettlePts = pts(kettle);
  const fermenterPts = pts(list.filter((f) => f.stage === "fermenter"));
  const inOg = list.filter((f) => f.stage !== "bottling");
  const nf = pts(inOg.filter((f) => f.notFermentable));
  const sugar = pts(inOg.filter((f) => f.fullyFermentable));
  // The app's convention: OG points × post-boil volume / pre-boil volume (batch-based points).
  const fullVolume = (eq.batchSize + eq.trubChillerLoss) / COOLING_SHRINKAGE;
  const toKettle = vol.boilSize > 0 ? fullVolume / vol.boilSize : 1;
  const toPostBoil = vol.postBoil > 0 ? fullVolume / vol.postBoil : 1;
  const boilAt = (minutes: number) => {
    const inKettle = kettle.filter((f) => f.boilMinutes === undefined || f.boilMinutes >= minutes);
    return 1 + ((mashPts + pts(inKettle)) * toKettle) / 1000;
  };
  return {
    og: 1 + (mashPts + kettlePts + fermenterPts) / 1000,
    postBoil: 1 + ((mashPts + kettlePts) * toPostBoil) / 1000,
    preBoil: boilAt(Number.POSITIVE_INFINITY),
    boilAt,
    nonFermentablePoints: nf,
    sugarPoints: sugar,
  };
}

/**
 * Estimated FG: the yeast takes its attenuation (percent) of the wort's points, all of
 * the plain sugar's points and none of the non-fermentable points.
 */
export function estimateFg(og: number, yeastAttenuationPct: number, nonFermentablePoints: number, sugarPoints = 0): number {
  const total = Math.max(0, (og - 1) * 1000);
  const nf = clamp(nonFermentablePoints, 0, total);
  const sugar = clamp(sugarPoints, 0, total - nf);
  const left = (total - nf - sugar) * (1 - clamp(yeastAttenuationPct, 0, 100) / 100) + nf;
  return 1 + left / 1000;
}

/** Apparent attenuation in percent: (OG − FG) / (OG − 1) × 100. */
export function apparentAttenuation(og: number, fg: number): number {
  return og > 1 ? ((og - fg) / (og - 1)) * 100 : 0;
}

/** ABV = (OG rounded to 3 decimals − FG) × 131.25; the rounding reproduces the app's stored values. */
export function abv(og: number, fg: number): number {
  return (Math.round(og * 1000) / 1000 - fg) * 131.25;
}
