// calculateRecipe as a whole: which fields it computes, which it keeps, its shape.
import { describe, expect, test } from "bun:test";
import { calculateRecipe } from "../../src/calc/index.ts";

function base(): Record<string, unknown> {
  return {
    name: "Pale",
    batchSize: 20,
    boilTime: 60,
    efficiency: 75,
    fermentables: [
      { name: "Pale", type: "Grain", amount: 4, potential: 1.037, color: 3, diastaticPower: 100 },
      { name: "Crystal", type: "Grain", amount: 1, potential: 1.035, color: 40 },
      { name: "Sugar", type: "Sugar", amount: 0.5, potential: 1.046, color: 0, use: "Boil" },
    ],
    hops: [
      { name: "Magnum", type: "Pellet", amount: 20, alpha: 12, use: "Boil", time: 60 },
      { name: "Citra", type: "Pellet", amount: 50, alpha: 12, use: "Dry Hop", time: 4 },
    ],
    yeasts: [{ name: "US-05", attenuation: 81 }],
    equipment: { trubChillerLoss: 1, boilOffPerHr: 3, waterGrainRatio: 3 },
    mash: { steps: [{ type: "Infusion", stepTemp: 66, stepTime: 60 }] },
  };
}

describe("computed every time", () => {
  const out = calculateRecipe({ ...base(), fermentablesTotalAmount: 99, hopsTotalAmount: 99, fgEstimated: 2, data: { old: true } });
  const data = out.data as Record<string, unknown>;

  test("totals overwrite what was sent", () => {
    expect(out.fermentablesTotalAmount).toBe(5.5);
    expect(out.hopsTotalAmount).toBe(70);
  });

  test("each fermentable gets its percentage of the total mass", () => {
    expect((out.fermentables as { percentage: number }[]).map((f) => f.percentage)).toEqual([72.73, 18.18, 9.09]);
  });

  test("each hop gets its IBU, dry hops none", () => {
    const hops = out.hops as { ibu: number }[];
    expect(hops[0]!.ibu).toBeGreaterThan(0);
    expect(hops[1]!.ibu).toBe(0);
    expect(out.ibu).toBe(hops[0]!.ibu);
  });

  test("data is rebuilt, mash and other fermentables split", () => {
    expect(data.old).toBeUndefined();
    expect(data.mashFermentablesAmount).toBe(5);
    expect(data.otherFermentablesAmount).toBe(0.5);
    expect((data.mashFermentables as { name: string }[]).map((f) => f.name)).toEqual(["Pale", "Crystal"]);
    expect((data.otherFermentables as { name: string }[]).map((f) => f.name)).toEqual(["Sugar"]);
    expect(data.hopsAmount).toBe(70);
    expect(data.mashWaterAmount).toBe(15);
    expect(data.mashVolume).toBeCloseTo(15 + 0.67 * 5, 9);
  });

  test("the data object carries every field the API document names", () => {
    for (const k of [
      "mashVolume", "mashWaterAmount", "spargeWaterAmount", "totalWaterAmount", "hltWaterAmount", "topUpWater", "strikeTemp",
      "mashFermentablesAmount", "otherFermentablesAmount", "hopsAmount", "mashVolumeSurplus", "batchSpargeWaterAmount1",
      "batchSpargeWaterAmount2", "batchSpargeWaterAmount3", "batchSpargeWaterAmount4", "mashFermentables",
      "otherFermentables", "allDiastaticPower", "totalDiastaticPower",
    ]) {
      expect(data).toHaveProperty(k);
    }
  });

  test("strike temperature is null unless the equipment asks for it", () => {
    expect(data.strikeTemp).toBeNull();
    const on = calculateRecipe({ ...base(), equipment: { ...(base().equipment as object), calcStrikeWaterTemperature: true } });
    // 66 + 0.4 × (66 − 20) × 5 / 15
    expect((on.data as Record<string, unknown>).strikeTemp).toBe(72.1);
  });

  test("diastatic power: Lintner × kg summed, and the mass-weighted mash average", () => {
    expect(data.totalDiastaticPower).toBe(400);
    expect(out.diastaticPower).toBe(80);
    expect(data.allDiastaticPower).toBe(false);
  });

  test("fgEstimated comes from the yeast; plain sugar ferments out", () => {
    const g = out.og as number;
    const sugarPoints = (0.5 * 46 * 8.3454) / 20;
    const expected = 1 + (((g - 1) * 1000 - sugarPoints) * 0.19) / 1000;
    expect(out.fgEstimated).toBeCloseTo(expected, 3);
    expect(out.fg).toBe(out.fgEstimated);
  });

  test("BU:GU and relative bitterness follow from IBU, OG and attenuation", () => {
    const bugu = (out.ibu as number) / (((out.og as number) - 1) * 1000);
    expect(out.buGuRatio).toBeCloseTo(bugu, 2);
    expect(out.rbRatio).toBeCloseTo(bugu * (1 + ((out.attenuation as number) / 100 - 0.7655)), 2);
  });

  test("attenuation is apparent, in percent", () => {
    const og = out.og as number;
    const fg = out.fg as number;
    // og is reported rounded to 4 decimals, attenuation from the unrounded value
    expect(Math.abs((out.attenuation as number) - ((og - fg) / (og - 1)) * 100)).toBeLessThan(0.1);
  });

  test("nutrition is per 100 ml serving", () => {
    const n = calculateRecipe({ ...base(), og: 1.05, fg: 1.01 }).nutrition as { calories: Record<string, number>; carbs: { total: number } };
    const alcohol = (1881.22 * 1.01 * 0.04) / (1.775 - 1.05) / 3.55;
    const carbs = (3550 * 1.01 * (0.1808 * 1.05 + 0.8192 * 1.01 - 1.0004)) / 3.55;
    expect(n.calories.alcohol).toBeCloseTo(alcohol, 2);
    expect(n.calories.carbs).toBeCloseTo(carbs, 2);
    expect(n.calories.total).toBeCloseTo(alcohol + carbs, 2);
    expect(n.calories.kJ).toBeCloseTo((alcohol + carbs) * 4.184, 1);
    expect(n.carbs.total).toBeCloseTo(carbs / 4, 2);
  });
});

