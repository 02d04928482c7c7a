// calculateRecipe: fills in the fields the API document calls calculated
// ("Recipe `data` is calculated by the service"), from a recipe in metric units.
import { mcu, moreySrm } from "./color.ts";
import { readEquipment } from "./equipment.ts";
import { type Fermentable, diastaticPower, isMashed, readFermentables } from "./fermentables.ts";
import { abv, apparentAttenuation, boilVolumes, estimateFg, gravities } from "./gravity.ts";
import { type IbuContext, hopIbu, hopRole, ibuFormulaOf } from "./ibu.ts";
import { type Obj, clamp, fraction, isObj, nonNeg, num, obj, objList, round } from "./input.ts";
import { jsonSafe } from "./jsonSafe.ts";
import { nutrition } from "./nutrition.ts";
import { strikeTemperature, waterVolumes } from "./water.ts";

export { SERVING_ML } from "./nutrition.ts";
export { IBU_FORMULAS, type IbuFormula } from "./ibu.ts";

/** Yeast attenuation (percent) assumed when no yeast states one. */
export const DEFAULT_YEAST_ATTENUATION = 75;

/** A value the client may set itself: kept when it is a finite number. */
function sent(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The most attenuative yeast decides, in percent. */
function yeastAttenuation(recipe: Obj): number {
  let best: number | undefined;
  for (const y of objList(recipe.yeasts)) {
    const f = fraction(y.attenuation);
    if (f !== undefined) best = Math.max(best ?? 0, clamp(f * 100, 0, 100));
  }
  return best ?? DEFAULT_YEAST_ATTENUATION;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * The settings a recipe's figures are calculated with where it names none of its own: its equipment's,
 * else the API document's defaults (boil 60 min, efficiency 72 %, `tinseth`; a 20 L batch).
 */
export function settingsUsed(recipe: Record<string, unknown>): { batchSize: number; boilTime: number; efficiency: number; ibuFormula: string } {
  const eq = readEquipment(isObj(recipe) ? recipe : {});
  return { batchSize: eq.batchSize, boilTime: eq.boilTime, efficiency: round(eq.efficiency * 100, 2), ibuFormula: ibuFormulaOf(recipe.ibuFormula) };
}

/**
 * Returns a new recipe with every calculated field filled in. Never throws and never
 * returns NaN or Infinity; the input is not changed. `og`, `fg`, `ibu`, `color` and
 * `abv` are kept when the client sent a finite number; the rest is always computed.
 */
export function calculateRecipe(recipe: Record<string, unknown>): Record<string, unknown> {
  const input: Obj = isObj(recipe) ? recipe : {};
  const eq = readEquipment(input);
  const ferms = readFermentables(objList(input.fermentables), eq.boilTime);
  const totalKg = sum(ferms.map((f) => f.amount));
  const vol = boilVolumes(eq);
  const grav = gravities(ferms, eq, vol);

  const og = sent(input.og) ?? grav.og;
  const fgEstimated = round(estimateFg(og, yeastAttenuation(input), grav.nonFermentablePoints, grav.sugarPoints), 3);
  const fg = sent(input.fg) ?? fgEstimated;

  const hops = objList(input.hops);
  const ctx: IbuContext = {
    formula: ibuFormulaOf(input.ibuFormula),
    boilGravity: grav.preBoil,
    boilGravityAt: grav.boilAt,
    volume: eq.batchSize + eq.trubChillerLoss,
    concentration: vol.boilSize > 0 ? vol.postBoil / vol.boilSize : 1,
    boilTime: eq.boilTime,
    // The wort stays hot for the longest hop stand, or the equipment's whirlpool time when longer.
    hopstandMinutes: hops.reduce((m, h) => (hopRole(h.use) === "aroma" ? Math.max(m, nonNeg(h.time)) : m), eq.whirlpoolTime),
    equipment: eq,
  };
  const hopIbus = new Map<Obj, number>(hops.map((h) => [h, hopIbu(h, ctx)]));
  const ibu = sent(input.ibu) ?? round(sum([...hopIbus.values()]), 1);
  const color = sent(input.color) ?? round(moreySrm(mcu(ferms, eq.batchSize + eq.trubChillerLoss)), 1);
  const attenuation = apparentAttenuation(og, fg);
  const buGu = og > 1 ? ibu / ((og - 1) * 1000) : 0;

  const withPercentage = (f: Fermentable): Obj => ({ ...f.source, percentage: totalKg > 0 ? round((f.amount / totalKg) * 100, 2) : 0 });
  const fermOut = new Map<Obj, Obj>(ferms.map((f) => [f.source, withPercentage(f)]));
  const mashed = ferms.filter(isMashed);
  const others = ferms.filter((f) => !isMashed(f));
  const grainKg = sum(mashed.map((f) => f.amount));
  const water = waterVolumes(grainKg, eq, vol);
  const firstStep = objList(obj(input.mash).steps)[0];
  const dp = diastaticPower(mashed);
  const hopsTotal = sum(hops.map((h) => nonNeg(h.amount)));

  const out: Obj = {
    ...input,
    fermentables: mapObjects(input.fermentables, (f) => fermOut.get(f) ?? f),
    hops: mapObjects(input.hops, (h) => ({ ...h, ibu: round(hopIbus.get(h) ?? 0, 1) })),
    fermentablesTotalAmount: round(totalKg, 4),
    hopsTotalAmount: round(hopsTotal, 2),
    og: sent(input.og) ?? round(og, 4),
    fg: sent(input.fg) ?? fg,
    fgEstimated,
    attenuation: round(attenuation, 1),
    preBoilGravity: round(grav.preBoil, 3),
    postBoilGravity: round(grav.postBoil, 4),
    boilSize: round(vol.boilSize, 2),
    ibu,
    color,
    abv: sent(input.abv) ?? round(abv(og, fg), 2),
    buGuRatio: round(buGu, 2),
    // Relative bitterness ratio: BU:GU corrected for apparent attenuation (0.7655 = typical).
    rbRatio: round(buGu * (1 + (attenuation / 100 - 0.7655)), 2),
    diastaticPower: round(dp.average, 2),
    nutrition: roundNutrition(og, fg),
    data: {
      ...water,
      strikeTemp: eq.calcStrikeWaterTemperature
        ? strikeTemperature(firstStep ? num(firstStep.stepTemp) : undefined, eq.grainTemperature, grainKg, water.mashWaterAmount)
        : null,
      mashFermentablesAmount: round(grainKg, 4),
      otherFermentablesAmount: round(sum(others.map((f) => f.amount)), 4),
      hopsAmount: round(hopsTotal, 2),
      // Fly sparging is assumed: no split into batch sparges.
      batchSpargeWaterAmount1: null,
      batchSpargeWaterAmount2: null,
      batchSpargeWaterAmount3: null,
      batchSpargeWaterAmount4: null,
      mashFermentables: mashed.map((f) => fermOut.get(f.source)),
      otherFermentables: others.map((f) => fermOut.get(f.source)),
      allDiastaticPower: dp.all,
      totalDiastaticPower: round(dp.total, 2),
    },
  };
  return jsonSafe(out) as Record<string, unknown>;
}

/** Maps the objects of an array and leaves anything else (including a non-array) as it was. */
function mapObjects(v: unknown, fn: (o: Obj) => Obj): unknown {
  return Array.isArray(v) ? v.map((x) => (isObj(x) ? fn(x) : x)) : v;
}

function roundNutrition(og: number, fg: number) {
  const n = nutrition(og, fg);
  return {
    calories: {
      total: round(n.calories.total, 2),
      alcohol: round(n.calories.alcohol, 2),
      carbs: round(n.calories.carbs, 2),
      kJ: round(n.calories.kJ, 2),
    },
    carbs: { total: round(n.carbs.total, 2) },
  };
}
