import { expect, test } from "bun:test";
import { beerSmithAbv, platoOf } from "./reference-formulas.ts";

test("platoOf: 1.040 is 9.96 °P and 1.000 is 0 °P", () => {
  expect(platoOf(1.04)).toBeCloseTo(9.96, 2);
  expect(platoOf(1.0)).toBe(0);
});

test("beerSmithAbv reproduces BeerSmith's EST_ABV from its own EST_OG and EST_FG (Aussie Ale, Kolsch, RR Summer Bitter, Muddy Pig)", () => {
  expect(beerSmithAbv(1.044, 1.008).toFixed(1)).toBe("4.7");
  expect(beerSmithAbv(1.049, 1.01).toFixed(1)).toBe("5.1");
  // 11.6 °P and 3.4 °P
  expect(beerSmithAbv(1.0467, 1.0133).toFixed(1)).toBe("4.4");
  expect(beerSmithAbv(1.06, 1.015).toFixed(1)).toBe("5.9");
});
