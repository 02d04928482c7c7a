// Recipes shaped as the hosted service and its app's exports carry them (field names and types of the
// API document's Recipe Object, plus the extra fields real exports hold), and the field groups the
// recipe rules treat differently. Written from the document, not from src/, so the tests can catch a
// server that forgets one.
import type { Doc } from "./harness.ts";

/** API document, Recipe Object: "Server-managed recipe fields": every root `_` field, plus these. */
export const NAMED_SERVER_MANAGED = ["createdAt", "updatedAt", "data"] as const;
export const isServerManaged = (key: string) => key.startsWith("_") || (NAMED_SERVER_MANAGED as readonly string[]).includes(key);

/** Figures a client may set; the service fills in the ones it omits. */
export const CLIENT_OR_CALCULATED = ["og", "fg", "ibu", "color", "abv"] as const;

/** Figures the service always calculates, whatever a client sends (Recipe Object; calculations). */
export const ALWAYS_CALCULATED = [
  "fermentablesTotalAmount", "hopsTotalAmount", "fgEstimated", "attenuation", "preBoilGravity", "postBoilGravity",
  "boilSize", "buGuRatio", "rbRatio", "diastaticPower", "nutrition",
] as const;

/** Every field of the Recipe Object table (API document). */
export const DOCUMENTED_FIELDS = [
  "_id", "name", "author", "type", "teaser", "img_url", "hidden", "style", "styleConformity", "batchSize", "boilSize",
  "boilTime", "efficiency", "mashEfficiency", "fermentables", "hops", "miscs", "yeasts", "fermentablesTotalAmount",
  "hopsTotalAmount", "og", "fg", "fgEstimated", "attenuation", "preBoilGravity", "postBoilGravity", "firstWortGravity",
  "color", "ibu", "ibuFormula", "buGuRatio", "rbRatio", "abv", "carbonation", "carbonationTemp", "primingSugarEquiv",
  "equipment", "mash", "fermentation", "water", "data", "notes", "tags", "nutrition", "path", "diastaticPower",
] as const;

const omit = (doc: Doc, drop: (key: string) => boolean): Doc => Object.fromEntries(Object.entries(doc).filter(([k]) => !drop(k)));

/**
 * What a client owns of a stored recipe: no server-managed field, no always-calculated figure, no
 * calculated item field (a fermentable's `percentage`, a hop's `ibu`), and of og/fg/ibu/color/abv
 * only those named in `clientSet`.
 */
export function clientPart(doc: Doc, clientSet: readonly string[]): Doc {
  const calculated = new Set<string>([...ALWAYS_CALCULATED, ...CLIENT_OR_CALCULATED.filter((f) => !clientSet.includes(f))]);
  const out = omit(doc, (k) => isServerManaged(k) || calculated.has(k));
  if (Array.isArray(out.fermentables)) out.fermentables = out.fermentables.map((f: Doc) => omit(f, (k) => k === "percentage"));
  if (Array.isArray(out.hops)) out.hops = out.hops.map((h: Doc) => omit(h, (k) => k === "ibu"));
  return out;
}