describe("kept when sent as a finite number, filled in otherwise", () => {
  test("og, fg, ibu, color and abv sent by the client are kept", () => {
    const out = calculateRecipe({ ...base(), og: 1.06, fg: 1.02, ibu: 12.3, color: 30, abv: 9.9 });
    expect([out.og, out.fg, out.ibu, out.color, out.abv]).toEqual([1.06, 1.02, 12.3, 30, 9.9]);
  });

  test("kept og and fg feed ABV and the FG estimate", () => {
    const out = calculateRecipe({ ...base(), og: 1.06, fg: 1.02 });
    expect(out.abv).toBe(5.25);
    expect(out.fgEstimated).toBeLessThan(1.02);
  });

  test("null, strings and non-finite values are replaced by computed ones", () => {
    const computed = calculateRecipe(base());
    const out = calculateRecipe({ ...base(), og: null, fg: "1.010", ibu: Number.NaN, color: Number.POSITIVE_INFINITY });
    expect([out.og, out.fg, out.ibu, out.color, out.abv]).toEqual([computed.og, computed.fg, computed.ibu, computed.color, computed.abv]);
  });

  test("fg defaults to fgEstimated", () => {
    const out = calculateRecipe(base());
    expect(out.fg).toBe(out.fgEstimated);
  });
});

describe("shape", () => {
  test("returns a new object and leaves the input unchanged", () => {
    const input = base();
    const snapshot = structuredClone(input);
    const out = calculateRecipe(input);
    expect(out).not.toBe(input);
    expect(input).toEqual(snapshot);
    (out.fermentables as Record<string, unknown>[])[0]!.name = "changed";
    expect((input.fermentables as Record<string, unknown>[])[0]!.name).toBe("Pale");
  });

  test("fields it does not calculate pass through", () => {
    const out = calculateRecipe({ ...base(), notes: "n", tags: [{ display: "a", value: "a" }] });
    expect(out.notes).toBe("n");
    expect(out.tags).toEqual([{ display: "a", value: "a" }]);
  });

  test("an empty recipe gets defaults and zero figures", () => {
    const out = calculateRecipe({});
    expect(out.og).toBe(1);
    expect(out.ibu).toBe(0);
    expect(out.fermentablesTotalAmount).toBe(0);
    // 20 L batch, no losses: (20 / 0.96) kept at 90 % per hour of boil
    expect(out.boilSize).toBeCloseTo(20 / 0.96 / 0.9, 2);
  });

  test("odd entries in the ingredient lists are kept as they were and skipped", () => {
    const out = calculateRecipe({ ...base(), fermentables: [null, 3, { type: "Grain", amount: 2, potential: 1.037 }] });
    expect((out.fermentables as unknown[]).slice(0, 2)).toEqual([null, 3]);
    expect(out.fermentablesTotalAmount).toBe(2);
  });
});

describe("FG estimate and the mash (decisions, Recipes)", () => {
  const fgWith = (steps: unknown[], fgFormula?: string) =>
    calculateRecipe({ ...base(), mash: { steps }, ...(fgFormula ? { fgFormula } : {}) }).fgEstimated;
  const single66 = fgWith([{ stepTemp: 66, stepTime: 60 }]);

  test("the yeast's attenuation on the wort, plain sugar fully fermented: 1.011 for this bill at 81 %", () => {
    // Grains (4 × 37 + 1 × 35) × 0.75 × 8.3454 / 20 = 57.27 points, sugar 0.5 × 46 × 8.3454 / 20
    // = 9.60 points fermented whole; 19 % of 57.27 is left: 1.0109.
    expect(single66).toBe(1.011);
  });

  test("a cooler, a hotter or a stepped mash gives the same estimate", () => {
    expect(fgWith([{ stepTemp: 62, stepTime: 60 }])).toBe(single66);
    expect(fgWith([{ stepTemp: 71, stepTime: 70 }])).toBe(single66);
    expect(fgWith([{ stepTemp: 64, stepTime: 45 }, { stepTemp: 70, stepTime: 15 }, { stepTemp: 80, stepTime: 10 }])).toBe(single66);
  });

  test("fgFormula simple and normal give the same estimate", () => {
    expect(fgWith([{ stepTemp: 66, stepTime: 60 }], "simple")).toBe(single66);
    expect(fgWith([{ stepTemp: 66, stepTime: 60 }], "normal")).toBe(single66);
  });
});
