// Small valid objects written for these tests from the facts real objects of the service show
// (field names, shapes, typical values), plus a helper to change one field at a dot path.

export const fermentable = () => ({
  _id: "default-0aa30343c0c",
  name: "Pale Ale Malt",
  type: "Grain",
  grainCategory: "Base",
  amount: 4.2,
  percentage: 84,
  color: 3.2,
  lovibond: 2.9,
  use: "Mash",
  origin: "United Kingdom",
  supplier: "Crisp",
  potential: 1.037,
  moisture: 4.5,
  protein: 10.5,
  // A fraction, as real fermentables carry it.
  attenuation: 0.81,
  diastaticPower: 50,
  notFermentable: false,
  inventory: 12.5,
  costPerAmount: null,
  notes: "",
  hidden: false,
});

export const hop = () => ({
  _id: "default-8e9450d5",
  name: "Citra",
  type: "Pellet",
  alpha: 12,
  amount: 20,
  use: "Boil",
  usage: "Both",
  time: 10,
  timeUnit: null,
  ibu: 9.4,
  beta: 4,
  hsi: 25,
  temp: null,
  origin: "US",
  year: 2023,
  oil: 2.5,
  myrcene: 60, humulene: 12, caryophyllene: 7, farnesene: 0.5, geraniol: 0.8, linalool: 0.6,
  aroma: { floral: 10, grassy: 5, herbal: 5, earthy: 0, woody: 0, onion: 0, citrus: 80, fruity: 90 },
  inventory: 70,
  costPerAmount: 0.1,
  notes: null,
  hidden: false,
});

export const misc = () => ({
  _id: "default-1b2c3d",
  name: "Gypsum (Calcium Sulfate)",
  type: "Water Agent",
  use: "Mash",
  time: null,
  timeUnit: "min",
  amount: 3.5,
  unit: "g",
  amountPerL: null,
  concentration: null,
  waterAdjustment: true,
  inventory: 100,
  notes: "",
  hidden: false,
});

export const yeast = () => ({
  _id: "default-51d6d6",
  name: "Diamond Lager",
  type: "Lager",
  form: "Dry",
  laboratory: "Lallemand (LalBrew)",
  productId: "",
  flocculation: "High",
  amount: 2,
  unit: "pkg",
  attenuation: 80,
  minAttenuation: null,
  maxAttenuation: null,
  minTemp: 10,
  maxTemp: 15,
  maxAbv: 13,
  starter: null,
  starterSize: null,
  inventory: 3,
  hidden: false,
});

const waterProfile = (type: "source" | "target") => ({
  _id: "default",
  name: "Soft water",
  type,
  calcium: 9.98, magnesium: ".860", sodium: 3.03, chloride: 7.2, sulfate: "14.58", bicarbonate: 11.42,
  ph: 7.1,
  ionBalanceOff: false,
});

const ingredientSetting = () => ({ mash: true, sparge: false, auto: false, form: "dihydrate", concentration: 100 });

export const recipe = () => ({
  name: "Danish Christmas Ale",
  author: "A. Brewer",
  type: "All Grain",
  batchSize: 20.8,
  boilSize: 26.5,
  boilTime: 60,
  efficiency: 77.5,
  mashEfficiency: 80.9,
  og: 1.056,
  fg: 1.011,
  color: 17.7,
  ibu: 14.7,
  ibuFormula: "tinseth",
  carbonation: 2.25,
  // Real recipes carry `tags: null` and `firstWortGravity: null`.
  tags: null,
  firstWortGravity: null,
  path: "/",
  style: { _id: "bjcp-2015-9a", name: "Doppelbock", categoryNumber: 9, styleLetter: "A", type: "Lager", ogMin: 1.072, ogMax: 1.112 },
  equipment: { name: "Kettle 30 L", batchSize: 20.8, efficiency: 77.5, grainTemperature: "20", mashTunDeadSpace: null },
  mash: { name: "Single infusion", steps: [{ name: "Saccharification", type: "Temperature", stepTemp: 65, stepTime: 60, displayStepTemp: "65" }] },
  fermentation: {
    name: "Lager",
    steps: [{ name: "Primary", type: "Primary", stepTemp: 10, stepTime: 14, ramp: null, pressure: null, displayPressure: null }],
  },
  water: {
    source: waterProfile("source"),
    target: waterProfile("target"),
    dilutionPercentage: null,
    mashPh: 5.4,
    mashPhDistilled: 5.6,
    spargeWaterPh: 7,
    spargeWaterTargetPh: 6,
    mashAdjustments: { volume: 18, acids: [{ type: "lactic", concentration: 80, amount: 1.5, alkalinityMeqL: null }], calciumSulfate: 3 },
    settings: { adjustSparge: false, calciumSulfate: ingredientSetting() },
  },
  data: { mashWaterAmount: 15.3, strikeTemp: null, mashFermentables: [fermentable()], allDiastaticPower: false },
  nutrition: { calories: { total: 52.9, alcohol: 33.9, carbs: 19, kJ: 221.3 }, carbs: { total: 4.8 } },
  fermentables: [fermentable()],
  hops: [hop()],
  miscs: [misc()],
  yeasts: [yeast()],
});

const tracking = () => ({ removedFromInventory: true, removedAmount: 1, removedUnit: "pkg", inventoryUnit: "pkg", checked: true, notInRecipe: false });

export const batch = () => ({
  _id: "batch-1",
  name: "Batch",
  batchNo: 12,
  status: "Fermenting",
  brewer: null,
  brewDate: 1689162288098,
  recipe: { name: "Danish Christmas Ale", og: 1.056 },
  measuredMashPh: 5.3,
  measuredOg: 1.055,
  tasteRating: null,
  batchYeasts: [{ ...yeast(), ...tracking() }],
  batchFermentables: [{ ...fermentable(), ...tracking(), checked: 1 }],
  notes: [{ timestamp: 1689162288098, status: "Fermenting", note: "", type: "statusChanged" }],
  tasteLogs: [{ timestamp: 1689162288098, status: "Completed", tasteNotes: "", tasteRating: 4, bitterness: 3, sweetness: 2, alcohol: 3, tropical: 1 }],
  measurements: [{ timestamp: 1689162288098, status: "Brewing", text: "", value: 1.05, type: "Gravity", spesificMeasurement: "OriginalGravity" }],
  events: [{ active: true, time: 1689162288098, eventType: "event-batch-dry-hop", title: "Dry hop", eventText: null, dayEvent: true }],
  cost: { fermentables: 10, hops: 4.5, total: 14.5 },
});

export const reading = () => ({ time: 1689162288098, sg: 1.012, temp: 19.5, comment: "", type: "iSpindel", angle: 30.2, battery: 4.1, rssi: -70, id: "ISPINDEL000", ph: null });

export const brewTracker = () => ({
  _id: "b1",
  name: "Batch #1",
  enabled: true,
  completed: false,
  stage: 0,
  startTime: 1790701718474,
  stages: [{
    name: "Mash", type: "tracker", start: 1790701787583, duration: 3600, position: 3599, step: 3, paused: false,
    steps: [{ type: "mash", name: "Start", description: "Start Mash Tracker", pauseBefore: false, time: 3600, duration: 0, priority: 10, value: 65, endTime: null }],
  }],
});

/** Sets `value` at a dot path ("fermentables.0.amount"), creating missing objects on the way. */
export function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let node: Record<string, unknown> = doc;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === undefined || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}
