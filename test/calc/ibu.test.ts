import { describe, expect, test } from "bun:test";
import { readEquipment } from "../../src/calc/equipment.ts";
import { utilizationAtTemperature } from "../../src/calc/hopTemperature.ts";
import {
  type IbuContext,
  type IbuFormula,
  garetzUtilization,
  hopIbu,
  hopRole,
  ibuFormulaOf,
  noonanUtilization,
  ragerUtilization,
  tinsethUtilization,
} from "../../src/calc/ibu.ts";

function ctx(over: Partial<IbuContext> = {}, equipment: Record<string, unknown> = {}): IbuContext {
  return {
    formula: "tinseth",
    boilGravity: 1.05,
    volume: 20,
    concentration: 0.85,
    boilTime: 60,
    hopstandMinutes: 0,
    equipment: readEquipment({ equipment }),
    ...over,
  };
}
const hop = (over: Record<string, unknown> = {}) => ({ amount: 28, alpha: 10, use: "Boil", time: 60, type: "Leaf", ...over });
// 28 g at 10 % in 20 L: 140 mg alpha acid per litre.
const MG_PER_L = 140;

describe("tinseth", () => {
  test("utilisation at 1.050 for 60 minutes is 0.2307", () => {
    expect(tinsethUtilization(1.05, 60)).toBeCloseTo(0.23066, 5);
  });

  test("a boil addition gives mg/L alpha acid × utilisation", () => {
    expect(hopIbu(hop(), ctx())).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 60), 9);
  });

  test("pellets give 10 % more than leaf", () => {
    expect(hopIbu(hop({ type: "Pellet" }), ctx()) / hopIbu(hop(), ctx())).toBeCloseTo(1.1, 9);
  });

  test("first wort counts as a boil addition +10 %", () => {
    expect(hopIbu(hop({ use: "First Wort" }), ctx()) / hopIbu(hop(), ctx())).toBeCloseTo(1.1, 9);
  });

  test("a first wort addition without a time boils for the boil time", () => {
    expect(hopIbu(hop({ use: "First Wort", time: null }), ctx({ boilTime: 60 }))).toBeCloseTo(hopIbu(hop({ use: "First Wort" }), ctx()), 9);
  });

  test("dry hops add no IBU", () => {
    expect(hopIbu(hop({ use: "Dry Hop", time: 5 }), ctx())).toBe(0);
  });

  test("a mash addition gives 20 % of a full-boil addition", () => {
    expect(hopIbu(hop({ use: "Mash" }), ctx()) / hopIbu(hop(), ctx())).toBeCloseTo(0.2, 9);
  });

  test("a flameout (time 0) boil addition adds nothing without a hop stand", () => {
    expect(hopIbu(hop({ time: 0 }), ctx())).toBe(0);
  });

  test("boiling at 98.7 °C (altitude) lowers utilisation to about 0.91", () => {
    const hot = hopIbu(hop(), ctx());
    const high = hopIbu(hop(), ctx({}, { boilTemp: 98.7 }));
    expect(high / hot).toBeCloseTo(utilizationAtTemperature(98.7), 9);
    expect(utilizationAtTemperature(98.7)).toBeCloseTo(0.912, 3);
  });

  test("altitude alone sets the boiling point (about 1 °C per 300 m)", () => {
    expect(readEquipment({ equipment: { altitude: 400 } }).boilTemp).toBeCloseTo(98.66, 2);
  });

  test("an aroma addition steeps for its time at the utilisation of its temperature", () => {
    const h = hop({ use: "Aroma", time: 30, temp: 80 });
    expect(hopIbu(h, ctx())).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 30) * 0.23, 9);
  });

  test("an aroma addition without a temperature uses the equipment's hop-stand temperature", () => {
    const h = hop({ use: "Aroma", time: 30 });
    expect(hopIbu(h, ctx({}, { hopstandTemperature: 90.2 }))).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 30) * 0.5, 9);
  });

  test("with calcAromaHopUtilization off the stated aromaHopUtilization applies", () => {
    const h = hop({ use: "Aroma", time: 30, temp: 80 });
    const eq = { calcAromaHopUtilization: false, aromaHopUtilization: 0.4 };
    expect(hopIbu(h, ctx({}, eq))).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 30) * 0.4, 9);
  });

  test("boil additions keep isomerising during the hop stand", () => {
    const withStand = hopIbu(hop({ time: 10 }), ctx({ hopstandMinutes: 20 }));
    const expected = MG_PER_L * (tinsethUtilization(1.05, 10) + 0.23 * (tinsethUtilization(1.05, 30) - tinsethUtilization(1.05, 10)));
    expect(withStand).toBeCloseTo(expected, 9);
  });

  test("hop utilisation of the equipment scales every addition", () => {
    expect(hopIbu(hop(), ctx({}, { hopUtilization: 0.8 })) / hopIbu(hop(), ctx())).toBeCloseTo(0.8, 9);
  });
});

