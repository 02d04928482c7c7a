// An account's records for the page tests, written for these tests: a fermenting batch with a week
// of hydrometer readings plus manual temperature checks, a planned batch without readings, a
// completed one whose name would be markup if the pages forgot to escape it, two recipes and stock
// in the four inventory collections.

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
    recipes: recipes(),
    ...INVENTORY,
  };
}

// Recipes and inventory for the recipe and inventory pages, shaped as the API returns them.
export const RECIPE_ID = "web-recipe-0001";
export const PLAIN_RECIPE_ID = "web-recipe-0002";

export function recipes() {
  return [
    {
      _id: RECIPE_ID,
      name: "Test Pale Ale",
      type: "All Grain",
      author: "Test Brewer",
      batchSize: 20,
      boilTime: 60,
      efficiency: 72,
      equipment: { name: "Test 20 L kettle", batchSize: 20, boilTime: 60, efficiency: 72, trubChillerLoss: 1, evaporationRate: 10 },
      style: { name: "American Pale Ale", ogMin: 1.045, ogMax: 1.06, fgMin: 1.01, fgMax: 1.015, ibuMin: 30, ibuMax: 50, colorMin: 5, colorMax: 10, abvMin: 4.5, abvMax: 6.2 },
      fermentables: [
        { name: "Pale Ale Malt", type: "Grain", supplier: "Test Maltings", amount: 4.2, color: 3.5, potential: 1.037 },
        { name: "Crystal 60", type: "Grain", supplier: "Test Maltings", amount: 0.3, color: 60, potential: 1.034 },
      ],
      hops: [
        { name: "Cascade", type: "Pellet", alpha: 5.5, use: "Boil", time: 60, amount: 25 },
        { name: "Cascade", type: "Pellet", alpha: 5.5, use: "Aroma", time: 10, amount: 30 },
      ],
      miscs: [{ name: "Gypsum", type: "Water Agent", use: "Mash", amount: 3, unit: "g" }],
      yeasts: [{ name: "US-05", laboratory: "Fermentis", productId: "US-05", type: "Ale", form: "Dry", attenuation: 81, amount: 1, unit: "pkg" }],
      mash: { name: "Single infusion", steps: [{ name: "Saccharification", type: "Temperature", stepTemp: 67, stepTime: 60 }] },
      fermentation: { name: "Ale", steps: [{ type: "Primary", stepTemp: 19, stepTime: 10 }] },
    },
    { _id: PLAIN_RECIPE_ID, name: "Plain Stout", type: "All Grain", fermentables: [{ name: "Roasted Barley", type: "Grain", amount: 0.5, color: 300, potential: 1.025 }] },
  ];
}

/** Stock in each collection: plenty, running low, none and below zero. */
export const INVENTORY = {
  fermentables: [
    { _id: "web-f-pale", name: "Pale Ale Malt", type: "Grain", supplier: "Test Maltings", inventory: 12.5 },
    { _id: "web-f-crystal", name: "Crystal 60", type: "Grain", inventory: 0.4 },
    { _id: "web-f-chocolate", name: "Chocolate Malt", type: "Grain", inventory: -0.2 },
    { _id: "web-f-wheat", name: "Wheat Malt", type: "Grain", inventory: 0 },
  ],
  hops: [
    { _id: "web-h-cascade", name: "Cascade", type: "Pellet", alpha: 5.5, inventory: 150 },
    { _id: "web-h-citra", name: "Citra", type: "Pellet", alpha: 12, inventory: 20 },
    { _id: "web-h-magnum", name: "Magnum", type: "Pellet", alpha: 13, inventory: -5 },
  ],
  miscs: [{ _id: "web-m-gypsum", name: "Gypsum", type: "Water Agent", unit: "g", inventory: 100 }],
  yeasts: [
    { _id: "web-y-us05", name: "US-05", type: "Ale", unit: "pkg", laboratory: "Fermentis", inventory: 2 },
    { _id: "web-y-kveik", name: "Voss Kveik", type: "Ale", unit: "pkg", inventory: 0.5 },
  ],
};
