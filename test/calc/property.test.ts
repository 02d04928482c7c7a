// Properties over arbitrary recipe-like objects: calculateRecipe never throws, and
// everything it returns can be carried by JSON. fast-check prints the seed of a failure.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { calculateRecipe } from "../../src/calc/index.ts";

const garbage = fc.oneof(
  fc.double(), // includes NaN, ±Infinity, −0
  fc.integer(),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
);
const numberish = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: -1000, max: 1000, noNaN: true }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }).map(String) },
  { weight: 1, arbitrary: garbage },
);
const oneOf = (...values: string[]) => fc.oneof(fc.constantFrom(...values), garbage);
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) => fc.record(model, { requiredKeys: [] });
const listOf = <T>(item: fc.Arbitrary<T>) => fc.oneof(fc.array(fc.oneof({ weight: 4, arbitrary: item }, { weight: 1, arbitrary: garbage }), { maxLength: 6 }), garbage);

const fermentable = record({
  type: oneOf("Grain", "Sugar", "Liquid Extract", "Dry Extract", "Adjunct", "Other"),
  amount: numberish,
  potential: numberish,
  potentialPercentage: numberish,
  color: numberish,
  use: oneOf("Mash", "Boil", "Primary", "Secondary", "Bottling", "Steep", "Flameout", ""),
  notFermentable: fc.oneof(fc.boolean(), garbage),
  diastaticPower: numberish,
});
const hop = record({
  type: oneOf("Pellet", "Leaf", "Cryo"),
  amount: numberish,
  alpha: numberish,
  use: oneOf("Boil", "Dry Hop", "Mash", "First Wort", "Aroma"),
  time: numberish,
  temp: numberish,
});
const yeast = record({ attenuation: numberish, type: oneOf("Ale", "Lager") });
const equipment = record({
  batchSize: numberish, boilSize: numberish, boilTime: numberish, boilOffPerHr: numberish, evaporationRate: numberish,
  calcBoilVolume: fc.oneof(fc.boolean(), garbage), trubChillerLoss: numberish, efficiency: numberish,
  mashTunDeadSpace: numberish, mashTunLoss: numberish, grainAbsorptionRate: numberish, waterGrainRatio: numberish,
  waterCalculation: oneOf("Default", "Default_2"), spargeWaterOverflow: oneOf("Mash", "Top-Up"), mashWaterMax: numberish,
  spargeWaterMax: numberish, mashTunVolume: numberish, grainTemperature: numberish,
  calcStrikeWaterTemperature: fc.oneof(fc.boolean(), garbage), boilTemp: numberish, altitude: numberish,
  hopUtilization: numberish, aromaHopUtilization: numberish, calcAromaHopUtilization: fc.oneof(fc.boolean(), garbage),
  hopstandTemperature: numberish,
});
const recipeLike = record({
  name: fc.oneof(fc.string({ maxLength: 8 }), garbage),
  batchSize: numberish,
  boilTime: numberish,
  efficiency: numberish,
  ibuFormula: oneOf("tinseth", "tinseth*", "rager", "garetz", "noonan"),
  og: numberish,
  fg: numberish,
  ibu: numberish,
  color: numberish,
  abv: numberish,
  fermentables: listOf(fermentable),
  hops: listOf(hop),
  yeasts: listOf(yeast),
  equipment: fc.oneof({ weight: 4, arbitrary: equipment }, { weight: 1, arbitrary: garbage }),
  mash: fc.oneof(record({ steps: listOf(record({ stepTemp: numberish, stepTime: numberish })) }), garbage),
  data: garbage,
  extra: fc.anything({ maxDepth: 2 }),
});

/** Every number reachable in the value, with its path, that JSON could not carry. */
function nonFinite(value: unknown, path = "$"): string[] {
  if (typeof value === "number") return Number.isFinite(value) ? [] : [`${path} = ${value}`];
  if (value === undefined) return [`${path} = undefined`];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => nonFinite(v, `${path}.${k}`));
}

describe("calculateRecipe on arbitrary recipe-like objects", () => {
  test("never throws and returns only finite numbers", () => {
    fc.assert(
      fc.property(recipeLike, (recipe) => {
        const out = calculateRecipe(recipe as Record<string, unknown>);
        expect(typeof out).toBe("object");
        expect(nonFinite(out)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  test("never changes its input", () => {
    fc.assert(
      fc.property(recipeLike, (recipe) => {
        const before = structuredClone(recipe);
        calculateRecipe(recipe as Record<string, unknown>);
        expect(recipe).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  test("also survives any object at all", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 12 }), fc.anything({ maxDepth: 3 })), (anyObject) => {
        expect(nonFinite(calculateRecipe(anyObject))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("calculateRecipe on well-formed recipes", () => {
  const sane = fc.record({
    batchSize: fc.double({ min: 1, max: 500, noNaN: true }),
    efficiency: fc.double({ min: 35, max: 100, noNaN: true }),
    fermentables: fc.array(
      fc.record({
        type: fc.constantFrom("Grain", "Sugar", "Dry Extract", "Adjunct"),
        amount: fc.double({ min: 0, max: 50, noNaN: true }),
        potential: fc.double({ min: 1, max: 1.046, noNaN: true }),
        color: fc.double({ min: 0, max: 600, noNaN: true }),
      }),
      { maxLength: 6 },
    ),
    hops: fc.array(
      fc.record({
        amount: fc.double({ min: 0, max: 500, noNaN: true }),
        alpha: fc.double({ min: 0, max: 20, noNaN: true }),
        use: fc.constantFrom("Boil", "Dry Hop", "Mash", "First Wort", "Aroma"),
        time: fc.double({ min: 0, max: 120, noNaN: true }),
      }),
      { maxLength: 6 },
    ),
    yeasts: fc.array(fc.record({ attenuation: fc.double({ min: 0, max: 100, noNaN: true }) }), { maxLength: 2 }),
    ibuFormula: fc.constantFrom("tinseth", "tinseth*", "rager", "garetz", "noonan"),
  });

  test("gravities are ordered 1 ≤ FG ≤ OG, and IBU, colour, ABV and water are not negative", () => {
    fc.assert(
      fc.property(sane, (recipe) => {
        const out = calculateRecipe(recipe);
        const data = out.data as Record<string, number>;
        expect(out.og as number).toBeGreaterThanOrEqual(1);
        expect(out.fgEstimated as number).toBeGreaterThanOrEqual(1);
        // FG is rounded to 3 decimals and OG to 4, so with no attenuation FG may sit up to 0.0005 + 0.00005 above.
        expect(out.fgEstimated as number).toBeLessThanOrEqual((out.og as number) + 0.00055 + 1e-12);
        for (const k of ["ibu", "color", "abv", "boilSize"]) expect(out[k] as number).toBeGreaterThanOrEqual(0);
        for (const k of ["mashWaterAmount", "spargeWaterAmount", "totalWaterAmount", "mashVolume"]) expect(data[k]!).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
