// An account's batches for the page tests, written for these tests: a fermenting batch with a week
// of hydrometer readings plus manual temperature checks, a planned batch without readings, and a
// completed one whose name would be markup if the pages forgot to escape it.

const DAY = 86_400_000;
const BREW = Date.UTC(2024, 2, 2, 10, 0); // 2024-03-02 10:00 UTC

export const FERMENTING_ID = "web-fermenting-0001";
export const PLANNING_ID = "web-planning-0002";
export const COMPLETED_ID = "web-completed-0003";
export const MARKUP_NAME = `<script>window.__injected = 1</script> "Quoted" & 'Co'`;

export interface TestReading {
  time: number;
  sg: number | null;
  temp: number;
  comment: string;
  type: string;
  id: string;
}

/** A hydrometer every 6 hours for 7 days (29 readings), gravity falling from 1.052 towards 1.012. */
export function deviceReadings(): TestReading[] {
  const out: TestReading[] = [];
  for (let i = 0; i <= 28; i++) {
    const t = i * 6 * 3_600_000;
    const sg = 1.012 + 0.04 * Math.exp(-t / (2 * DAY));
    const temp = 18 + (i < 8 ? i * 0.25 : 2 - (i - 8) * 0.05);
    out.push({ time: BREW + DAY / 4 + t, sg: Number(sg.toFixed(3)), temp: Number(temp.toFixed(1)), comment: "", type: "iSpindel", id: "spindel-1" });
  }
  return out;
}

/** Manual checks carry a temperature and no gravity (`sg: null`), as real manual readings do. */
export function manualReadings(): TestReading[] {
  return [
    { time: BREW + 1.5 * DAY + 3_600_000, sg: null, temp: 19.5, comment: "lid check", type: "manual", id: "manual" },
    { time: BREW + 4.5 * DAY + 3_600_000, sg: null, temp: 19.0, comment: "", type: "manual", id: "manual" },
  ];
}

export const LAST_READING = deviceReadings().at(-1)!;

function batch(id: string, fields: Record<string, unknown>) {
  return {
    _id: id,
    brewer: "Test Brewer",
    hidden: false,
    recipe: { name: "Test Pale Ale" },
    ...fields,
  };
}

/** The import document (`brewrecords import`), shaped as the API returns these objects. */
export function importDocument() {
  return {
    batches: [
      {
        ...batch(FERMENTING_ID, {
          name: "Spring Pale Ale",
          batchNo: 12,
          status: "Fermenting",
          brewDate: BREW,
          fermentationStartDate: BREW + DAY / 4,
          measuredOg: 1.052,
          measuredBatchSize: 21.5,
          estimatedOg: 1.05,
          estimatedFg: 1.011,
          estimatedIbu: 34,
          estimatedColor: 6.2,
          batchNotes: "Pitched two packs.\nOxygenated 60 s.",
          notes: [{ timestamp: BREW + DAY / 4, status: "Fermenting", note: "", type: "statusChanged", hidden: false }],
        }),
        // Manual checks first: the store keeps readings in time order whatever order they arrive in.
        readings: [...manualReadings(), ...deviceReadings()],
      },
      batch(PLANNING_ID, { name: "Winter Stout", batchNo: 13, status: "Planning", brewDate: BREW + 60 * DAY }),
      batch(COMPLETED_ID, { name: MARKUP_NAME, batchNo: 11, status: "Completed", brewDate: BREW - 40 * DAY }),
    ],
  };
}
