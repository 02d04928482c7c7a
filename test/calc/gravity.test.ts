import { describe, expect, test } from "bun:test";
import { readEquipment } from "../../src/calc/equipment.ts";
import { readFermentables } from "../../src/calc/fermentables.ts";
import { abv, apparentAttenuation, boilVolumes, estimateFg, gravities } from "../../src/calc/gravity.ts";

const grain = (amount: number, extra: Record<string, unknown> = {}) => ({ type: "Grain", amount, potential: 1.037, ...extra });

function grav(fermentables: Record<string, unknown>[], recipe: Record<string, unknown> = {}) {
  const eq = readEquipment({ batchSize: 20, efficiency: 75, ...recipe });
  return gravities(readFermentables(fermentables), eq, boilVolumes(eq));
}

describe("OG = 1 + Σ(kg × (potential − 1) × 1000 × 8.3454 × efficiency) / batch / 1000", () => {
  test("4 kg at 1.037, 75 % efficiency, 20 L gives 1.04631", () => {
    // 4 × 37 × 8.3454 × 0.75 / 20 = 46.317 points
    expect(grav([grain(4)]).og).toBeCloseTo(1.046317, 5);
  });

  test("sugar and extract yield 100 % whatever the mash efficiency", () => {
    const g = grav([{ type: "Sugar", amount: 1, potential: 1.046 }, { type: "Dry Extract", amount: 1, potential: 1.044 }], { efficiency: 40 });
    expect(g.og).toBeCloseTo(1 + ((46 + 44) * 8.3454) / 20 / 1000, 6);
  });

  test("missing potential falls back to potentialPercentage × 0.046", () => {
    expect(grav([{ type: "Grain", amount: 2, potentialPercentage: 81.5 }]).og).toBeCloseTo(1 + (2 * 37.49 * 8.3454 * 0.75) / 20 / 1000, 6);
  });

  test("a fermenter addition raises OG but not the kettle gravities", () => {
    const g = grav([grain(4), { type: "Sugar", amount: 0.5, potential: 1.046, use: "Primary" }]);
    const sugarPoints = (0.5 * 46 * 8.3454) / 20;
    expect(g.og - g.postBoil).toBeCloseTo(sugarPoints / 1000, 6);
  });

  test("priming sugar (use Bottling) is left out of OG", () => {
    expect(grav([grain(4), { type: "Sugar", amount: 0.2, potential: 1.046, use: "Bottling" }]).og).toBeCloseTo(grav([grain(4)]).og, 9);
  });

  test("a sugar with no use goes into the boil at its start: in OG and in pre-boil gravity", () => {
    const plain = grav([grain(4)]);
    const withSugar = grav([grain(4), { type: "Sugar", amount: 0.5, potential: 1.046 }]);
    expect(withSugar.preBoil).toBeGreaterThan(plain.preBoil);
    expect(withSugar.og).toBeGreaterThan(plain.og);
  });

  test("a late extract addition is in the post-boil gravity, not in the pre-boil gravity", () => {
    const early = grav([grain(4), { type: "Dry Extract", amount: 1, potential: 1.044, use: "Boil" }], { boilTime: 60 });
    const late = grav([grain(4), { type: "Dry Extract", amount: 1, potential: 1.044, use: "Boil", time: 15 }], { boilTime: 60 });
    expect(late.og).toBeCloseTo(early.og, 9);
    expect(late.postBoil).toBeCloseTo(early.postBoil, 9);
    expect(late.preBoil).toBeCloseTo(grav([grain(4)]).preBoil, 9);
    // A hop added with 20 minutes left boils without it; one added at 15 minutes with it.
    expect(late.boilAt(20)).toBeCloseTo(late.preBoil, 9);
    expect(late.boilAt(15)).toBeCloseTo(early.preBoil, 9);
  });

  test("pre-boil gravity holds the same points in the pre-boil volume", () => {
    const eq = readEquipment({ batchSize: 21, equipment: { trubChillerLoss: 1, boilOffPerHr: 3 } });
    const vol = boilVolumes(eq);
    const g = gravities(readFermentables([grain(4)]), eq, vol);
    expect(g.preBoil - 1).toBeCloseTo(((g.og - 1) * vol.postBoil) / vol.boilSize, 9);
  });
});

describe("boil volumes", () => {
  test("post-boil volume = (batch + trub loss) / 0.96", () => {
    expect(boilVolumes(readEquipment({ batchSize: 21, equipment: { trubChillerLoss: 1 } })).postBoil).toBeCloseTo(22 / 0.96, 9);
  });

  test("boil size = post-boil volume + boil-off per hour × boil time", () => {
    const v = boilVolumes(readEquipment({ batchSize: 21, boilTime: 90, equipment: { trubChillerLoss: 1, boilOffPerHr: 3 } }));
    expect(v.boilSize).toBeCloseTo(22 / 0.96 + 4.5, 9);
  });

  test("with only an evaporation rate the boil size solves boil = post + rate × boil × hours", () => {
    const v = boilVolumes(readEquipment({ batchSize: 23.02, boilTime: 90, equipment: { trubChillerLoss: 2.84, evaporationRate: 0.182879 } }));
    expect(v.boilSize).toBeCloseTo(25.86 / 0.96 / (1 - 0.182879 * 1.5), 6);
  });

  test("a profile with calcBoilVolume false keeps its own boil size", () => {
    expect(boilVolumes(readEquipment({ batchSize: 25, equipment: { calcBoilVolume: false, boilSize: 28, boilOffPerHr: 9 } })).boilSize).toBe(28);
  });
});

describe("FG, attenuation and ABV", () => {
  test("FG keeps (100 − yeast attenuation) % of the points", () => {
    expect(estimateFg(1.05, 80, 0)).toBeCloseTo(1.01, 9);
  });

  test("non-fermentable points stay in the FG", () => {
    expect(estimateFg(1.06, 75, 10)).toBeCloseTo(1 + (50 * 0.25 + 10) / 1000, 9);
  });

  test("plain sugar ferments out completely", () => {
    expect(estimateFg(1.06, 75, 0, 20)).toBeCloseTo(1 + (40 * 0.25) / 1000, 9);
  });

  test("apparent attenuation = (OG − FG) / (OG − 1) in percent", () => {
    expect(apparentAttenuation(1.05, 1.01)).toBeCloseTo(80, 9);
    expect(apparentAttenuation(1, 1.01)).toBe(0);
  });

  test("ABV = (OG rounded to 3 decimals − FG) × 131.25", () => {
    // 1.0404 rounds to 1.040: (1.040 − 1.008) × 131.25 = 4.2
    expect(abv(1.0404, 1.008)).toBeCloseTo(4.2, 9);
  });
});
