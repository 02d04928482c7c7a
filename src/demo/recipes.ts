import { FERMENTABLES as F, HOPS as H, MISCS as M, YEASTS as Y } from "./catalog.ts";
import { RECIPE_IDS } from "./ids.ts";
import {
  boilHop, diastaticPower, dryHop, fermentable, hopStand, miscAddition, totalAmount, withPercentages, yeastPitch,
} from "./ingredients.ts";
import { DAY, recordMeta } from "./meta.ts";
import {
  ALE_FERMENTATION, equipment, LAGER_FERMENTATION, singleInfusionMash, STEP_MASH, STYLES, water,
} from "./profiles.ts";
import { round, type Random } from "./random.ts";

// Three recipes a brewer would recognise. Gravity, colour, bitterness and
// water figures follow the app's formulas: OG from potential x efficiency,
// Morey colour, Tinseth IBU, ABV = (OG - FG) x 131.25, mash water = grain x 2.8 L/kg
// + 0.5 L dead space; the demo test recomputes the ones that are plain arithmetic.

type Obj = Record<string, unknown>;

interface Design {
  _id: string; name: string; teaser: string; notes: string;
  createdDaysAgo: number; updatedDaysAgo: number;
  style: Obj; batchSize: number; boilSize: number; postBoil: number;
  fermentables: Obj[]; hops: Obj[]; miscs: Obj[]; yeasts: Obj[];
  og: number; fg: number; preBoilGravity: number; ogPlato: number;
  color: number; ibu: number; buGuRatio: number; rbRatio: number; abv: number;
  carbonation: number; carbonationTemp: number;
  mash: Obj; fermentation: Obj; water: Obj;
  mashWater: number; spargeWater: number; strikeTemp: number; mashVolume: number;
  nutrition: Obj; tags: Obj[];
}

function recipe(d: Design, now: number, random: Random): Obj {
  const fermentables = withPercentages(d.fermentables);
  const hopsAmount = totalAmount(d.hops);
  const mashFermentables = fermentables.filter((f) => f.use === "Mash");
  const hopStands = d.hops.filter((h) => h.use === "Aroma");
  const dryHops = d.hops.filter((h) => h.use === "Dry Hop");
  return {
    _id: d._id, name: d.name, author: "Demo Brewer", type: "All Grain", teaser: d.teaser, notes: d.notes,
    hidden: false, path: "/", tags: d.tags,
    style: d.style, styleConformity: true,
    batchSize: d.batchSize, boilSize: d.boilSize, boilTime: 60, efficiency: 72, mashEfficiency: 80,
    fermentables, hops: d.hops, miscs: d.miscs, yeasts: d.yeasts,
    fermentablesTotalAmount: totalAmount(fermentables), hopsTotalAmount: hopsAmount,
    og: d.og, fg: d.fg, fgEstimated: d.fg, fgFormula: "normal",
    // A fraction in real recipes, although the API document calls it a percent.
    attenuation: round((d.og - d.fg) / (d.og - 1), 3),
    preBoilGravity: d.preBoilGravity, postBoilGravity: d.og, firstWortGravity: null,
    totalGravity: d.og, ogPlato: d.ogPlato,
    color: d.color, ibu: d.ibu, ibuFormula: "tinseth", buGuRatio: d.buGuRatio, rbRatio: d.rbRatio, abv: d.abv,
    carbonation: d.carbonation, carbonationTemp: d.carbonationTemp,
    primaryTemp: (d.fermentation.steps as Obj[])[0].stepTemp,
    hopStandMinutes: hopStands.length > 0 ? Math.max(...hopStands.map((h) => h.time as number)) : 0,
    sumDryHopPerLiter: round(dryHops.reduce((sum, h) => sum + (h.amount as number), 0) / d.batchSize, 2),
    diastaticPower: diastaticPower(mashFermentables),
    equipment: equipment(d.batchSize, d.boilSize, d.postBoil),
    mash: d.mash, fermentation: d.fermentation, water: d.water,
    data: {
      mashWaterAmount: d.mashWater, spargeWaterAmount: d.spargeWater,
      totalWaterAmount: round(d.mashWater + d.spargeWater, 2),
      hltWaterAmount: d.spargeWater, topUpWater: 0, strikeTemp: d.strikeTemp, mashVolume: d.mashVolume,
      mashVolumeSurplus: 0, mashFermentablesAmount: totalAmount(mashFermentables), otherFermentablesAmount: 0,
      hopsAmount, batchSpargeWaterAmount1: null, batchSpargeWaterAmount2: null,
      batchSpargeWaterAmount3: null, batchSpargeWaterAmount4: null,
      mashFermentables, otherFermentables: [],
      allDiastaticPower: mashFermentables.every((f) => typeof f.diastaticPower === "number"),
      totalDiastaticPower: diastaticPower(mashFermentables),
    },
    nutrition: d.nutrition,
    _type: "recipe", _init: true, _public: false,
    ...recordMeta(random, now - d.createdDaysAgo * DAY, now - d.updatedDaysAgo * DAY),
  };
}

function nutrition(alcohol: number, carbs: number, carbGrams: number): Obj {
  const total = round(alcohol + carbs, 1);
  return { calories: { total, alcohol, carbs, kJ: round(total * 4.184, 1) }, carbs: { total: carbGrams } };
}

