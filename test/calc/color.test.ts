import { expect, test } from "bun:test";
import { mcu, moreySrm } from "../../src/calc/color.ts";
import { readFermentables } from "../../src/calc/fermentables.ts";

test("MCU = Σ(lb × SRM) / gallons", () => {
  // 1 kg = 2.20462 lb at 10 SRM in 3.78541 L (1 gal)
  expect(mcu(readFermentables([{ type: "Grain", amount: 1, color: 10 }]), 3.78541)).toBeCloseTo(22.0462, 4);
});

test("Morey: SRM = 1.4922 × MCU^0.6859", () => {
  expect(moreySrm(10)).toBeCloseTo(1.4922 * 10 ** 0.6859, 9);
  expect(moreySrm(0)).toBe(0);
});

test("priming sugar adds no colour", () => {
  const ferms = readFermentables([{ type: "Sugar", amount: 1, color: 50, use: "Bottling" }]);
  expect(mcu(ferms, 20)).toBe(0);
});

test("lovibond stands in when colour is missing", () => {
  expect(mcu(readFermentables([{ type: "Grain", amount: 1, lovibond: 10 }]), 3.78541)).toBeCloseTo(22.0462, 4);
});
