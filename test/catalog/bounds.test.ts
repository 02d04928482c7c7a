import { describe, expect, test } from "bun:test";
import { catalogItems } from "../../src/catalog/index.ts";

// Ranges and value sets of the API document (Fermentable, Hop, Yeast and Misc Objects), plus
// the enumerations the hosted service is known to use.
type Item = Record<string, unknown>;

const within = (items: readonly Item[], key: string, min: number, max: number): string[] =>
  items
    .filter((item) => key in item && !(typeof item[key] === "number" && Number.isFinite(item[key]) && (item[key] as number) >= min && (item[key] as number) <= max))
    .map((item) => `${item.name}.${key}=${item[key]}`);

const outside = (items: readonly Item[], key: string, values: readonly unknown[]): string[] =>
  items.filter((item) => key in item && !values.includes(item[key])).map((item) => `${item.name}.${key}=${item[key]}`);

describe("fermentables", () => {
  const items = catalogItems("fermentables");

  test("potential is SG 1.000 to 1.500; colour, lovibond and diastatic power are not negative", () => {
    expect(within(items, "potential", 1, 1.5)).toEqual([]);
    expect(within(items, "color", 0, 1000)).toEqual([]);
    expect(within(items, "lovibond", 0, 700)).toEqual([]);
    expect(within(items, "diastaticPower", 0, 250)).toEqual([]);
  });

  test("moisture and protein are percentages; attenuation is a fraction (0.81), as the hosted service stores it", () => {
    expect(within(items, "moisture", 0, 100)).toEqual([]);
    expect(within(items, "protein", 0, 100)).toEqual([]);
    expect(within(items, "attenuation", 0, 1)).toEqual([]);
  });

  test("type and grainCategory take the document's values; every grain has a category", () => {
    expect(outside(items, "type", ["Grain", "Sugar", "Liquid Extract", "Dry Extract", "Adjunct", "Other"])).toEqual([]);
    const categories = ["Base", "Base (Pilsner)", "Base (Wheat)", "Base (Munich)", "Base (Vienna)", "Base (Maris Otter)", "Base (6-Row)", "Crystal/Caramel", "Roasted", "Acidulated", "Other", "Ignore"];
    expect(outside(items, "grainCategory", categories)).toEqual([]);
    expect(items.filter((item) => item.type === "Grain" && !("grainCategory" in item)).map((item) => item.name)).toEqual([]);
    expect(items.filter((item) => item.type !== "Grain" && "grainCategory" in item).map((item) => item.name)).toEqual([]);
  });

  test("notFermentable is a boolean, and unfermentable items have no fermentability", () => {
    expect(outside(items, "notFermentable", [true, false])).toEqual([]);
    expect(items.filter((item) => item.notFermentable === true && item.attenuation !== 0).map((item) => item.name)).toEqual([]);
  });

  test("every type of the document is represented", () => {
    expect(new Set(items.map((item) => item.type))).toEqual(new Set(["Grain", "Sugar", "Liquid Extract", "Dry Extract", "Adjunct"]));
  });
});

describe("hops", () => {
  const items = catalogItems("hops");

  test("alpha 0 to 100 (every real variety under 25), beta 0 to 20, oil 0 to 10 ml/100 g", () => {
    expect(within(items, "alpha", 1, 25)).toEqual([]);
    expect(within(items, "beta", 0, 20)).toEqual([]);
    expect(within(items, "oil", 0, 10)).toEqual([]);
  });

  test("oil shares are percentages that together stay under 100", () => {
    for (const key of ["myrcene", "humulene", "caryophyllene", "farnesene"]) expect(within(items, key, 0, 100)).toEqual([]);
    const total = (item: Item) => ["myrcene", "humulene", "caryophyllene", "farnesene"].reduce((sum, key) => sum + ((item[key] as number) ?? 0), 0);
    expect(items.filter((item) => total(item) > 100).map((item) => item.name)).toEqual([]);
  });

  test("defaults start as a 60-minute pellet boil addition with no IBU of their own", () => {
    expect(outside(items, "type", ["Pellet"])).toEqual([]);
    expect(outside(items, "use", ["Boil"])).toEqual([]);
    expect(within(items, "time", 60, 60)).toEqual([]);
    expect(within(items, "ibu", 0, 0)).toEqual([]);
  });

  test("usage is Aroma, Bittering or Both and origin is a two-letter country code", () => {
    expect(outside(items, "usage", ["Aroma", "Bittering", "Both"])).toEqual([]);
    expect(items.filter((item) => !/^[A-Z]{2}$/.test(String(item.origin))).map((item) => item.name)).toEqual([]);
  });
});

