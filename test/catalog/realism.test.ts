import { describe, expect, test } from "bun:test";
import { catalogItems, type Collection } from "../../src/catalog/index.ts";

// Spot checks against well-known published figures, so a slipped digit in a table shows up.
type Item = Record<string, unknown>;

function named(collection: Collection, name: string): Item {
  const item = catalogItems(collection).find((candidate) => candidate.name === name);
  if (!item) throw new Error(`${collection} has no item named ${name}`);
  return item;
}

const num = (item: Item, key: string): number => item[key] as number;

describe("fermentables", () => {
  const items = catalogItems("fermentables");

  test("every Pilsner base malt is paler than 2.5 SRM", () => {
    const pilsners = items.filter((item) => item.grainCategory === "Base (Pilsner)");
    expect(pilsners.length).toBeGreaterThanOrEqual(8);
    expect(pilsners.filter((item) => num(item, "color") >= 2.5).map((item) => item.name)).toEqual([]);
  });

  test("Maris Otter is about 3 SRM with a potential near 1.038 and 81% fermentability", () => {
    const item = named("fermentables", "Maris Otter");
    expect(item).toMatchObject({ supplier: "Crisp", origin: "UK", grainCategory: "Base (Maris Otter)", color: 3.05, lovibond: 2.8, potential: 1.038, attenuation: 0.81 });
  });

  test("base malts yield 1.034 to 1.040 and are at least 74% fermentable", () => {
    const base = items.filter((item) => String(item.grainCategory).startsWith("Base"));
    expect(base.length).toBeGreaterThanOrEqual(40);
    expect(base.filter((item) => num(item, "potential") < 1.034 || num(item, "potential") > 1.04).map((item) => item.name)).toEqual([]);
    expect(base.filter((item) => num(item, "attenuation") < 0.74).map((item) => item.name)).toEqual([]);
  });

  test("roasted malts are darker than 200 SRM; crystal malts lie between 1 and 250 SRM", () => {
    expect(items.filter((item) => item.grainCategory === "Roasted" && num(item, "color") <= 200).map((item) => item.name)).toEqual([]);
    const crystal = items.filter((item) => item.grainCategory === "Crystal/Caramel");
    expect(crystal.filter((item) => num(item, "color") < 1 || num(item, "color") > 250).map((item) => item.name)).toEqual([]);
  });

  test("American crystal malts keep their Lovibond rating and darken in order", () => {
    const ratings = [10, 20, 40, 60, 80, 120];
    const crystals = ratings.map((l) => named("fermentables", `Caramel ${l}L`));
    expect(crystals.map((item) => item.lovibond)).toEqual(ratings);
    const srm = crystals.map((item) => num(item, "color"));
    expect(srm.every((value, i) => i === 0 || srm[i - 1]! < value)).toBe(true);
  });

  test("sucrose and dextrose ferment fully; lactose and rice hulls add nothing fermentable", () => {
    expect(named("fermentables", "Table Sugar (Sucrose)")).toMatchObject({ type: "Sugar", potential: 1.046, attenuation: 1, color: 0 });
    expect(named("fermentables", "Corn Sugar (Dextrose)")).toMatchObject({ type: "Sugar", attenuation: 1 });
    expect(named("fermentables", "Lactose")).toMatchObject({ notFermentable: true, attenuation: 0 });
    expect(named("fermentables", "Rice Hulls")).toMatchObject({ type: "Adjunct", potential: 1, notFermentable: true });
  });

  test("dry extract yields more per kilogram than liquid extract", () => {
    const dry = items.filter((item) => item.type === "Dry Extract").map((item) => num(item, "potential"));
    const liquid = items.filter((item) => item.type === "Liquid Extract").map((item) => num(item, "potential"));
    expect(Math.min(...dry)).toBeGreaterThan(Math.max(...liquid));
  });
});

