// Extract and partial-mash recipes of our own, each figure computed by hand below.
import { describe, expect, test } from "bun:test";
import { calculateRecipe } from "../../src/calc/index.ts";

const K = 8.3454; // kg·L → lb·gal
const tinseth = (g: number, t: number) => 1.65 * 0.000125 ** (g - 1) * ((1 - Math.exp(-0.04 * t)) / 4.15);

// 20 L into the fermenter, 1 L trub loss, 60 minute boil of 12 L with 3 L/h boil-off and
// 9.5 L of top-up water: post-boil 11.5 / 0.96 = 11.979 L, boil size 14.979 L.
const equipment = { batchSize: 20, trubChillerLoss: 1, topUpWater: 9.5, boilOffPerHr: 3, boilTime: 60 };

describe("an extract recipe: 2 kg dry extract at the start, 1.5 kg liquid extract with 15 minutes left", () => {
  const out = calculateRecipe({
    name: "Extract Pale", type: "Extract", batchSize: 20, boilTime: 60, efficiency: 72, equipment,
    fermentables: [
      { name: "Light DME", type: "Dry Extract", amount: 2, potential: 1.044, color: 4, use: "Boil" },
      { name: "Light LME", type: "Liquid Extract", amount: 1.5, potential: 1.036, color: 4, use: "Boil", time: 15 },
    ],
    hops: [{ name: "Magnum", type: "Pellet", amount: 20, alpha: 12, use: "Boil", time: 60 }],
    yeasts: [{ name: "US-05", attenuation: 75 }],
  });
  // DME: 2 × 44 × 8.3454 / 20 = 36.720 points; LME: 1.5 × 36 × 8.3454 / 20 = 22.533 points.
  const dme = (2 * 44 * K) / 20;
  const lme = (1.5 * 36 * K) / 20;

  test("OG holds every extract at 100 % yield: 1.0593", () => {
    expect(out.og as number).toBeCloseTo(1 + (dme + lme) / 1000, 4);
    expect(out.og).toBe(1.0593);
  });

  test("pre-boil gravity holds the dry extract in the boil volume: 1.054, not the 1.000 of water", () => {
    // 36.720 × (21 / 0.96) / 14.979 = 53.62 points
    const expected = 1 + (dme * (21 / 0.96)) / (11.5 / 0.96 + 3) / 1000;
    expect(out.preBoilGravity).toBe(Math.round(expected * 1000) / 1000);
    expect(out.preBoilGravity).toBe(1.054);
  });

  test("post-boil gravity is concentrated before the top-up water: 1.1079", () => {
    // (36.720 + 22.533) × 21 / 11.5 = 108.20 points
    expect(out.postBoilGravity as number).toBeCloseTo(1 + ((dme + lme) * 21) / 11.5 / 1000, 4);
  });

  test("the 60 minute hop boils in the pre-boil gravity that already holds the dry extract", () => {
    const g = 1 + (dme * (21 / 0.96)) / (11.5 / 0.96 + 3) / 1000;
    // 20 g × 12 % × 1000 / 21 L = 114.29 mg/L × Tinseth(1.0536, 60) 0.2233 × 1.1 for pellets = 28.1
    const ibu = ((20 * 0.12 * 1000) / 21) * tinseth(g, 60) * 1.1;
    expect(out.ibu as number).toBeCloseTo(ibu, 1);
    expect(out.ibu).toBe(28.1);
  });

  test("nothing is mashed: no mash water, the extracts are other fermentables", () => {
    const data = out.data as Record<string, unknown>;
    expect(data.mashWaterAmount).toBe(0);
    expect(data.mashFermentablesAmount).toBe(0);
    expect(data.otherFermentablesAmount).toBe(3.5);
  });
});

describe("a partial-mash recipe: 1.5 kg mashed, 0.3 kg steeped, 1.5 kg dry extract", () => {
  const out = calculateRecipe({
    name: "Partial Amber", type: "Partial Mash", batchSize: 20, boilTime: 60, efficiency: 70, equipment,
    fermentables: [
      { name: "Maris Otter", type: "Grain", amount: 1.5, potential: 1.037, color: 3, use: "Mash" },
      { name: "Crystal 60", type: "Grain", amount: 0.3, potential: 1.034, color: 60, use: "Steep" },
      { name: "Light DME", type: "Dry Extract", amount: 1.5, potential: 1.044, color: 4, use: "Boil" },
    ],
    hops: [{ name: "EKG", type: "Leaf", amount: 30, alpha: 5, use: "Boil", time: 60 }],
    yeasts: [{ name: "S-04", attenuation: 70 }],
  });
  // Mash 1.5 × 37 × 8.3454 × 0.70 / 20 = 16.210; steep 0.3 × 34 × 8.3454 × 0.70 / 20 = 2.979;
  // DME 1.5 × 44 × 8.3454 / 20 = 27.540 points: 46.730 in all.
  const pts = (1.5 * 37 * K * 0.7 + 0.3 * 34 * K * 0.7 + 1.5 * 44 * K) / 20;

  test("OG: grains at the efficiency, extract at 100 %: 1.0467", () => {
    expect(out.og as number).toBeCloseTo(1 + pts / 1000, 4);
    expect(out.og).toBe(1.0467);
  });

  test("pre-boil gravity holds all three in the boil volume: 1.068", () => {
    expect(out.preBoilGravity).toBe(Math.round((1 + (pts * (21 / 0.96)) / (11.5 / 0.96 + 3) / 1000) * 1000) / 1000);
    expect(out.preBoilGravity).toBe(1.068);
  });

  test("IBU from that gravity: leaf hops, no pellet factor", () => {
    const g = 1 + (pts * (21 / 0.96)) / (11.5 / 0.96 + 3) / 1000;
    expect(out.ibu as number).toBeCloseTo(((30 * 0.05 * 1000) / 21) * tinseth(g, 60), 1);
  });

  test("only the mashed grain needs mash water; the steeped grain does not", () => {
    const data = out.data as Record<string, unknown>;
    expect(data.mashFermentablesAmount).toBe(1.5);
    expect(data.otherFermentablesAmount).toBe(1.8);
    expect(data.mashWaterAmount).toBeCloseTo(1.5 * 2.7, 9);
  });

  test("FG keeps 30 % of the points: 1.014", () => {
    expect(out.fgEstimated).toBe(Math.round((1 + (pts * 0.3) / 1000) * 1000) / 1000);
  });
});
