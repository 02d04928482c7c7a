import { describe, expect, test } from "bun:test";
import { readEquipment } from "../../src/calc/equipment.ts";
import { boilVolumes } from "../../src/calc/gravity.ts";
import { strikeTemperature, waterVolumes } from "../../src/calc/water.ts";

function water(grainKg: number, equipment: Record<string, unknown>) {
  const eq = readEquipment({ batchSize: 21, equipment: { trubChillerLoss: 1, boilOffPerHr: 3, ...equipment } });
  return { w: waterVolumes(grainKg, eq, boilVolumes(eq)), boil: boilVolumes(eq).boilSize };
}

describe("water volumes", () => {
  test("mash water = grain kg × water-to-grain ratio + mash tun dead space", () => {
    expect(water(4, { waterGrainRatio: 3, mashTunDeadSpace: 2 }).w.mashWaterAmount).toBe(14);
  });

  test("the water-to-grain ratio defaults to 2.7 L/kg", () => {
    expect(water(5, {}).w.mashWaterAmount).toBe(13.5);
  });

  test("sparge = cooled boil volume − mash water + grain absorption + mash tun loss", () => {
    const { w, boil } = water(4, { waterGrainRatio: 3, grainAbsorptionRate: 1, mashTunLoss: 0.5 });
    expect(w.spargeWaterAmount).toBeCloseTo(boil * 0.96 - 12 + 4 + 0.5, 2);
  });

  test("the app's older Default calculation sparges from the hot boil volume", () => {
    const { w, boil } = water(4, { waterGrainRatio: 3, grainAbsorptionRate: 1, waterCalculation: "Default" });
    expect(w.spargeWaterAmount).toBeCloseTo(boil - 12 + 4, 2);
  });

  test("grain absorption defaults to 0.8 L/kg", () => {
    const { w, boil } = water(4, { waterGrainRatio: 3 });
    expect(w.spargeWaterAmount).toBeCloseTo(boil * 0.96 - 12 + 3.2, 2);
  });

  test("total water = mash + sparge, and the hot liquor tank holds the sparge", () => {
    const { w } = water(4, {});
    expect(w.totalWaterAmount).toBeCloseTo(w.mashWaterAmount + w.spargeWaterAmount, 9);
    expect(w.hltWaterAmount).toBe(w.spargeWaterAmount);
  });

  test("mash volume = mash water + 0.67 L per kg grain", () => {
    expect(water(4, { waterGrainRatio: 3 }).w.mashVolume).toBeCloseTo(12 + 2.68, 9);
  });

  test("mash water above the profile's maximum moves to the sparge", () => {
    const free = water(6, { waterGrainRatio: 3 }).w;
    const capped = water(6, { waterGrainRatio: 3, mashWaterMax: 15 }).w;
    expect(capped.mashWaterAmount).toBe(15);
    expect(capped.spargeWaterAmount).toBeCloseTo(free.spargeWaterAmount + 3, 9);
  });

  test("sparge water above its maximum is topped up, or goes to the mash when the profile says so", () => {
    const free = water(4, {}).w;
    const topUp = water(4, { spargeWaterMax: 10 }).w;
    expect(topUp.topUpWater).toBeCloseTo(free.spargeWaterAmount - 10, 2);
    const toMash = water(4, { spargeWaterMax: 10, spargeWaterOverflow: "Mash" }).w;
    expect(toMash.mashWaterAmount).toBeCloseTo(free.mashWaterAmount + free.spargeWaterAmount - 10, 2);
    expect(toMash.topUpWater).toBe(0);
  });

  test("a mash volume beyond the tun's volume is reported as surplus", () => {
    expect(water(4, { waterGrainRatio: 3, mashTunVolume: 14 }).w.mashVolumeSurplus).toBeCloseTo(0.68, 9);
  });

  test("with no grain to mash all water goes to the kettle", () => {
    const { w, boil } = water(0, {});
    expect(w.mashWaterAmount).toBe(0);
    expect(w.totalWaterAmount).toBeCloseTo(boil * 0.96, 2);
  });
});

describe("strike temperature", () => {
  test("T + 0.4 × (T − grain temperature) × grain kg / water L", () => {
    // the app's own example: 5.41 kg, 15.15 L, 52 °C at 20 °C grain gives 56.6 °C
    expect(strikeTemperature(52, 20, 5.41, 15.15)).toBe(56.6);
  });

  test("is null without a step temperature or without water", () => {
    expect(strikeTemperature(undefined, 20, 5, 15)).toBeNull();
    expect(strikeTemperature(65, 20, 5, 0)).toBeNull();
  });
});
