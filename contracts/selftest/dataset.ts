// Import documents for the self-test accounts: enough records for paging (more than one page of
// 10), every batch status, readings out of time order, trackers, and stock above, at and below zero.
// Written for this kit; shapes follow the API document's objects.

type Doc = Record<string, unknown>;

const STATUSES = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"];
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

function recipeDoc(prefix: string, i: number): Doc {
  return {
    _id: `${prefix}-recipe-${String(i).padStart(2, "0")}`,
    name: ["Pale Ale", "Stout", "Pilsner", "Saison"][i % 4] + ` ${i}`,
    author: ["Ann", "Bo", "Cy"][i % 3],
    type: ["All Grain", "Extract", "Partial Mash"][i % 3],
    batchSize: 20 + i,
    boilTime: 60,
    efficiency: 72,
    equipment: { name: `Kettle ${i % 2}` },
    style: { name: ["American Pale Ale", "Irish Stout"][i % 2] },
    fermentation: { name: "Ale", steps: [{ name: "Primary", type: "Primary", stepTemp: 19, stepTime: 14 }] },
    mash: { name: "Single", steps: [{ name: "Mash", type: "Temperature", stepTemp: 66, stepTime: 60 }] },
    notes: "",
  };
}

function reading(time: number, sg: number, temp: number): Doc {
  return { time, sg, temp, comment: null, type: "manual" };
}

function batchDoc(prefix: string, i: number): Doc & { readings?: Doc[]; brewTracker?: Doc } {
  const doc: Doc & { readings?: Doc[]; brewTracker?: Doc } = {
    _id: `${prefix}-batch-${String(i).padStart(2, "0")}`,
    // Repeated names make order_by=name ties that paging must still walk exactly once.
    name: `Batch ${["A", "B", "C", "A", "D"][i % 5]}`,
    batchNo: i + 1,
    status: STATUSES[i % STATUSES.length],
    brewer: i % 2 ? "Ann" : "Bo",
    brewDate: T0 + i * 7 * DAY,
    hidden: false,
    recipe: recipeDoc(prefix, i),
    measuredOg: 1.05,
    measuredFg: 1.01,
    measuredMashPh: 5.4,
    measuredBatchSize: 20,
    carbonationTemp: 4,
    notes: [{ hidden: false, timestamp: T0, status: "Planning", note: "planned", type: "statusChanged" }],
  };
  if (i % 3 === 0) {
    const t = T0 + i * 7 * DAY;
    doc.readings = [reading(t + 3 * DAY, 1.02, 19), reading(t + DAY, 1.045, 18.5), reading(t + 2 * DAY, 1.03, 19.2)];
  }
  if (i % 4 === 0) {
    doc.brewTracker = { _id: `${prefix}-tracker-${i}`, enabled: true, completed: false, stage: 0, stages: [] };
  }
  return doc;
}

function stock(prefix: string, kind: string, values: number[], extra: Doc): Doc[] {
  return values.map((inventory, i) => ({
    _id: `${prefix}-${kind}-${String(i).padStart(2, "0")}`,
    // Names run against the ids, so ordering by name differs from the default order.
    name: `${kind} ${String(99 - i).padStart(2, "0")}`,
    inventory,
    notes: "",
    ...extra,
  }));
}

/**
 * An account's data: `size` batches and recipes, stock in every collection with ties on the stock
 * amount, and `miscs` misc items (more than 50 shows the list maximum).
 */
export function importDocument(prefix: string, size: number, miscs = 4): Doc {
  return {
    batches: Array.from({ length: size }, (_, i) => batchDoc(prefix, i)),
    recipes: Array.from({ length: size }, (_, i) => recipeDoc(prefix, i)),
    fermentables: stock(prefix, "fermentable", [2, 0, -1.5, 5.5, 12, 2], { type: "Grain", color: 3, potential: 1.037, supplier: "Mill", attenuation: 0.8 }),
    hops: stock(prefix, "hop", [100, -20, 0, 35, 35], { alpha: 5.5, type: "Pellet", use: "Boil" }),
    miscs: stock(prefix, "misc", Array.from({ length: miscs }, (_, i) => [10, -1, 3, 3][i % 4]!), { type: "Other", use: "Boil", unit: "g" }),
    yeasts: stock(prefix, "yeast", [1, 0, 2, 1], { type: "Ale", form: "Dry", unit: "pkg" }),
  };
}
