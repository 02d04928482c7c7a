import { describe, expect, test } from "bun:test";
import { buildDemoData } from "../../src/demo/index.ts";

type Obj = Record<string, any>;

const NOW = Date.UTC(2026, 0, 15, 9, 30, 12, 345);
const DAY = 86_400_000;
const STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"];
const data = buildDemoData(NOW);
const byStatus = (status: string): Obj => data.batches.find((b) => b.status === status) as Obj;

describe("demo data: content", () => {
  test("has at least 6 batches, 3 recipes and several items in each inventory collection", () => {
    expect(data.batches.length).toBeGreaterThanOrEqual(6);
    expect(data.recipes).toHaveLength(3);
    for (const key of ["fermentables", "hops", "miscs", "yeasts"] as const) {
      expect(data[key].length).toBeGreaterThanOrEqual(3);
    }
  });

  test("every batch status appears, and batchNo runs 1..n", () => {
    expect(new Set(data.batches.map((b) => b.status))).toEqual(new Set(STATUSES));
    const numbers = data.batches.map((b) => b.batchNo as number).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  test("batch dates fit their status: only the planned batch lies ahead, finished ones were bottled", () => {
    for (const batch of data.batches as Obj[]) {
      if (batch.status === "Planning") {
        expect(batch.brewDate).toBeGreaterThan(NOW);
        expect(batch.fermentationStartDate).toBeUndefined();
        expect(batch.bottlingDate).toBeUndefined();
      } else {
        expect(batch.brewDate).toBeLessThanOrEqual(NOW);
      }
      if (["Conditioning", "Completed", "Archived"].includes(batch.status)) {
        expect(batch.fermentationStartDate).toBeGreaterThanOrEqual(batch.brewDate);
        expect(batch.bottlingDate).toBeGreaterThan(batch.fermentationStartDate);
        expect(batch.bottlingDate).toBeLessThanOrEqual(NOW);
        expect(typeof batch.measuredFg).toBe("number");
      }
    }
  });

  test("brewed batches carry measured values; the planned one has none", () => {
    for (const status of ["Fermenting", "Conditioning", "Completed", "Archived"]) {
      const batch = byStatus(status);
      for (const field of ["measuredOg", "measuredBatchSize", "measuredMashPh", "measuredEfficiency", "measuredAbv"]) {
        expect(typeof batch[field]).toBe("number");
      }
      expect(batch.measuredAbv).toBeCloseTo((batch.measuredOg - (batch.measuredFg ?? batch.estimatedFg)) * 131.25, 2);
    }
    expect(Object.keys(byStatus("Planning")).filter((k) => k.startsWith("measured"))).toEqual([]);
  });

  test("the newest status-change note names the batch's status", () => {
    for (const batch of data.batches as Obj[]) {
      if (batch.status === "Planning") {
        expect(batch.notes).toEqual([]);
        continue;
      }
      expect(batch.notes[0]).toMatchObject({ status: batch.status, type: "statusChanged" });
      const times = batch.notes.map((n: Obj) => n.timestamp);
      expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
    }
  });

  test("the completed batch has taste logs with scores from 1 to 5", () => {
    const logs = byStatus("Completed").tasteLogs as Obj[];
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) {
      for (const score of ["tasteRating", "bitterness", "sweetness", "alcohol", "tropical"]) {
        expect(log[score]).toBeGreaterThanOrEqual(1);
        expect(log[score]).toBeLessThanOrEqual(5);
      }
    }
  });

  test("every batch holds an exact copy of one of the recipes", () => {
    for (const batch of data.batches as Obj[]) {
      expect(data.recipes).toContainEqual(batch.recipe);
    }
  });

  test("batch ingredients carry the inventory-tracking fields", () => {
    const fields = ["removedFromInventory", "removedAmount", "removedUnit", "inventoryUnit", "checked", "notInRecipe"];
    for (const batch of data.batches as Obj[]) {
      for (const key of ["batchFermentables", "batchHops", "batchMiscs", "batchYeasts"]) {
        expect(batch[key].length).toBeGreaterThan(0);
        for (const entry of batch[key]) for (const field of fields) expect(entry).toHaveProperty(field);
      }
    }
  });

  test("inventory has stock, one fermentable at zero and one hop below zero", () => {
    for (const key of ["fermentables", "hops", "miscs", "yeasts"] as const) {
      expect(data[key].some((item) => (item.inventory as number) > 0)).toBe(true);
    }
    expect(data.fermentables.filter((f) => f.inventory === 0)).toHaveLength(1);
    expect(data.hops.filter((h) => (h.inventory as number) < 0)).toHaveLength(1);
  });

  test("every ingredient of a recipe or batch refers to an item of the matching inventory collection", () => {
    const ids = (key: "fermentables" | "hops" | "miscs" | "yeasts") => new Set(data[key].map((i) => i._id));
    const pairs = [["fermentables", "batchFermentables"], ["hops", "batchHops"], ["miscs", "batchMiscs"], ["yeasts", "batchYeasts"]] as const;
    for (const [collection, batchKey] of pairs) {
      const known = ids(collection);
      for (const recipe of data.recipes as Obj[]) for (const entry of recipe[collection]) expect(known.has(entry._id)).toBe(true);
      for (const batch of data.batches as Obj[]) for (const entry of batch[batchKey]) expect(known.has(entry._id)).toBe(true);
    }
  });
});

describe("demo data: readings and trackers", () => {
  const fermenting = byStatus("Fermenting");
  const readings = fermenting.readings as Obj[];

  test("the fermenting batch has 60+ readings within its first two weeks", () => {
    expect(readings.length).toBeGreaterThanOrEqual(60);
    const span = readings.at(-1)!.time - readings[0].time;
    expect(span).toBeGreaterThan(13 * DAY);
    expect(span).toBeLessThanOrEqual(14 * DAY);
    expect(readings[0].time).toBeGreaterThanOrEqual(fermenting.fermentationStartDate);
  });

  test("reading times ascend in every batch and none lies in the future", () => {
    for (const batch of data.batches as Obj[]) {
      const times = ((batch.readings ?? []) as Obj[]).map((r) => r.time);
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
      for (const time of times) expect(time).toBeLessThanOrEqual(NOW);
    }
  });

  test("device readings carry angle, battery, rssi and id; manual ones a comment", () => {
    const device = readings.filter((r) => r.type === "iSpindel");
    const manual = readings.filter((r) => r.type === "manual");
    expect(device.length).toBeGreaterThanOrEqual(60);
    for (const r of device) {
      expect([typeof r.angle, typeof r.battery, typeof r.rssi, typeof r.id]).toEqual(["number", "number", "number", "string"]);
    }
    expect(manual.length).toBeGreaterThanOrEqual(2);
    for (const r of manual) expect(r.comment.length).toBeGreaterThan(0);
    expect(manual.some((r) => r.sg === null)).toBe(true);
  });

  test("gravity falls from the measured OG to near the expected FG at 18-20 °C", () => {
    const gravities = readings.filter((r) => typeof r.sg === "number");
    expect(Math.abs(gravities[0].sg - fermenting.measuredOg)).toBeLessThanOrEqual(0.002);
    expect(Math.abs(gravities.at(-1)!.sg - fermenting.estimatedFg)).toBeLessThanOrEqual(0.003);
    // Daily means never rise by more than the hydrometer's noise.
    const means: number[] = [];
    for (let day = 0; day < 14; day++) {
      const inDay = gravities.filter((r) => Math.floor((r.time - readings[0].time) / DAY) === day).map((r) => r.sg);
      if (inDay.length > 0) means.push(inDay.reduce((a: number, b: number) => a + b, 0) / inDay.length);
    }
    for (let i = 1; i < means.length; i++) expect(means[i]).toBeLessThanOrEqual(means[i - 1] + 0.001);
    for (const r of readings) {
      expect(r.temp).toBeGreaterThanOrEqual(18);
      expect(r.temp).toBeLessThanOrEqual(20);
    }
  });

  test("the fermenting batch has a brew tracker with the real root fields and stage timers", () => {
    const tracker = fermenting.brewTracker as Obj;
    for (const field of ["_id", "name", "enabled", "active", "completed", "alarm", "notify", "hidden", "startTime", "stage", "stages"]) {
      expect(tracker).toHaveProperty(field);
    }
    expect(tracker.stages.length).toBeGreaterThan(0);
    for (const stage of tracker.stages as Obj[]) {
      expect(stage.steps.length).toBeGreaterThan(0);
      expect(stage.position).toBeGreaterThanOrEqual(0);
      expect(stage.position).toBeLessThanOrEqual(stage.duration);
    }
  });

  test("a running tracker's position is the time left on the stage when it was saved", () => {
    const tracker = byStatus("Brewing").brewTracker as Obj;
    const mash = tracker.stages[0];
    expect(tracker.active).toBe(true);
    expect(mash.paused).toBe(false);
    expect(mash.position).toBeGreaterThan(0);
    expect(mash.position).toBeLessThan(mash.duration);
    expect(mash.start + (mash.duration - mash.position) * 1000).toBeLessThanOrEqual(NOW);
    for (const later of tracker.stages.slice(1)) expect(later.position).toBe(later.duration);
  });

  test("the planned batch has no readings and no brew tracker", () => {
    const planning = byStatus("Planning");
    expect(planning.readings).toBeUndefined();
    expect(planning.brewTracker).toBeUndefined();
  });
});
