// Batches shaped as the hosted service returns them (field names and types of the API document's
// Batch, Reading and Brew Tracker Objects). Keys are written out of alphabetical order on purpose:
// the server must answer them sorted.
export type Doc = Record<string, unknown>;

export const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

export function recipe(name: string): Doc {
  return {
    name,
    _id: `r-${name.toLowerCase().replace(/\W+/g, "-")}`,
    type: "All Grain",
    fermentation: { steps: [{ type: "Primary", stepTemp: 19, stepTime: 14, name: "Primary" }], name: "Ale 19C" },
    mash: { name: "Single infusion", steps: [{ stepTime: 60, stepTemp: 66, type: "Temperature", name: "Mash in" }] },
    style: { name: "American Pale Ale", category: "Pale American Ale" },
    og: 1.052,
    batchSize: 21,
    efficiency: 72,
  };
}

/** A Planning batch with every default field, measured values, a tracker and readings out of order. */
export const PALE: Doc = {
  status: "Planning",
  name: "Pale Ale #1",
  _id: "b-pale",
  batchNo: 12,
  brewer: "Ann",
  brewDate: T0,
  recipe: recipe("House Pale"),
  measuredOg: 1.05,
  measuredFg: null,
  measuredBatchSize: 20.5,
  measuredMashPh: 5.4,
  carbonationTemp: 4,
  hidden: false,
  notes: [{ timestamp: T0 + DAY, type: "statusChanged", status: "Brewing", note: "", hidden: false }],
  cost: { total: 31.5, hops: 6, fermentables: 20, miscs: 1.5, yeasts: 4 },
};

export const PALE_READINGS: Doc[] = [
  { type: "manual", time: T0 + 3 * DAY, temp: 19.5, sg: 1.02, comment: "", id: "manual" },
  { time: T0 + 5 * DAY, sg: 1.012, temp: 19, type: "manual", comment: "third", id: "manual" },
  { temp: 20, type: "iSpindel", time: T0 + DAY, sg: 1.049, angle: 61.2, battery: 4.1, rssi: -70, id: "isp-1", comment: null },
];

export const PALE_TRACKER: Doc = {
  _id: "b-pale",
  stage: 0,
  enabled: true,
  completed: false,
  name: "Brew day",
  stages: [{ type: "tracker", position: 3600, name: "Mash", start: T0, duration: 3600, step: 0, paused: false, steps: [] }],
};

/** A Fermenting batch whose brewer is null (kept in lists) and that has an empty readings list. */
export const STOUT: Doc = {
  _id: "b-stout",
  name: "Dry Stout",
  batchNo: 13,
  status: "Fermenting",
  brewer: null,
  brewDate: T0 + 7 * DAY,
  recipe: recipe("Dry Stout"),
  measuredOg: 1.042,
};

/** A Completed batch without batchNo, brewer or recipe (missing default fields are omitted). */
export const BARE: Doc = { _id: "b-bare", name: "Bare", status: "Completed", brewDate: T0 - DAY };

/** The owner's import: PALE with readings and tracker, STOUT with `readings: []`, BARE with neither. */
export function ownerImport(): Doc {
  return {
    batches: [
      { ...PALE, readings: PALE_READINGS, brewTracker: PALE_TRACKER },
      { ...STOUT, readings: [] },
      { ...BARE },
    ],
  };
}

/** `count` plain batches with zero-padded ids, for page-size tests. */
export function manyBatches(count: number, status = "Planning"): Doc {
  return {
    batches: Array.from({ length: count }, (_, i) => ({
      _id: `m-${String(i).padStart(3, "0")}`,
      name: `Batch ${i}`,
      batchNo: i,
      status,
      brewDate: T0 + i * DAY,
    })),
  };
}
