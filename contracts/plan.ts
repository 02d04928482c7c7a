// The call budget planner. Areas run in order on one budget per key; without a plan the first areas
// would spend the main key's budget and leave the last ones nothing. Before each area the planner
// gives it a share of what is left, in proportion to what the areas still to run usually take, and
// no cap at all when what is left covers them all. Properties then size their runs to the share
// (property.ts), so every area runs at any budget and a small budget shrinks samples first.
import type { AreaName } from "./config.ts";

/**
 * Calls with the main key each area takes on an account with a few dozen records of each kind
 * (measured on the self-test's data, properties at their full size). Only the proportions matter.
 * Sampled checks (the first values outside nested bounds) count at their smallest: they take what
 * the share leaves, so they never crowd out the other areas at a small budget.
 */
export const AREA_WEIGHTS: Record<AreaName, number> = {
  auth: 5, errors: 45, isolation: 26, readings: 25, lists: 140, batches: 130, recipes: 61, inventory: 106, v1: 0, ratelimit: 0, extensions: 110,
};

/** What the run learnt about the main account before the areas run (fixtures.ts). */
export interface Facts { mainHasBatches?: boolean; hasOther?: boolean }

/** An area's weight, near nothing when what it needs is absent (its checks will skip at no cost). */
export function weightOf(area: AreaName, facts: Facts): number {
  if ((area === "batches" || area === "readings") && facts.mainHasBatches === false) return 3;
  if (area === "isolation" && facts.hasOther === false) return 0;
  return AREA_WEIGHTS[area];
}

/** The main key's calls the area may make: everything left when it covers the areas to come, else its share. */
export function areaShare(remaining: number, area: AreaName, toCome: AreaName[], facts: Facts = {}): number {
  const need = toCome.reduce((n, a) => n + weightOf(a, facts), 0);
  if (need <= remaining || need === 0) return remaining;
  return Math.floor((remaining * weightOf(area, facts)) / need);
}