describe("hops", () => {
  test("Cascade is an American aroma hop with alpha between 4.5 and 9", () => {
    const item = named("hops", "Cascade");
    expect(item).toMatchObject({ origin: "US", usage: "Aroma" });
    expect(num(item, "alpha")).toBeGreaterThanOrEqual(4.5);
    expect(num(item, "alpha")).toBeLessThanOrEqual(9);
  });

  test("noble hops are low in alpha: Saaz, Tettnang, Spalt and Hallertau Mittelfrüh under 5.5", () => {
    for (const name of ["Saaz", "Tettnang", "Spalt", "Hallertau Mittelfrüh"]) expect(num(named("hops", name), "alpha")).toBeLessThan(5.5);
    expect(named("hops", "Saaz").origin).toBe("CZ");
  });

  test("bittering varieties are high in alpha", () => {
    const bittering = catalogItems("hops").filter((item) => item.usage === "Bittering");
    expect(bittering.length).toBeGreaterThanOrEqual(15);
    expect(bittering.filter((item) => num(item, "alpha") < 7).map((item) => item.name)).toEqual([]);
    expect(num(named("hops", "Hallertau Magnum"), "alpha")).toBeGreaterThan(11);
    expect(num(named("hops", "Polaris"), "alpha")).toBeGreaterThan(18);
  });

  test("Citra is myrcene-dominant and Hallertau Mittelfrüh humulene-dominant", () => {
    const citra = named("hops", "Citra");
    const mittelfrueh = named("hops", "Hallertau Mittelfrüh");
    expect(num(citra, "myrcene")).toBeGreaterThan(num(citra, "humulene"));
    expect(num(mittelfrueh, "humulene")).toBeGreaterThan(num(mittelfrueh, "myrcene"));
  });

  test("varieties come from at least eight countries", () => {
    expect(new Set(catalogItems("hops").map((item) => item.origin)).size).toBeGreaterThanOrEqual(8);
  });
});

describe("yeasts", () => {
  test("US-05 is a dry Fermentis ale yeast attenuating about 78 to 82%", () => {
    const item = catalogItems("yeasts").find((candidate) => candidate.productId === "US-05")!;
    expect(item).toMatchObject({ laboratory: "Fermentis", type: "Ale", form: "Dry", minAttenuation: 78, maxAttenuation: 82 });
    expect(num(item, "attenuation")).toBeGreaterThanOrEqual(78);
    expect(num(item, "attenuation")).toBeLessThanOrEqual(82);
  });

  test("lager strains ferment cool (minimum at most 13 °C); kveik tolerates 35 °C and more", () => {
    const yeasts = catalogItems("yeasts");
    const lagers = yeasts.filter((item) => item.type === "Lager" && item.name !== "California Lager" && item.name !== "San Francisco Lager" && item.name !== "M54 Californian Lager");
    expect(lagers.filter((item) => num(item, "minTemp") > 13).map((item) => item.name)).toEqual([]);
    const kveik = yeasts.filter((item) => String(item.name).includes("Kveik"));
    expect(kveik.length).toBeGreaterThanOrEqual(3);
    expect(kveik.filter((item) => num(item, "maxTemp") < 35).map((item) => item.name)).toEqual([]);
  });

  test("diastaticus saison strains attenuate beyond 85%; English strains stay below 80%", () => {
    expect(num(named("yeasts", "SafAle BE-134"), "attenuation")).toBeGreaterThan(85);
    expect(num(named("yeasts", "LalBrew Belle Saison"), "attenuation")).toBeGreaterThan(85);
    for (const name of ["London ESB Ale", "English Ale", "LalBrew Windsor"]) expect(num(named("yeasts", name), "attenuation")).toBeLessThan(80);
  });

  test("the catalog covers at least five laboratories, dry and liquid", () => {
    const yeasts = catalogItems("yeasts");
    expect(new Set(yeasts.map((item) => item.laboratory)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(yeasts.map((item) => item.form))).toEqual(new Set(["Dry", "Liquid"]));
  });
});

describe("miscs", () => {
  test("acids state their strength as concentration", () => {
    expect(named("miscs", "Lactic Acid 80%")).toMatchObject({ concentration: 80, unit: "ml", waterAdjustment: true });
    expect(named("miscs", "Phosphoric Acid 10%")).toMatchObject({ concentration: 10 });
  });

  test("Irish Moss is a fining added 15 minutes before the end of the boil", () => {
    expect(named("miscs", "Irish Moss")).toMatchObject({ type: "Fining", use: "Boil", time: 15, timeUnit: "min" });
  });

  test("brewing salts are mash water agents dosed in grams", () => {
    for (const name of ["Calcium Chloride (CaCl2)", "Gypsum (CaSO4)", "Epsom Salt (MgSO4)", "Baking Soda (NaHCO3)"]) {
      expect(named("miscs", name)).toMatchObject({ type: "Water Agent", use: "Mash", unit: "g", waterAdjustment: true });
    }
  });
});
