import { buildBatch, type BatchPlan } from "./batch.ts";
import { BATCH_IDS, TRACKER_IDS } from "./ids.ts";
import { DAY, HOUR, MINUTE } from "./meta.ts";
import { revision, type Random } from "./random.ts";
import { buildReadings } from "./readings.ts";
import { buildTracker } from "./tracker.ts";

// Six batches, one per status, numbered in the order they were brewed. Each
// recipe was brewed twice, so every batch holds a copy of one of the recipes.

type Obj = Record<string, unknown>;

export interface DemoRecipes {
  paleAle: Obj;
  pilsner: Obj;
  stout: Obj;
}

/** Gravity and volume readings of a finished brew day, in the order the brewer takes them. */
function brewDay(mashPh: number, boilSize: number, preBoil: number, postBoil: number, kettle: number, og: number, batchSize: number): Obj {
  return {
    measuredMashPh: mashPh, measuredBoilSize: boilSize, measuredPreBoilGravity: preBoil, measuredBoilTime: 60,
    measuredPostBoilGravity: postBoil, measuredKettleSize: kettle, measuredOg: og, measuredBatchSize: batchSize,
  };
}

function tasteLog(timestamp: number, status: string, tasteNotes: string, scores: [number, number, number, number, number]): Obj {
  const [tasteRating, bitterness, sweetness, alcohol, tropical] = scores;
  return { timestamp, status, tasteNotes, tasteRating, bitterness, sweetness, alcohol, tropical };
}

