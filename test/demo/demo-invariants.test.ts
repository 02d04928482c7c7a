import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { buildDemoData } from "../../src/demo/index.ts";

type Obj = Record<string, any>;

const NOW = Date.UTC(2026, 0, 15, 9, 30, 12, 345);
const data = buildDemoData(NOW);
// `time` is a timestamp only in readings and events (elsewhere it is minutes or seconds).
const TIME_KEYS = new Set([
  "timestamp", "brewDate", "fermentationStartDate", "bottlingDate", "_timestamp_ms",
  "startTime", "endTime", "start", "notifyTime",
]);

/** Every [key, value] pair anywhere in the tree. */
function* entries(node: unknown): Generator<[string, unknown]> {
  if (Array.isArray(node)) for (const item of node) yield* entries(item);
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      yield [key, value];
      yield* entries(value);
    }
  }
}

// A plausible range of server clocks: 2001 to 2096.
const nowArb = fc.integer({ min: 1_000_000_000_000, max: 4_000_000_000_000 });

describe("demo data: identity and determinism", () => {
  test("every root _id and tracker _id is a unique 20-character alphanumeric id", () => {
    const ids = [
      ...data.batches, ...data.recipes, ...data.fermentables, ...data.hops, ...data.miscs, ...data.yeasts,
    ].map((r) => r._id as string);
    for (const batch of data.batches as Obj[]) if (batch.brewTracker) ids.push(batch.brewTracker._id);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("the same now gives the same data, for any now", () => {
    fc.assert(
      fc.property(nowArb, (now) => {
        expect(buildDemoData(now)).toStrictEqual(buildDemoData(now));
      }),
      { numRuns: 10, verbose: true },
    );
  });

  test("ids do not depend on now", () => {
    fc.assert(
      fc.property(nowArb, nowArb, (a, b) => {
        const ids = (now: number) => buildDemoData(now).batches.map((x) => [x._id, (x.brewTracker as Obj | undefined)?._id]);
        expect(ids(a)).toEqual(ids(b));
      }),
      { numRuns: 5, verbose: true },
    );
  });

  test("JSON round-trip gives back equal data (no undefined, NaN or Infinity inside)", () => {
    expect(JSON.parse(JSON.stringify(data))).toStrictEqual(data);
  });

  test("every timestamp is an integer of Unix milliseconds within a year of now", () => {
    const values: unknown[] = [];
    for (const [key, value] of entries(data)) if (TIME_KEYS.has(key) && value !== null) values.push(value);
    for (const batch of data.batches as Obj[]) {
      for (const list of [batch.readings ?? [], batch.events]) for (const item of list) values.push(item.time);
    }
    expect(values.length).toBeGreaterThan(200);
    for (const value of values) {
      expect(Number.isInteger(value)).toBe(true);
      expect(Math.abs((value as number) - NOW)).toBeLessThan(366 * 86_400_000);
    }
  });

  test("a fractional now is floored, not carried into timestamps", () => {
    expect(buildDemoData(NOW + 0.75)).toStrictEqual(data);
  });
});

describe("demo recipes: figures agree with the app's formulas", () => {
  const recipes = data.recipes as Obj[];

  test("OG = 1 + sum(kg x points x 8.3454 x efficiency) / batch size, within 0.001", () => {
    for (const r of recipes) {
      const points = r.fermentables.reduce((sum: number, f: Obj) => sum + f.amount * (f.potential - 1) * 1000 * 8.3454 * (r.efficiency / 100), 0);
      expect(Math.abs(1 + points / r.batchSize / 1000 - r.og)).toBeLessThan(0.001);
    }
  });

  test("ABV = (OG rounded to 3 places - FG) x 131.25, to 2 places", () => {
    for (const r of recipes) {
      expect(r.abv).toBeCloseTo((Math.round(r.og * 1000) / 1000 - r.fg) * 131.25, 2);
    }
  });

  test("boil size = (batch + trub loss) / 0.96 + boil-off per hour x boil time", () => {
    for (const r of recipes) {
      const e = r.equipment;
      expect(e.postBoilKettleVol).toBeCloseTo((r.batchSize + e.trubChillerLoss) / 0.96, 1);
      expect(r.boilSize).toBeCloseTo(e.postBoilKettleVol + (e.boilOffPerHr * r.boilTime) / 60, 1);
    }
  });

  test("mash and sparge water follow the equipment's formulas", () => {
    for (const r of recipes) {
      const e = r.equipment;
      const grain = r.data.mashFermentablesAmount;
      expect(r.data.mashWaterAmount).toBeCloseTo(grain * e.waterGrainRatio + e.mashTunDeadSpace, 1);
      expect(r.data.mashVolume).toBeCloseTo(r.data.mashWaterAmount + 0.67 * grain, 1);
      expect(r.data.spargeWaterAmount).toBeCloseTo(r.boilSize - r.data.mashWaterAmount + grain * e.grainAbsorptionRate + e.mashTunLoss, 1);
      const t = r.mash.steps[0].stepTemp;
      expect(r.data.strikeTemp).toBeCloseTo(t + (0.4 * (t - 20) * grain) / r.data.mashWaterAmount, 1);
    }
  });

  test("grain bill percentages add up to 100 and each recipe sits inside its style's OG and ABV range", () => {
    for (const r of recipes) {
      const total = r.fermentables.reduce((sum: number, f: Obj) => sum + f.percentage, 0);
      expect(Math.abs(total - 100)).toBeLessThan(0.05);
      expect(r.og).toBeGreaterThanOrEqual(r.style.ogMin);
      expect(r.og).toBeLessThanOrEqual(r.style.ogMax);
      expect(r.abv).toBeGreaterThanOrEqual(r.style.abvMin);
      expect(r.abv).toBeLessThanOrEqual(r.style.abvMax);
    }
  });
});