/** The value as a JSON client would see it after a round trip (one zero, no undefined members). */
export const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** A full all-grain recipe in metric units: every kind of ingredient, profiles, water and extra fields. */
export function paleAle(): Doc {
  return {
    name: "Harbour Pale Ale",
    author: "Ann Brewer",
    type: "All Grain",
    teaser: "Dry and bright",
    hidden: false,
    path: "/",
    notes: "Mash thin.",
    tags: [{ display: "House", value: "house" }],
    style: { name: "American Pale Ale", category: "Pale American Ale", categoryNumber: "18", styleLetter: "B", styleGuide: "BJCP 2021", type: "Ale", ogMin: 1.045, ogMax: 1.06, ibuMin: 30, ibuMax: 50, colorMin: 5 },
    styleConformity: true,
    batchSize: 21,
    boilTime: 60,
    efficiency: 75,
    mashEfficiency: 82,
    ibuFormula: "tinseth",
    carbonation: 2.4,
    carbonationTemp: 4,
    primingSugarEquiv: 120,
    equipment: { name: "Kettle 30 L", batchSize: 21, boilTime: 60, boilOffPerHr: 3, trubChillerLoss: 1, mashTunDeadSpace: 0.5, grainAbsorptionRate: 0.96, waterGrainRatio: 3, efficiency: 75, calcStrikeWaterTemperature: true, grainTemperature: "20", hidden: false },
    fermentables: [
      { name: "Pale Ale Malt", type: "Grain", grainCategory: "Base", amount: 4.5, color: 3, potential: 1.037, supplier: "Crisp", origin: "UK", use: "", attenuation: 0.81, notes: null },
      { name: "Crystal 60", type: "Grain", grainCategory: "Crystal/Caramel", amount: 0.3, color: 60, potential: 1.034, supplier: null, use: "Mash" },
    ],
    hops: [
      { name: "Magnum", alpha: 12, amount: 20, use: "Boil", time: 60, timeUnit: "min", type: "Pellet", usage: "Bittering", origin: "DE", beta: 5.5, temp: null },
      { name: "Citra", alpha: 12.5, amount: 40, use: "Aroma", time: 15, type: "Pellet", usage: "", temp: 80, aroma: { citrus: 90, fruity: 80 } },
      { name: "Citra", alpha: 12.5, amount: 50, use: "Dry Hop", time: 4, timeUnit: "day", type: "Pellet" },
    ],
    yeasts: [{ name: "US-05", type: "Ale", form: "Dry", laboratory: "Fermentis", productId: "US-05", amount: 1, unit: "pkg", attenuation: 78, minAttenuation: 73, maxAttenuation: 82, flocculation: "Medium", maxAbv: 12, starter: false }],
    miscs: [{ name: "Gypsum", type: "Water Agent", use: "Mash", amount: 3, unit: "g", time: null, waterAdjustment: true, concentration: null }],
    mash: { name: "Single infusion", steps: [{ name: "Saccharification", type: "Temperature", stepTemp: 66, stepTime: 60, rampTime: null, displayStepTemp: "66" }] },
    fermentation: { name: "Ale", pressurized: false, steps: [{ name: "Primary", type: "Primary", stepTemp: 19, stepTime: 14, ramp: null, pressure: null, displayStepTemp: 19 }] },
    water: {
      source: { name: "Tap", type: "source", calcium: "45", magnesium: ".860", sodium: 12, chloride: 30, sulfate: 40, bicarbonate: 100, ph: 7.3 },
      mashPh: 5.4,
      spargeWaterPh: 7,
      spargeWaterTargetPh: 5.6,
      dilutionPercentage: 0,
      settings: { adjustSparge: false, calciumSulfate: { mash: true, sparge: false, auto: false, form: "powder", concentration: 100 } },
    },
    // Fields real exports carry beyond the document's table: a client that round-trips must lose none.
    ogPlato: 12.4,
    fgFormula: "normal",
    searchTags: ["pale", "citra"],
    defaults: { preferred: "metric", ibu: "tinseth", temp: "c" },
    carbonationStyle: { name: "American Pale Ale", carbMin: 2.3, carbMax: 2.8 },
    public: false,
  };
}

/** The smallest recipe the document allows: a name. */
export const BARE = { name: "Bare" } as const;

/** Recipes with fixed ids for the list tests, keys written out of alphabetical order on purpose. */
export function listImport(): { recipes: Doc[] } {
  const recipes: Doc[] = [];
  const names = ["Wit", "Stout", "Porter", "Kölsch", "Bitter", "Saison", "Helles", "IPA", "Dunkel", "Mild", "Bock", "Gose"];
  names.forEach((name, i) => {
    const n = String(i + 1).padStart(2, "0");
    recipes.push({
      type: i % 3 === 0 ? "Extract" : "All Grain",
      name,
      _id: `r-${n}`,
      author: i === 1 ? null : `Brewer ${n}`,
      batchSize: 10 + i,
      og: 1.04 + i / 1000,
      ...(i === 2 ? {} : { style: { name: `${name} style`, category: "Test", styleGuide: "BJCP 2021" } }),
      ...(i === 3 ? {} : { equipment: { name: `Kit ${n}`, batchSize: 10 + i, boilTime: 60 } }),
      fermentation: { name: "Ale", steps: [{ name: "Primary", type: "Primary", stepTemp: 19, stepTime: 10 + i }] },
      mash: { name: "Infusion", steps: [{ name: "Mash", type: "Temperature", stepTemp: 64 + (i % 4), stepTime: 60 }] },
      notes: `Notes ${n}`,
    });
  });
  return { recipes };
}