describe("yeasts", () => {
  const items = catalogItems("yeasts");

  test("attenuations are percentages with min <= attenuation <= max", () => {
    for (const key of ["attenuation", "minAttenuation", "maxAttenuation"]) expect(within(items, key, 50, 100)).toEqual([]);
    const disordered = items.filter(
      (item) => "attenuation" in item && !((item.minAttenuation as number) <= (item.attenuation as number) && (item.attenuation as number) <= (item.maxAttenuation as number)),
    );
    expect(disordered.map((item) => item.name)).toEqual([]);
  });

  test("temperatures are Celsius with min below max; maxAbv is 0 to 30", () => {
    expect(within(items, "minTemp", 5, 30)).toEqual([]);
    expect(within(items, "maxTemp", 10, 42)).toEqual([]);
    expect(items.filter((item) => (item.minTemp as number) >= (item.maxTemp as number)).map((item) => item.name)).toEqual([]);
    expect(within(items, "maxAbv", 0, 30)).toEqual([]);
  });

  test("type, form, flocculation and unit take known values; one package per default", () => {
    expect(outside(items, "type", ["Ale", "Lager", "Wheat", "Wine", "Champagne", "Other"])).toEqual([]);
    expect(outside(items, "form", ["Dry", "Liquid"])).toEqual([]);
    expect(outside(items, "flocculation", ["Low", "Medium-Low", "Medium", "Medium-High", "High", "Very High"])).toEqual([]);
    expect(outside(items, "unit", ["pkg"])).toEqual([]);
    expect(within(items, "amount", 1, 1)).toEqual([]);
  });

  test("laboratory and productId together name one product", () => {
    const keys = items.map((item) => `${item.laboratory}/${item.productId}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });
});

describe("miscs", () => {
  const items = catalogItems("miscs");

  test("type, use, unit and timeUnit take the document's values", () => {
    expect(outside(items, "type", ["Water Agent", "Fining", "Flavor", "Spice", "Herb", "Other"])).toEqual([]);
    expect(outside(items, "use", ["Boil", "Mash", "Steep", "Primary", "Secondary", "Bottling", "Sparge", "Flameout"])).toEqual([]);
    const units = ["g", "mg", "kg", "oz", "lb", "ml", "l", "tsp", "tbsp", "cup", "pkg", "items", "drops", "pt", "qt", "gal"];
    expect(outside(items, "unit", units)).toEqual([]);
    expect(outside(items, "timeUnit", ["min", "day", "days"])).toEqual([]);
  });

  test("time is 0 to 365, amount is positive and concentration is a percentage", () => {
    expect(within(items, "time", 0, 365)).toEqual([]);
    expect(within(items, "amount", Number.MIN_VALUE, 1000)).toEqual([]);
    expect(within(items, "concentration", 0, 100)).toEqual([]);
  });

  test("fermenter additions count time in days, hot-side additions in minutes", () => {
    const wrong = items.filter((item) => (["Primary", "Secondary"].includes(item.use as string) ? "days" : "min") !== item.timeUnit);
    expect(wrong.map((item) => item.name)).toEqual([]);
  });

  test("exactly the water agents adjust water chemistry", () => {
    expect(items.filter((item) => item.waterAdjustment !== (item.type === "Water Agent")).map((item) => item.name)).toEqual([]);
  });

  test("every misc type is represented", () => {
    expect(new Set(items.map((item) => item.type))).toEqual(new Set(["Water Agent", "Fining", "Flavor", "Spice", "Herb", "Other"]));
  });
});