export function paleAle(now: number, random: Random): Obj {
  return recipe({
    _id: RECIPE_IDS.paleAle, name: "Cascade Pale Ale",
    teaser: "Bright, citrusy American pale ale with a firm but clean bitterness.",
    notes: "Hop stand the Cascade at 80 °C for 20 minutes. Dry hop on day 7 when gravity is below 1.015.",
    createdDaysAgo: 260, updatedDaysAgo: 16, style: STYLES.paleAle,
    batchSize: 21, boilSize: 26.94, postBoil: 23.44,
    fermentables: [fermentable(F.paleAleMalt, 4.5), fermentable(F.munich, 0.3), fermentable(F.crystal40, 0.35)],
    hops: [
      boilHop(H.magnum, 16, 60, 21.2), boilHop(H.cascade, 30, 15, 7.8),
      hopStand(H.cascade, 40, 20, 80, 6.7), dryHop(H.centennial, 50, 7, 4),
    ],
    miscs: [miscAddition(M.gypsum, 6), miscAddition(M.calciumChloride, 2), miscAddition(M.whirlfloc, 1), miscAddition(M.yeastNutrient, 2.5)],
    yeasts: [yeastPitch(Y.us05, 1)],
    og: 1.054221, fg: 1.01, preBoilGravity: 1.047, ogPlato: 13.3,
    color: 8.1, ibu: 35.7, buGuRatio: 0.66, rbRatio: 0.69, abv: 5.78, carbonation: 2.4, carbonationTemp: 20,
    mash: singleInfusionMash(67), fermentation: ALE_FERMENTATION, water: water("pale", 6, 2, 0, 5.35),
    mashWater: 14.92, spargeWater: 17.46, strikeTemp: 73.5, mashVolume: 18.37,
    nutrition: nutrition(32.4, 15.4, 3.9), tags: [{ display: "House Beer", value: "house-beer" }],
  }, now, random);
}

export function pilsner(now: number, random: Random): Obj {
  return recipe({
    _id: RECIPE_IDS.pilsner, name: "Hallertau Pils",
    teaser: "Crisp, pale German pilsner with a noble hop finish.",
    notes: "Pitch two packs at 9 °C. Raise to 16 °C for the diacetyl rest when gravity reaches 1.015.",
    createdDaysAgo: 240, updatedDaysAgo: 45, style: STYLES.pilsner,
    batchSize: 23, boilSize: 29.02, postBoil: 25.52,
    fermentables: [fermentable(F.pilsnerMalt, 4.6), fermentable(F.carapils, 0.2), fermentable(F.acidulated, 0.12)],
    hops: [boilHop(H.magnum, 18, 60, 23.4), boilHop(H.mittelfrueh, 30, 20, 6.7), boilHop(H.tettnang, 30, 5, 2.5)],
    miscs: [miscAddition(M.calciumChloride, 3), miscAddition(M.lacticAcid, 1.5), miscAddition(M.whirlfloc, 1)],
    yeasts: [yeastPitch(Y.w3470, 2)],
    og: 1.047035, fg: 1.008, preBoilGravity: 1.041, ogPlato: 11.7,
    color: 3.1, ibu: 32.6, buGuRatio: 0.69, rbRatio: 0.73, abv: 5.12, carbonation: 2.6, carbonationTemp: 4,
    mash: STEP_MASH, fermentation: LAGER_FERMENTATION, water: water("pilsner", 0, 3, 1.5, 5.4),
    mashWater: 14.28, spargeWater: 19.97, strikeTemp: 70.1, mashVolume: 17.57,
    nutrition: nutrition(28.7, 12.7, 3.2), tags: [{ display: "Lager", value: "lager" }],
  }, now, random);
}

export function stout(now: number, random: Random): Obj {
  return recipe({
    _id: RECIPE_IDS.stout, name: "Dry Irish Stout",
    teaser: "Roasty, dry and easy-drinking stout for the keg.",
    notes: "Serve on the keg at 2.0 volumes; flaked barley gives the creamy head.",
    createdDaysAgo: 230, updatedDaysAgo: 100, style: STYLES.stout,
    batchSize: 21, boilSize: 26.94, postBoil: 23.44,
    fermentables: [fermentable(F.marisOtter, 3), fermentable(F.flakedBarley, 0.75), fermentable(F.roastedBarley, 0.45)],
    hops: [boilHop(H.goldings, 50, 60, 28.9)],
    miscs: [miscAddition(M.calciumChloride, 2), miscAddition(M.gypsum, 2), miscAddition(M.whirlfloc, 1)],
    yeasts: [yeastPitch(Y.s04, 1)],
    og: 1.042705, fg: 1.011, preBoilGravity: 1.037, ogPlato: 10.7,
    color: 31.8, ibu: 28.9, buGuRatio: 0.67, rbRatio: 0.65, abv: 4.2, carbonation: 2, carbonationTemp: 4,
    mash: singleInfusionMash(66), fermentation: ALE_FERMENTATION, water: water("stout", 2, 2, 0, 5.3),
    mashWater: 12.26, spargeWater: 19.21, strikeTemp: 72.3, mashVolume: 15.07,
    nutrition: nutrition(23.5, 17, 4.3), tags: [],
  }, now, random);
}

export function buildRecipes(now: number, random: Random): Obj[] {
  return [paleAle(now, random), pilsner(now, random), stout(now, random)];
}
