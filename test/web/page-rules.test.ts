import { describe, expect, test } from "bun:test";
import { chartReadings } from "../../src/web/chart.ts";
import { srmHex } from "../../src/web/colour.ts";
import { fermentationFigures, gravityChange, originalGravity } from "../../src/web/figures.ts";
import { ago, duration, formatSgChange } from "../../src/web/format.ts";
import { measuredPatch, refusedField } from "../../src/web/measured.ts";
import { rangeVerdict } from "../../src/web/pages/recipe.ts";
import { stockLevel, stockUnit } from "../../src/web/stock-level.ts";
import { deviceReadings, manualReadings } from "./data.ts";

const H = 3_600_000;
const r = (hours: number, sg: number | null, temp: number | null = 19) => ({ time: hours * H, sg, temp });

describe("fermentation figures", () => {
  test("current gravity, attenuation and ABV from the measured OG: 1.050 to 1.010 is 80 % and 5.3 %", () => {
    const f = fermentationFigures({ measuredOg: 1.05 }, [r(0, 1.048), r(10, 1.01)])!;
    expect(f.current).toEqual({ sg: 1.01, time: 10 * H });
    expect(f.og).toEqual({ sg: 1.05, source: "measured" });
    expect(f.attenuation).toBeCloseTo(80, 9);
    expect(f.abv).toBeCloseTo(5.25, 9);
  });

  test("without a measured OG the first gravity reading is the start, and without readings enough the recipe's estimate", () => {
    expect(originalGravity({ estimatedOg: 1.06 }, [r(0, 1.055), r(1, 1.05)])).toEqual({ sg: 1.055, source: "first reading" });
    expect(originalGravity({ estimatedOg: 1.06 }, [r(0, 1.055)])).toEqual({ sg: 1.06, source: "recipe" });
    expect(originalGravity({}, [r(0, 1.055)])).toBeUndefined();
    const f = fermentationFigures({}, [r(0, 1.055)])!;
    expect(f.attenuation).toBeUndefined();
    expect(f.abv).toBeUndefined();
  });

  test("the 24 h change is measured from the last reading at least 24 h before the latest", () => {
    expect(gravityChange([r(0, 1.04), r(20, 1.03), r(30, 1.02), r(50, 1.015)])).toEqual({ delta: 1.015 - 1.03, hours: 30 });
  });

  test("readings spanning less than 24 h give the change over what they span; one reading gives none", () => {
    expect(gravityChange([r(0, 1.04), r(6, 1.035)])).toEqual({ delta: 1.035 - 1.04, hours: 6 });
    expect(gravityChange([r(0, 1.04)])).toBeUndefined();
  });

  test("a later temperature-only reading is the last reading but not the current gravity", () => {
    const f = fermentationFigures({}, [r(0, 1.05), r(5, 1.045), r(8, null, 18)])!;
    expect(f.current.sg).toBe(1.045);
    expect(f.lastTime).toBe(8 * H);
  });

  test("readings without any gravity give no figures", () => {
    expect(fermentationFigures({ measuredOg: 1.05 }, chartReadings(manualReadings()))).toBeUndefined();
    expect(fermentationFigures({}, chartReadings(deviceReadings()))?.current.sg).toBe(1.013);
  });
});

describe("printing", () => {
  test("durations in the largest units a person reads at a glance", () => {
    expect(duration(59_999)).toBe("0 min");
    expect(duration(3 * H)).toBe("3 h");
    expect(duration(3 * H + 20 * 60_000)).toBe("3 h 20 min");
    expect(duration(24 * H)).toBe("1 day");
    expect(duration(52 * H)).toBe("2 days 4 h");
    expect(ago(1000, 1000 + 30_000)).toBe("just now");
    expect(ago(5 * H, 0)).toBe("just now");
  });

  test("a gravity change carries its sign", () => {
    expect(formatSgChange(-0.0042)).toBe("−0.004");
    expect(formatSgChange(0.001)).toBe("+0.001");
    expect(formatSgChange(0.0002)).toBe("±0.000");
  });

  test("beer colour: pale is light, dark is dark", () => {
    expect(srmHex(0)).toBe("#ffffff");
    expect(srmHex(-3)).toBe("#ffffff");
    // 255 × 0.975^40 = 93, 255 × 0.88^40 = 1.5, 255 × 0.7^40 = 0
    expect(srmHex(40)).toBe("#5d0200");
    const lightness = (hex: string) => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16);
    expect(lightness(srmHex(4))).toBeGreaterThan(lightness(srmHex(10)));
    expect(lightness(srmHex(10))).toBeGreaterThan(lightness(srmHex(30)));
  });

  test("a figure against a style's range: the ends are within", () => {
    expect(rangeVerdict(1.045, 1.045, 1.06)).toBe("within");
    expect(rangeVerdict(1.06, 1.045, 1.06)).toBe("within");
    expect(rangeVerdict(1.044, 1.045, 1.06)).toBe("below");
    expect(rangeVerdict(1.061, 1.045, 1.06)).toBe("above");
  });
});

describe("measured-value form to PATCH body", () => {
  const batch = { status: "Fermenting", measuredOg: 1.052, measuredBatchSize: 21.5 };
  const form = (fields: Record<string, string>) => new URLSearchParams({ status: "Fermenting", measuredOg: "1.052", measuredBatchSize: "21.5", measuredFg: "", ...fields });

  test("boxes left as they were are not sent", () => {
    expect(measuredPatch(form({}), batch)).toEqual({});
    expect(measuredPatch(form({ measuredOg: "1.0520" }), batch)).toEqual({});
  });

  test("a changed box is sent as typed, for the API's rules to judge", () => {
    expect(measuredPatch(form({ measuredFg: "1.011", measuredOg: "abc" }), batch)).toEqual({ measuredFg: "1.011", measuredOg: "abc" });
  });

  test("an emptied box that held a value sends null; an empty one that held none sends nothing", () => {
    expect(measuredPatch(form({ measuredBatchSize: " " }), batch)).toEqual({ measuredBatchSize: null });
  });

  test("a status is sent when it changed; an empty choice is none", () => {
    expect(measuredPatch(form({ status: "Conditioning" }), batch)).toEqual({ status: "Conditioning" });
    expect(measuredPatch(form({ status: "" }), {})).toEqual({ measuredOg: "1.052", measuredBatchSize: "21.5" });
  });

  test("the API's refusal names the field to mark", () => {
    expect(refusedField("Invalid measuredOg")).toBe("measuredOg");
    expect(refusedField("Invalid status")).toBe("status");
    expect(refusedField("Not Found")).toBeUndefined();
  });
});

describe("stock marks (docs/decisions.md)", () => {
  test("below zero is negative, zero is out, under the collection's threshold is low", () => {
    expect(stockLevel("fermentables", -0.1)).toBe("negative");
    expect(stockLevel("hops", 0)).toBe("out");
    expect(stockLevel("fermentables", 0.999)).toBe("low");
    expect(stockLevel("fermentables", 1)).toBe("ok");
    expect(stockLevel("hops", 49)).toBe("low");
    expect(stockLevel("yeasts", 0.5)).toBe("low");
    expect(stockLevel("miscs", 0.001)).toBe("ok");
    expect(stockLevel("miscs", undefined)).toBe("unknown");
  });

  test("units: kg and g for fermentables and hops, the item's own for the rest", () => {
    expect(stockUnit("fermentables", { unit: "lb" })).toBe("kg");
    expect(stockUnit("hops", {})).toBe("g");
    expect(stockUnit("miscs", { unit: "ml" })).toBe("ml");
    expect(stockUnit("yeasts", {})).toBe("pkg");
  });
});
