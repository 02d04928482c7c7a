// Records for the version 1 tests, shaped as the API document's objects. Ids are imported out of
// order and names run against the ids, so `_id` order is visible in every answer.
import { BATCH_STATUSES } from "../../src/resources.ts";
import { basic, testApp, type Account, type CallResult } from "../helpers/app.ts";

export type Doc = Record<string, unknown>;
export const STATUSES = BATCH_STATUSES;
export const T0 = 1_700_000_000_000;
const DAY = 86_400_000;
const pad = (i: number) => String(i).padStart(2, "0");

/** 14 Planning batches p-00 … p-13 (more than one default page), imported in reverse order. */
export const PLANNING: Doc[] = Array.from({ length: 14 }, (_, i) => ({
  _id: `p-${pad(i)}`,
  name: `Planned ${String.fromCharCode(90 - i)}`,
  batchNo: 100 - i,
  status: "Planning",
  brewDate: T0 + (14 - i) * DAY,
  brewer: "Ann",
  recipe: { name: `Recipe ${i}`, og: 1.05 },
})).reverse();

/** One batch of each other status, with measured values to show what a v1 PATCH leaves alone. */
export const OTHERS: Doc[] = STATUSES.filter((s) => s !== "Planning").map((status, i) => ({
  _id: `s-${status.toLowerCase()}`,
  name: `${status} batch`,
  batchNo: 200 + i,
  status,
  brewDate: T0 - i * DAY,
  measuredOg: 1.048,
  measuredFg: 1.012,
  measuredBatchSize: 20,
  recipe: { name: "House Ale", fermentation: { name: "Ale", steps: [{ type: "Primary", stepTemp: 19, stepTime: 10 }] } },
}));

export const READINGS: Doc[] = [
  { time: T0 + 3 * DAY, sg: 1.02, temp: 19.5, type: "manual", comment: "" },
  { time: T0 + DAY, sg: 1.048, temp: 20, type: "iSpindel", angle: 60.5, battery: 4.1, id: "isp-1", comment: null },
];

export const TRACKER: Doc = {
  _id: "s-fermenting",
  name: "Brew day",
  enabled: true,
  completed: false,
  stage: 0,
  stages: [{ name: "Mash", type: "tracker", duration: 3600, position: 3600, paused: false, step: 0, steps: [] }],
};

/** 12 recipes r-00 … r-11 whose names sort the other way round. */
export const RECIPES: Doc[] = Array.from({ length: 12 }, (_, i) => ({
  _id: `r-${pad(i)}`,
  name: `${String.fromCharCode(90 - i)} Ale`,
  author: "Ann",
  type: "All Grain",
  batchSize: 21,
  efficiency: 72,
  style: { name: "Pale Ale", category: "Pale" },
  mash: { name: "Single", steps: [{ name: "Mash in", type: "Temperature", stepTemp: 66, stepTime: 60 }] },
})).reverse();

/** Fermentables with negative, zero and positive stock (stock order is not `_id` order); f-e has none. */
export const FERMENTABLES: Doc[] = [
  { _id: "f-d", name: "Vienna", type: "Grain", supplier: "Weyermann", inventory: 0, color: 4 },
  { _id: "f-a", name: "Pilsner", type: "Grain", supplier: "Weyermann", inventory: -2, color: 2, notes: "owed" },
  { _id: "f-e", name: "Munich", type: "Grain", color: 9 },
  { _id: "f-c", name: "Crystal 60", type: "Grain", supplier: "Simpsons", inventory: -0.5, color: 60 },
  { _id: "f-b", name: "Maris Otter", type: "Grain", supplier: "Crisp", inventory: 5, color: 3 },
  { _id: "f-f", name: "Wheat", type: "Grain", supplier: "Weyermann", inventory: -7, color: 2 },
];
export const HOPS: Doc[] = [
  { _id: "h-b", name: "Saaz", type: "Pellet", use: "Boil", alpha: 3.5, inventory: 100 },
  { _id: "h-a", name: "Citra", type: "Pellet", use: "Dry Hop", alpha: 12.5, inventory: -10 },
];
export const MISCS: Doc[] = [{ _id: "m-a", name: "Gypsum", type: "Water Agent", use: "Mash", inventory: 12 }];
export const YEASTS: Doc[] = [{ _id: "y-a", name: "US-05", type: "Ale", form: "Dry", attenuation: 78, inventory: 2 }];

export function importDocument(): Doc {
  return {
    batches: [
      ...PLANNING,
      ...OTHERS.map((b) => (b._id === "s-fermenting" ? { ...b, readings: READINGS, brewTracker: TRACKER } : b._id === "s-brewing" ? { ...b, readings: [] } : b)),
    ],
    recipes: RECIPES,
    fermentables: FERMENTABLES,
    hops: HOPS,
    miscs: MISCS,
    yeasts: YEASTS,
  };
}

/** A document cut to the given dot paths, keys sorted at every level: written here, apart from src/. */
export function pick(doc: Doc, paths: readonly string[]): Doc {
  const out: Doc = {};
  for (const path of paths) {
    const [head, ...rest] = path.split(".");
    if (!(head in doc)) continue;
    if (rest.length === 0) out[head] = doc[head];
    else if (doc[head] && typeof doc[head] === "object") {
      const inner = pick(doc[head] as Doc, [rest.join(".")]);
      if (Object.keys(inner).length) out[head] = { ...(out[head] as Doc), ...inner };
    }
  }
  return sortKeys(out) as Doc;
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Doc)[k])]));
}

export const byId = (a: Doc, b: Doc) => ((a._id as string) < (b._id as string) ? -1 : 1);
export const BATCH_FIELDS = ["_id", "name", "batchNo", "status", "brewer", "brewDate", "recipe.name"];
export const RECIPE_FIELDS = ["_id", "name", "author", "type", "equipment.name", "style.name"];
export const ITEM_FIELDS = ["_id", "name", "inventory", "alpha", "supplier", "type", "attenuation", "use"];

/**
 * One app, two accounts with the same records: `v1` holds a version 1 key and `v2` a version 2 key,
 * so any read can be asked of both versions and the answers compared.
 */
export async function twins(data: unknown = importDocument()) {
  const h = await testApp();
  const v1 = await h.account("old", undefined, 1);
  const v2 = await h.account("new");
  await h.load("old", data);
  await h.load("new", data);
  async function call(method: string, path: string, who: Account | null, opts: Parameters<typeof h.call>[3] = {}): Promise<CallResult> {
    const res = await h.call(method, path, who, opts);
    if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res;
  }
  /** The record as stored for the v1 account, read through v2 eyes (a whole document). */
  async function stored(kind: string, id: string): Promise<unknown> {
    const text = await h.store.get("old", kind as never, id);
    return text === undefined ? undefined : JSON.parse(text);
  }
  return { ...h, v1, v2, call, stored };
}

export { basic };
