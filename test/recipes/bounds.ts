// Every numeric bound a recipe is held to, as a path into one recipe, and a recipe to set them on.
import type { Doc } from "./harness.ts";
import { RECIPE_BOUNDS, type Bound as SchemaBound } from "../schema/bounds.ts";

export interface Bound extends SchemaBound {
  min: number;
  /** The service recalculates the value (a fermentable's percentage): it is checked but not kept. */
  recalculated?: boolean;
}

/**
 * The recipe bounds of test/schema/bounds.ts (one table of the document's bounds), less those under
 * the server-managed `data`, which a client cannot send.
 */
export const BOUNDS: readonly Bound[] = RECIPE_BOUNDS.filter((b) => !b.path.startsWith("data.")).map((b) => ({
  ...b,
  min: b.min!,
  ...(b.path === "fermentables.0.percentage" ? { recalculated: true } : {}),
}));

/** A valid recipe holding every path of BOUNDS at an inside value. */
export function boundsBase(): Doc {
  return {
    name: "Bounds",
    batchSize: 20, efficiency: 70, mashEfficiency: 80, og: 1.05, color: 10, carbonation: 2.5,
    fermentables: [{ name: "Pilsner", type: "Grain", amount: 4, color: 2, percentage: 100, potential: 1.037, moisture: 4, protein: 10, attenuation: 80 }],
    hops: [{
      name: "Saaz", alpha: 3.5, amount: 40, use: "Boil", time: 60, beta: 4, hsi: 20, temp: 80, oil: 1,
      myrcene: 30, humulene: 20, caryophyllene: 10, farnesene: 12, geraniol: 1, linalool: 1,
      aroma: { floral: 50, grassy: 20, herbal: 60, earthy: 40, woody: 10, onion: 0, citrus: 30, fruity: 20 },
    }],
    yeasts: [{ name: "W-34/70", type: "Lager", attenuation: 82, minAttenuation: 80, maxAttenuation: 84, maxAbv: 11 }],
    miscs: [{ name: "Lactic acid", type: "Water Agent", use: "Mash", amount: 5, unit: "ml", concentration: 80 }],
    fermentation: { name: "Lager", steps: [{ name: "Primary", type: "Primary", stepTemp: 10, stepTime: 14, ramp: 1, pressure: 0 }] },
    water: {
      dilutionPercentage: 10, mashPh: 5.3, mashPhDistilled: 5.6, spargeWaterPh: 7, spargeWaterTargetPh: 5.8,
      source: { name: "Tap", type: "source", calcium: 20, bicarbonate: 50, ph: 7.5 },
      target: { name: "Pilsen", type: "target", calcium: 7, bicarbonate: 15, ph: 7 },
      settings: {
        adjustSparge: false,
        calciumChloride: { mash: true, sparge: false, auto: true, form: "liquid", concentration: 33 },
        calciumSulfate: { mash: true, sparge: false, auto: true, form: "solid", concentration: 100 },
      },
    },
  };
}

/** A deep copy of `doc` with the value at a dot path (array indices as numbers) replaced. */
export function setPath(doc: Doc, path: string, value: unknown): Doc {
  const copy = structuredClone(doc);
  const keys = path.split(".");
  let at: any = copy;
  for (const k of keys.slice(0, -1)) at = at[k];
  at[keys.at(-1)!] = value;
  return copy;
}

export function getPath(doc: unknown, path: string): unknown {
  return path.split(".").reduce((at: any, k) => (at == null ? undefined : at[k]), doc);
}

export const rootOf = (path: string) => path.split(".")[0]!;

/** The single issue the service answers for a value outside a bound. */
export function issueFor(b: Bound, side: "below" | "above") {
  return side === "below"
    ? { path: b.path, rule: "minimum", message: `${b.path} must be >= ${b.min}` }
    : { path: b.path, rule: "maximum", message: `${b.path} must be <= ${b.max}` };
}