export function buildBatches(now: number, recipes: DemoRecipes, random: Random): Obj[] {
  const ago = (days: number) => now - Math.round(days * DAY);

  const archived: BatchPlan = {
    _id: BATCH_IDS.archived, batchNo: 1, status: "Archived", recipe: recipes.paleAle,
    brewDate: ago(220), fermentationStartDate: ago(219.75), bottlingDate: ago(203),
    measured: {
      ...brewDay(5.38, 26.5, 1.046, 1.052, 23.2, 1.052, 20.5),
      measuredFg: 1.011, measuredBottlingSize: 19.5, measuredBottlingTemp: 20,
      carbonationType: "Sugar", carbonationTemp: 20, primingSugarEquiv: 6.2,
    },
    changes: [
      ["Brewing", ago(220), ""], ["Fermenting", ago(219.75), ""],
      ["Conditioning", ago(203), "Bottled 19.5 L with 120 g dextrose"], ["Completed", ago(189), ""],
      ["Archived", ago(120), "Last bottle gone; next time a little more Cascade late"],
    ],
    extra: {
      tasteRating: 4, tasteNotes: "Grapefruit and pine over a light caramel body.",
      tasteLogs: [tasteLog(ago(188), "Completed", "Clear, bright, citrus aroma; bitterness a touch low.", [4, 3, 2, 2, 3])],
    },
  };

  const completed: BatchPlan = {
    _id: BATCH_IDS.completed, batchNo: 2, status: "Completed", recipe: recipes.stout,
    brewDate: ago(95), fermentationStartDate: ago(94.75), bottlingDate: ago(80),
    measured: {
      ...brewDay(5.32, 27.1, 1.036, 1.043, 23.6, 1.043, 21),
      measuredFg: 1.011, measuredBottlingSize: 19.8, measuredBottlingTemp: 18,
      carbonationType: "Keg (Force)", carbonationTemp: 4, carbonationForce: 10.5,
    },
    changes: [
      ["Brewing", ago(95), ""], ["Fermenting", ago(94.75), "Pitched S-04 at 18 °C"],
      ["Conditioning", ago(80), "Kegged and set to 10.5 psi"], ["Completed", ago(66), ""],
    ],
    extra: {
      tasteRating: 4, tasteNotes: "Dry roast, coffee, creamy head; a proper pint.",
      batchNotes: "Mash pH came in at 5.32 without acid.",
      tasteLogs: [
        tasteLog(ago(70), "Conditioning", "Still a little green, roast a bit harsh.", [3, 3, 2, 2, 1]),
        tasteLog(ago(60), "Completed", "Smooth now; dry finish, coffee and dark chocolate.", [4, 3, 2, 2, 1]),
      ],
      readings: buildReadings({
        seed: 202, start: ago(94.75), og: 1.043, fg: 1.011, halfwayHours: 48, spreadHours: 12,
        baseTemp: () => 18.5, tempRange: [18, 20],
        manual: [
          { afterHours: 0.5, comment: "OG by hydrometer after pitching", withGravity: true },
          { afterHours: 48, comment: "Vigorous krausen, blow-off tube fitted", withGravity: false },
          { afterHours: 240, comment: "Final gravity, stable for three days", withGravity: true },
        ],
      }),
    },
  };

  const conditioning: BatchPlan = {
    _id: BATCH_IDS.conditioning, batchNo: 3, status: "Conditioning", recipe: recipes.pilsner,
    brewDate: ago(40), fermentationStartDate: ago(39.8), bottlingDate: ago(12),
    measured: {
      ...brewDay(5.42, 29.4, 1.04, 1.048, 25.8, 1.048, 23),
      measuredFg: 1.009, measuredBottlingSize: 21.5, measuredBottlingTemp: 2,
      carbonationType: "Keg (Force)", carbonationTemp: 1, carbonationForce: 12,
    },
    changes: [
      ["Brewing", ago(40), ""], ["Fermenting", ago(39.8), "Pitched 2 packs of W-34/70 at 9 °C"],
      ["Conditioning", ago(12), "Kegged; lagering in the keg at 1 °C"],
    ],
    extra: {
      readings: buildReadings({
        seed: 303, start: ago(39.8), og: 1.048, fg: 1.009, halfwayHours: 130, spreadHours: 30,
        // Primary at 10 °C, then the diacetyl rest ramps to 16 °C over two days.
        baseTemp: (h) => (h < 240 ? 10 : Math.min(16, 10 + ((h - 240) / 48) * 6)), tempRange: [9.5, 16.5],
        device: { type: "iSpindel", id: "DEMOSPINDEL02", everyHours: 12, days: 14 },
        manual: [
          { afterHours: 1, comment: "OG by refractometer", withGravity: true },
          { afterHours: 240, comment: "Start of diacetyl rest", withGravity: true },
        ],
      }),
    },
  };

  // Brew day: tracker from 30 minutes in, yeast pitched five hours in.
  const fermentBrewDate = ago(14.5);
  const fermentStart = fermentBrewDate + 5 * HOUR;
  const fermenting: BatchPlan = {
    _id: BATCH_IDS.fermenting, batchNo: 4, status: "Fermenting", recipe: recipes.paleAle,
    brewDate: fermentBrewDate, fermentationStartDate: fermentStart, bottlingDate: fermentStart + 16 * DAY,
    measured: brewDay(5.35, 27.2, 1.047, 1.055, 23.4, 1.055, 21.5),
    changes: [["Brewing", fermentBrewDate, ""], ["Fermenting", fermentStart, "Pitched one pack of US-05 at 18 °C"]],
    extra: {
      readings: buildReadings({
        seed: 404, start: fermentStart, og: 1.055, fg: 1.0105, halfwayHours: 70, spreadHours: 18,
        // 18 °C for four days, then a free rise to 19.8 °C over one day.
        baseTemp: (h) => (h < 96 ? 18.2 : Math.min(19.8, 18.2 + ((h - 96) / 24) * 1.6)), tempRange: [18, 20],
        device: { type: "iSpindel", id: "DEMOSPINDEL01", everyHours: 4, days: 14 },
        manual: [
          { afterHours: 0.5, comment: "OG by hydrometer after pitching", withGravity: true },
          { afterHours: 30, comment: "Krausen forming, airlock bubbling", withGravity: false },
          { afterHours: 168, comment: "Hydrometer sample; dry hopped 50 g Centennial", withGravity: true },
          { afterHours: 312, comment: "Stable for two days, tastes clean", withGravity: true },
        ],
      }),
      brewTracker: buildTracker(TRACKER_IDS.fermenting, 4, recipes.paleAle,
        { kind: "completed", startTime: fermentBrewDate + 30 * MINUTE }, revision(random)),
    },
  };

  const brewDate = now - HOUR;
  const brewing: BatchPlan = {
    _id: BATCH_IDS.brewing, batchNo: 5, status: "Brewing", recipe: recipes.stout, brewDate,
    measured: { measuredMashPh: 5.31 },
    changes: [["Brewing", brewDate, ""]],
    extra: {
      brewTracker: buildTracker(TRACKER_IDS.brewing, 5, recipes.stout,
        { kind: "running", startTime: now - 55 * MINUTE, stageStart: now - 40 * MINUTE, savedAt: now - 5 * MINUTE },
        revision(random)),
    },
  };

  const planning: BatchPlan = {
    _id: BATCH_IDS.planning, batchNo: 6, status: "Planning", recipe: recipes.pilsner,
    brewDate: now + 6 * DAY, measured: {}, changes: [], extra: {},
  };

  return [archived, completed, conditioning, fermenting, brewing, planning].map((plan) => buildBatch(plan, now, random));
}
