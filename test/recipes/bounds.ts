// Every numeric bound a recipe is held to, as a path into one recipe, written from the API document
// (Limits › Recipe bounds; the Recipe, Fermentable, Hop, Yeast, Misc, Fermentation Step, Water,
// Water Profile, Water Ingredient and Hop Aroma objects), not from the schemas.
import type { Doc } from "./harness.ts";

export interface Bound {
  path: string;
  min: number;
  max?: number;
  /** The service recalculates the value (a fermentable's percentage): it is checked but not kept. */
  recalculated?: boolean;
}

const pct = (path: string, extra: Partial<Bound> = {}): Bound => ({ path, min: 0, max: 100, ...extra });
const ph = (path: string): Bound => ({ path, min: 0, max: 14 });
const OILS = ["myrcene", "humulene", "caryophyllene", "farnesene", "geraniol", "linalool"];
const AROMAS = ["floral", "grassy", "herbal", "earthy", "woody", "onion", "citrus", "fruity"];

export const BOUNDS: readonly Bound[] = [
  // Limits › Recipe bounds, and the Recipe Object table.
  { path: "batchSize", min: 0.5 },
  { path: "efficiency", min: 35, max: 100 },
  pct("mashEfficiency"),
  { path: "og", min: 1, max: 1.2 },
  { path: "color", min: 0, max: 100 },
  { path: "carbonation", min: 0, max: 5 },
  // Fermentable Object.
  pct("fermentables.0.percentage", { recalculated: true }),
  { path: "fermentables.0.potential", min: 1, max: 1.5 },
  pct("fermentables.0.moisture"),
  pct("fermentables.0.protein"),
  pct("fermentables.0.attenuation"),
  // Hop Object and Hop Aroma Object.
  { path: "hops.0.time", min: 0, max: 365 },
  { path: "hops.0.beta", min: 0, max: 20 },
  pct("hops.0.hsi"),
  { path: "hops.0.temp", min: 0, max: 100 },
  { path: "hops.0.oil", min: 0, max: 10 },
  ...OILS.map((o) => pct(`hops.0.${o}`)),
  ...AROMAS.map((a) => pct(`hops.0.aroma.${a}`)),
  // Yeast Object.
  pct("yeasts.0.attenuation"),
  pct("yeasts.0.minAttenuation"),
  pct("yeasts.0.maxAttenuation"),
  { path: "yeasts.0.maxAbv", min: 0, max: 30 },
  // Misc Object.
  pct("miscs.0.concentration"),
  // Fermentation Step Object.
  { path: "fermentation.steps.0.stepTemp", min: -100, max: 100 },
  { path: "fermentation.steps.0.stepTime", min: 0, max: 365 },
  { path: "fermentation.steps.0.ramp", min: 0, max: 365 },
  { path: "fermentation.steps.0.pressure", min: -100, max: 100 },
  // Water Object, Water Profile Object, Water Ingredient Object.
  pct("water.dilutionPercentage"),
  ph("water.mashPh"),
  ph("water.mashPhDistilled"),
  ph("water.spargeWaterPh"),
  ph("water.spargeWaterTargetPh"),
  ph("water.source.ph"),
  ph("water.target.ph"),
  pct("water.settings.calciumChloride.concentration"),
];

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
      settings: { adjustSparge: false, calciumChloride: { mash: true, sparge: false, auto: true, form: "liquid", concentration: 33 } },
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
