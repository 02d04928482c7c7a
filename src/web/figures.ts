import { abv, apparentAttenuation } from "../calc/gravity.ts";
import type { ChartReading } from "./chart.ts";
import { HOUR, num } from "./format.ts";

// The figures a brewer reads from a batch's readings while it ferments: where the gravity is now,
// how far the yeast has got, how fast it still moves, and whether the readings still come in.

export type OgSource = "measured" | "first reading" | "recipe";

export interface GravityChange {
  /** Latest gravity minus the gravity `hours` earlier. */
  delta: number;
  hours: number;
}

export interface FermentationFigures {
  /** The latest reading that carries a gravity. */
  current: { sg: number; time: number };
  og?: { sg: number; source: OgSource };
  /** Apparent attenuation so far, percent; with ABV, only when an original gravity is known. */
  attenuation?: number;
  abv?: number;
  /** Over the last 24 hours, or over all readings when they span less. */
  change?: GravityChange;
  /** The latest reading of any kind (a temperature-only check counts). */
  lastTime: number;
}

const WINDOW = 24 * HOUR;

/**
 * The original gravity the figures start from: the brewer's measured OG, else the first gravity
 * reading (a device starts logging at pitching), else the recipe's estimate.
 */
export function originalGravity(batch: Record<string, unknown>, gravities: readonly ChartReading[]): FermentationFigures["og"] {
  const measured = num(batch.measuredOg);
  if (measured !== undefined) return { sg: measured, source: "measured" };
  const first = gravities[0]?.sg;
  if (first !== undefined && first !== null && gravities.length > 1) return { sg: first, source: "first reading" };
  const estimated = num(batch.estimatedOg);
  return estimated === undefined ? undefined : { sg: estimated, source: "recipe" };
}

/** The change of gravity up to the latest reading, from the last reading at least 24 h before it. */
export function gravityChange(gravities: readonly ChartReading[]): GravityChange | undefined {
  if (gravities.length < 2) return undefined;
  const last = gravities[gravities.length - 1]!;
  let from = gravities[0]!;
  for (const r of gravities) {
    if (r.time <= last.time - WINDOW) from = r;
    else break;
  }
  if (from === last) return undefined;
  return { delta: last.sg! - from.sg!, hours: (last.time - from.time) / HOUR };
}

/** Figures from readings in time order; undefined when no reading carries a gravity. */
export function fermentationFigures(batch: Record<string, unknown>, readings: readonly ChartReading[]): FermentationFigures | undefined {
  const gravities = readings.filter((r) => r.sg !== null);
  const latest = gravities[gravities.length - 1];
  if (!latest) return undefined;
  const current = { sg: latest.sg!, time: latest.time };
  const og = originalGravity(batch, gravities);
  const figures: FermentationFigures = { current, og, change: gravityChange(gravities), lastTime: readings[readings.length - 1]!.time };
  if (og && og.sg > 1) {
    figures.attenuation = apparentAttenuation(og.sg, current.sg);
    figures.abv = Math.max(0, abv(og.sg, current.sg));
  }
  return figures;
}
