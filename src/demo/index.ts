import { buildBatches } from "./batches.ts";
import { buildInventory } from "./inventory.ts";
import { createRandom } from "./random.ts";
import { paleAle, pilsner, stout } from "./recipes.ts";

// The demo account's import document: what a new server loads into an empty
// database so there is something real-looking to read, filter and page through.

export type DemoRecord = Record<string, unknown>;

export interface DemoData {
  batches: DemoRecord[];
  recipes: DemoRecord[];
  fermentables: DemoRecord[];
  hops: DemoRecord[];
  miscs: DemoRecord[];
  yeasts: DemoRecord[];
}

/** A fixed seed: only `now` moves the data, and only its timestamps. */
const DEMO_SEED = 0x62726577;

/**
 * Builds the demo data relative to `now` (Unix ms). Batches may carry the import
 * keys `readings` (Reading Object[]) and `brewTracker` (Brew Tracker Object).
 */
export function buildDemoData(now: number): DemoData {
  const at = Math.floor(now);
  const random = createRandom(DEMO_SEED);
  const inventory = buildInventory(at, random);
  const recipes = { paleAle: paleAle(at, random), pilsner: pilsner(at, random), stout: stout(at, random) };
  return {
    batches: buildBatches(at, recipes, random),
    recipes: [recipes.paleAle, recipes.pilsner, recipes.stout],
    ...inventory,
  };
}
