// Every numeric bound the API document states, as a path on a recipe, batch or reading.
// Written from the document, not from the schemas, so the tests can catch a missing bound.

export interface Bound {
  path: string;
  min?: number;
  max?: number;
}

const pct = (path: string): Bound => ({ path, min: 0, max: 100 });
const ph = (path: string): Bound => ({ path, min: 0, max: 14 });

const fermentableBounds = (at: string): Bound[] => [
  pct(`${at}.percentage`),
  { path: `${at}.potential`, min: 1, max: 1.5 },
  pct(`${at}.moisture`),
  pct(`${at}.protein`),
  pct(`${at}.attenuation`),
];

const AROMAS = ["floral", "grassy", "herbal", "earthy", "woody", "onion", "citrus", "fruity"];
const OILS = ["myrcene", "humulene", "caryophyllene", "farnesene", "geraniol", "linalool"];

const hopBounds = (at: string): Bound[] => [
  { path: `${at}.time`, min: 0, max: 365 },
  { path: `${at}.beta`, min: 0, max: 20 },
  pct(`${at}.hsi`),
  { path: `${at}.temp`, min: 0, max: 100 },
  { path: `${at}.oil`, min: 0, max: 10 },
  ...OILS.map((oil) => pct(`${at}.${oil}`)),
  ...AROMAS.map((aroma) => pct(`${at}.aroma.${aroma}`)),
];

const yeastBounds = (at: string): Bound[] => [
  pct(`${at}.attenuation`),
  pct(`${at}.minAttenuation`),
  pct(`${at}.maxAttenuation`),
  { path: `${at}.maxAbv`, min: 0, max: 30 },
];

const miscBounds = (at: string): Bound[] => [pct(`${at}.concentration`)];

/** Bounds of each inventory collection, as paths on the item itself. */
export const INGREDIENT_BOUNDS = {
  fermentables: fermentableBounds("").map((b) => ({ ...b, path: b.path.slice(1) })),
  hops: hopBounds("").map((b) => ({ ...b, path: b.path.slice(1) })),
  miscs: miscBounds("").map((b) => ({ ...b, path: b.path.slice(1) })),
  yeasts: yeastBounds("").map((b) => ({ ...b, path: b.path.slice(1) })),
} as const;

export const RECIPE_BOUNDS: Bound[] = [
  { path: "batchSize", min: 0.5 },
  { path: "efficiency", min: 35, max: 100 },
  pct("mashEfficiency"),
  { path: "og", min: 1, max: 1.2 },
  { path: "color", min: 0, max: 100 },
  { path: "carbonation", min: 0, max: 5 },
  ...fermentableBounds("fermentables.0"),
  ...hopBounds("hops.0"),
  ...yeastBounds("yeasts.0"),
  ...miscBounds("miscs.0"),
  ...fermentableBounds("data.mashFermentables.0"),
  { path: "fermentation.steps.0.stepTemp", min: -100, max: 100 },
  { path: "fermentation.steps.0.stepTime", min: 0, max: 365 },
  { path: "fermentation.steps.0.ramp", min: 0, max: 365 },
  { path: "fermentation.steps.0.pressure", min: -100, max: 100 },
  pct("water.dilutionPercentage"),
  ph("water.mashPh"),
  ph("water.mashPhDistilled"),
  ph("water.spargeWaterPh"),
  ph("water.spargeWaterTargetPh"),
  ph("water.source.ph"),
  ph("water.target.ph"),
  pct("water.settings.calciumSulfate.concentration"),
];

export const BATCH_BOUNDS: Bound[] = [
  ph("measuredMashPh"),
  { path: "tasteRating", min: 1, max: 5 },
  ...["tasteRating", "bitterness", "sweetness", "alcohol", "tropical"].map((f) => ({ path: `tasteLogs.0.${f}`, min: 1, max: 5 })),
  { path: "recipe.og", min: 1, max: 1.2 },
  ...fermentableBounds("batchFermentables.0"),
  ...yeastBounds("batchYeasts.0"),
];

export const READING_BOUNDS: Bound[] = [ph("ph")];

/** A value just past a bound: far enough to be a different double, close enough to be a boundary case. */
export const justBelow = (n: number) => n - 0.001;
export const justAbove = (n: number) => n + 0.001;