describe("tinseth*", () => {
  test("a boil addition with a temperature below boiling counts as a whirlpool addition", () => {
    const h = hop({ time: 20, temp: 80 });
    expect(hopIbu(h, ctx({ formula: "tinseth*" }))).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 20) * 0.23, 9);
    expect(hopIbu(h, ctx({ formula: "tinseth" }))).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 20), 9);
  });

  test("aroma additions go by their temperature even when the profile fixes a utilisation", () => {
    const h = hop({ use: "Aroma", time: 30, temp: 90.2 });
    const eq = { calcAromaHopUtilization: false, aromaHopUtilization: 0.1 };
    expect(hopIbu(h, ctx({ formula: "tinseth*" }, eq))).toBeCloseTo(MG_PER_L * tinsethUtilization(1.05, 30) * 0.5, 9);
  });
});

describe("utilisation by temperature", () => {
  test("passes through the app's points: 1 at 100 °C, 0.5 at 90.2, 0.23 at 80, 0.15 at 75", () => {
    expect(utilizationAtTemperature(100)).toBe(1);
    expect(utilizationAtTemperature(90.2)).toBeCloseTo(0.5, 9);
    expect(utilizationAtTemperature(80)).toBeCloseTo(0.23, 9);
    expect(utilizationAtTemperature(75)).toBeCloseTo(0.15, 9);
  });

  test("falls towards zero as the wort cools and stays 1 above boiling", () => {
    expect(utilizationAtTemperature(50)).toBeLessThan(0.02);
    expect(utilizationAtTemperature(50)).toBeGreaterThan(0);
    expect(utilizationAtTemperature(120)).toBe(1);
  });
});

describe("other formulas", () => {
  test("rager: (18.11 + 13.86 × tanh((t − 31.32) / 18.27)) %", () => {
    expect(ragerUtilization(60)).toBeCloseTo((18.11 + 13.86 * Math.tanh((60 - 31.32) / 18.27)) / 100, 12);
  });

  test("rager divides by 1 + (G − 1.050) / 0.2 above 1.050", () => {
    const low = hopIbu(hop(), ctx({ formula: "rager", boilGravity: 1.05 }));
    const high = hopIbu(hop(), ctx({ formula: "rager", boilGravity: 1.09 }));
    expect(low).toBeCloseTo(MG_PER_L * ragerUtilization(60), 9);
    expect(low / high).toBeCloseTo(1.2, 9);
  });

  test("garetz: (7.2994 + 15.0746 × tanh((t − 21.86) / 24.71)) %", () => {
    expect(garetzUtilization(60)).toBeCloseTo((7.2994 + 15.0746 * Math.tanh((60 - 21.86) / 24.71)) / 100, 12);
  });

  test("garetz solves IBU = raw / (1 + concentration × IBU / 260) at 1.050 and sea level", () => {
    const ibu = hopIbu(hop(), ctx({ formula: "garetz", concentration: 0.85 }));
    const raw = MG_PER_L * garetzUtilization(60);
    expect(ibu * (1 + (0.85 * ibu) / 260)).toBeCloseTo(raw, 6);
  });

  test("noonan: utilisation rises with boil time and levels off", () => {
    const ts = [5, 10, 20, 30, 45, 60, 90, 120];
    const us = ts.map(noonanUtilization);
    for (let i = 1; i < us.length; i++) expect(us[i]!).toBeGreaterThan(us[i - 1]!);
    expect(noonanUtilization(60)).toBeCloseTo(0.23, 9);
    expect(noonanUtilization(240)).toBe(noonanUtilization(120));
  });

  test("no formula gives IBU for zero minutes of boil", () => {
    for (const formula of ["tinseth", "tinseth*", "rager", "garetz", "noonan"] as IbuFormula[]) {
      expect(hopIbu(hop({ time: 0 }), ctx({ formula }))).toBe(0);
    }
  });
});

describe("reading hop fields", () => {
  test("an unknown ibuFormula means tinseth", () => {
    expect(ibuFormulaOf("daniels")).toBe("tinseth");
    expect(ibuFormulaOf("Rager")).toBe("rager");
  });

  test("hop use values map to roles, unknown ones boil", () => {
    expect(["Boil", "Dry Hop", "Mash", "First Wort", "Aroma", "Whirlpool", 7].map(hopRole)).toEqual([
      "boil", "dryHop", "mash", "firstWort", "aroma", "aroma", "boil",
    ]);
  });
});
