// fast-check arbitraries of valid recipes, from the API document's Recipe Object and the objects it
// nests (types, nullability, stated bounds, the value sets the document or the hosted service's
// documentation lists), plus fields real exports carry that the document does not name. No figure
// the service always calculates is generated: what a client sends must read back as sent.
import fc from "fast-check";
import { DOCUMENTED_FIELDS, NAMED_SERVER_MANAGED } from "./fixtures.ts";
import type { Doc } from "./harness.ts";

const num = (min: number, max: number) => fc.double({ min, max, noNaN: true });
const numN = (min: number, max: number) => fc.oneof(num(min, max), fc.constant(null));
const pctN = numN(0, 100);
const str = fc.string({ maxLength: 12 });
const strN = fc.oneof(str, fc.constant(null));
const opt = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model, { requiredKeys: [] });

const ADDITION_USES = ["Boil", "Mash", "Steep", "Primary", "Secondary", "Bottling", "Sparge", "Flameout"] as const;
const TIME_UNIT = fc.oneof(fc.constantFrom("min", "day", "days"), fc.constant(null));

const fermentable = opt({
  name: str,
  type: fc.constantFrom("Grain", "Sugar", "Liquid Extract", "Dry Extract", "Adjunct", "Other"),
  grainCategory: fc.oneof(fc.constantFrom("Base", "Crystal/Caramel", "Roasted", "Acidulated", "Other"), fc.constant(null)),
  amount: num(0, 30),
  color: num(0, 600),
  potential: numN(1, 1.5),
  moisture: pctN,
  protein: pctN,
  attenuation: pctN,
  use: fc.oneof(fc.constantFrom(...ADDITION_USES, ""), fc.constant(null)),
  timeUnit: TIME_UNIT,
  supplier: strN,
  notFermentable: fc.oneof(fc.boolean(), fc.constant(null)),
  // Not in the document's table; real recipe fermentables carry it.
  potentialPercentage: num(0, 100),
});

const hop = opt({
  name: str,
  alpha: num(0, 25),
  amount: numN(0, 500),
  use: fc.constantFrom("Boil", "Dry Hop", "Mash", "First Wort", "Aroma"),
  time: numN(0, 365),
  timeUnit: TIME_UNIT,
  type: str,
  beta: numN(0, 20),
  hsi: pctN,
  temp: numN(0, 100),
  oil: numN(0, 10),
  myrcene: pctN,
  usage: fc.oneof(fc.constantFrom("Aroma", "Bittering", "Both", ""), fc.constant(null)),
  aroma: opt({ floral: num(0, 100), citrus: num(0, 100), fruity: num(0, 100) }),
  cohumulone: numN(0, 100),
});

const yeast = opt({
  name: str,
  type: str,
  form: str,
  amount: numN(0, 1000),
  unit: fc.constantFrom("g", "ml", "pkg", "billion cells", "oz"),
  laboratory: strN,
  attenuation: pctN,
  minAttenuation: pctN,
  maxAttenuation: pctN,
  maxAbv: numN(0, 30),
  starter: fc.oneof(fc.boolean(), fc.constant(null)),
});

const misc = opt({
  name: str,
  type: str,
  use: fc.constantFrom(...ADDITION_USES),
  time: numN(0, 90),
  amount: num(0, 100),
  unit: fc.constantFrom("g", "ml", "tsp", "items"),
  concentration: pctN,
  waterAdjustment: fc.boolean(),
});

const equipment = opt({
  name: str,
  batchSize: numN(0.5, 100),
  boilTime: numN(0, 120),
  boilOffPerHr: numN(0, 10),
  trubChillerLoss: numN(0, 5),
  mashTunDeadSpace: numN(0, 5),
  waterGrainRatio: numN(1, 5),
  efficiency: numN(35, 100),
  calcStrikeWaterTemperature: fc.oneof(fc.boolean(), fc.constant(null)),
  grainTemperature: fc.oneof(num(0, 30), fc.constantFrom("20", "18.5"), fc.constant(null)),
});

const step = (temp: fc.Arbitrary<number>, time: fc.Arbitrary<number>) => opt({ name: str, type: str, stepTemp: temp, stepTime: time });
const mash = opt({ name: str, steps: fc.array(step(num(20, 80), num(0, 120)), { maxLength: 3 }) });
const fermentation = opt({
  name: str,
  pressurized: fc.oneof(fc.boolean(), fc.constant(null)),
  steps: fc.array(fc.record({ name: str, type: str, stepTemp: num(-100, 100), stepTime: num(0, 365), ramp: numN(0, 365), pressure: numN(-100, 100) }, { requiredKeys: [] }), { maxLength: 3 }),
});
const ion = fc.oneof(num(0, 500), fc.constantFrom("45", ".860", "6.3"), fc.constant(null));
const water = opt({
  mashPh: numN(0, 14),
  spargeWaterPh: num(0, 14),
  dilutionPercentage: pctN,
  source: opt({ name: str, type: fc.constantFrom("source", "target"), calcium: ion, sulfate: ion, bicarbonate: fc.oneof(num(0, 500), fc.constant("120")), ph: numN(0, 14) }),
  target: fc.oneof(fc.constant(null), opt({ name: str, chloride: ion })),
});
const style = opt({ name: str, category: str, categoryNumber: fc.oneof(str, num(1, 40)), styleGuide: str, ogMin: numN(1, 1.2), ibuMax: numN(0, 120) });

const KNOWN = new Set<string>([...DOCUMENTED_FIELDS, ...NAMED_SERVER_MANAGED]);
/** Fields the document does not name, as real exports carry them (`ogPlato`, `searchTags`, …). */
export const unknownFields = fc.dictionary(
  fc.stringMatching(/^[a-z][A-Za-z0-9]{0,10}$/).filter((k) => !KNOWN.has(k)),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);

/** The fields a client may send on a recipe, each optional except `name`. */
export const recipeFields = {
  name: fc.string({ minLength: 1, maxLength: 20 }),
  author: strN,
  type: fc.constantFrom("Extract", "Partial Mash", "All Grain"),
  teaser: str,
  img_url: str,
  hidden: fc.boolean(),
  style: fc.oneof(style, fc.constant(null)),
  styleConformity: fc.oneof(fc.boolean(), fc.constant(null)),
  batchSize: num(0.5, 2000),
  boilTime: num(0, 240),
  efficiency: num(35, 100),
  mashEfficiency: num(0, 100),
  fermentables: fc.array(fermentable, { maxLength: 3 }),
  hops: fc.array(hop, { maxLength: 3 }),
  miscs: fc.array(misc, { maxLength: 2 }),
  yeasts: fc.array(yeast, { maxLength: 2 }),
  og: num(1, 1.2),
  fg: num(0.99, 1.1),
  firstWortGravity: numN(1, 1.2),
  color: num(0, 100),
  ibu: num(0, 200),
  ibuFormula: fc.constantFrom("tinseth", "tinseth*", "rager", "garetz", "noonan"),
  abv: num(0, 25),
  carbonation: num(0, 5),
  carbonationTemp: num(-5, 30),
  primingSugarEquiv: num(0, 300),
  equipment,
  mash,
  fermentation,
  water,
  notes: str,
  tags: fc.oneof(fc.constant(null), fc.array(fc.record({ display: str, value: str }), { maxLength: 2 })),
  path: str,
};

/** A valid recipe: `name` and any subset of the other fields, plus unknown fields. */
export const validRecipe: fc.Arbitrary<Doc> = fc
  .tuple(fc.record(recipeFields, { requiredKeys: ["name"] }), unknownFields)
  .map(([known, extra]) => ({ ...extra, ...known }));
