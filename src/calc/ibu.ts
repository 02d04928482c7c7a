// Bitterness per hop addition, by the recipe's `ibuFormula`.
import type { Equipment } from "./equipment.ts";
import { utilizationAtTemperature } from "./hopTemperature.ts";
import { type Obj, key, nonNeg, num } from "./input.ts";

export const IBU_FORMULAS = ["tinseth", "tinseth*", "rager", "garetz", "noonan"] as const;
export type IbuFormula = (typeof IBU_FORMULAS)[number];

export function ibuFormulaOf(v: unknown): IbuFormula {
  const k = key(v);
  return (IBU_FORMULAS as readonly string[]).includes(k) ? (k as IbuFormula) : "tinseth";
}

export type HopRole = "boil" | "firstWort" | "mash" | "aroma" | "dryHop";

export function hopRole(use: unknown): HopRole {
  const u = key(use);
  if (u === "dry hop" || u === "dryhop" || u === "dry-hop") return "dryHop";
  if (u === "first wort" || u === "firstwort") return "firstWort";
  if (u === "mash") return "mash";
  // Aroma = flameout, hop stand or whirlpool (API document, Hop Use).
  if (u === "aroma" || u === "whirlpool" || u === "hopstand" || u === "hop stand" || u === "flameout") return "aroma";
  return "boil";
}

export interface IbuContext {
  formula: IbuFormula;
  boilGravity: number; // SG at the start of the boil
  /** SG in the kettle with that many minutes of the boil left (late extract counts from its time). */
  boilGravityAt?: (minutes: number) => number;
  volume: number; // L of wort the bitterness ends up in (batch + trub/chiller loss)
  concentration: number; // post-boil / pre-boil volume (Garetz)
  boilTime: number; // min
  hopstandMinutes: number; // longest aroma addition: boil hops keep isomerising that long
  equipment: Equipment;
}

/** Tinseth: bigness factor × boil-time factor. */
export function tinsethUtilization(gravity: number, minutes: number): number {
  if (!(minutes > 0)) return 0;
  return 1.65 * 0.000125 ** (gravity - 1) * ((1 - Math.exp(-0.04 * minutes)) / 4.15);
}

/** Rager: tanh curve of boil time; the gravity correction is applied per addition. */
export function ragerUtilization(minutes: number): number {
  if (!(minutes > 0)) return 0;
  return (18.11 + 13.86 * Math.tanh((minutes - 31.32) / 18.27)) / 100;
}

/** Garetz: tanh curve of boil time, never negative for short additions. */
export function garetzUtilization(minutes: number): number {
  if (!(minutes > 0)) return 0;
  return Math.max(0, 7.2994 + 15.0746 * Math.tanh((minutes - 21.86) / 24.71)) / 100;
}

// Noonan: utilisation by boil time, approximate values read from Greg Noonan's
// boil-time chart (whole hops, wort near 1.050), interpolated linearly.
const NOONAN: ReadonlyArray<readonly [number, number]> = [
  [0, 0], [5, 0.05], [10, 0.08], [15, 0.11], [20, 0.13], [30, 0.16],
  [45, 0.2], [60, 0.23], [75, 0.25], [90, 0.26], [120, 0.28],
];

export function noonanUtilization(minutes: number): number {
  if (!(minutes > 0)) return 0;
  const last = NOONAN[NOONAN.length - 1]!;
  if (minutes >= last[0]) return last[1];
  for (let i = 1; i < NOONAN.length; i++) {
    const [t1, u1] = NOONAN[i]!;
    if (minutes <= t1) {
      const [t0, u0] = NOONAN[i - 1]!;
      return u0 + ((u1 - u0) * (minutes - t0)) / (t1 - t0);
    }
  }
  return last[1];
}

/** Rager's and Noonan's correction for worts above 1.050. */
export function highGravityDivisor(gravity: number): number {
  return 1 + Math.max(0, (gravity - 1.05) / 0.2);
}

function utilization(ctx: IbuContext, minutes: number): number {
  switch (ctx.formula) {
    case "rager":
      return ragerUtilization(minutes) / highGravityDivisor(ctx.boilGravity);
    case "noonan":
      return noonanUtilization(minutes) / highGravityDivisor(ctx.boilGravity);
    case "garetz":
      return garetzUtilization(minutes);
    default:
      return tinsethUtilization(ctx.boilGravity, minutes);
  }
}

/** The context with the gravity a hop added with `minutes` of the boil left boils in. */
export function atAddition(ctx: IbuContext, minutes: number): IbuContext {
  return ctx.boilGravityAt ? { ...ctx, boilGravity: ctx.boilGravityAt(minutes) } : ctx;
}

/** Utilisation of hops in the hop stand, when no temperature of the hop decides it. */
export function hopstandFactor(eq: Equipment): number {
  if (!eq.calcAromaHopUtilization && eq.aromaHopUtilization !== undefined) return eq.aromaHopUtilization;
  return utilizationAtTemperature(eq.hopstandTemperature);
}

/**
 * Aroma-addition factor. `tinseth` (the app's default) and the other formulas use the
 * hop's own `temp`, else the equipment's hop-stand temperature, unless the profile turns
 * `calcAromaHopUtilization` off and states a fixed `aromaHopUtilization`.
 * `tinseth*` always goes by temperature.
 */
function aromaFactor(ctx: IbuContext, hopTemp: number | undefined): number {
  const eq = ctx.equipment;
  if (ctx.formula !== "tinseth*" && !eq.calcAromaHopUtilization && eq.aromaHopUtilization !== undefined) {
    return eq.aromaHopUtilization;
  }
  return utilizationAtTemperature(hopTemp ?? eq.hopstandTemperature);
}

/**
 * Utilisation of one addition.
 * - Boil: formula utilisation for its time, scaled by the boil temperature (below 100 °C
 *   at altitude), plus what it keeps gaining during the hop stand at hop-stand utilisation.
 * - First Wort: as a boil addition for its time (else the boil time), +10 %.
 * - Mash: 20 % of a full-boil addition (the usual mash-hopping estimate).
 * - Aroma: formula utilisation for its steep time × the aroma factor.
 * - `tinseth*` only: a Boil addition that carries a `temp` below the boil temperature is
 *   a whirlpool addition at that temperature (time × utilisation at `temp`), so
 *   whirlpool, hop stand and aroma additions all count by their own temperature.
 * - Dry Hop: none.
 */
export function additionUtilization(ctx: IbuContext, role: HopRole, minutes: number, hopTemp: number | undefined): number {
  const boilFactor = utilizationAtTemperature(ctx.equipment.boilTemp);
  const stand = ctx.hopstandMinutes > 0 ? hopstandFactor(ctx.equipment) : 0;
  const boiled = (t: number) =>
    boilFactor * utilization(ctx, t) + stand * (utilization(ctx, t + ctx.hopstandMinutes) - utilization(ctx, t));
  switch (role) {
    case "dryHop":
      return 0;
    case "aroma":
      return utilization(ctx, minutes) * aromaFactor(ctx, hopTemp);
    case "firstWort":
      return boiled(minutes > 0 ? minutes : ctx.boilTime) * 1.1;
    case "mash":
      return boiled(ctx.boilTime) * 0.2;
    case "boil":
      if (ctx.formula === "tinseth*" && hopTemp !== undefined && hopTemp < ctx.equipment.boilTemp) {
        return utilization(ctx, minutes) * utilizationAtTemperature(hopTemp);
      }
      return boiled(minutes);
  }
}

/** Pellets (and cryo pellets) give 10 % more than whole cones, as the app counts them. */
function formFactor(type: unknown): number {
  const t = key(type);
  return t === "pellet" || t === "pellets" || t === "cryo" ? 1.1 : 1;
}

/** IBU of one hop addition; grams and alpha percent from the hop object. */
export function hopIbu(hop: Obj, ctx: IbuContext): number {
  if (!(ctx.volume > 0)) return 0;
  const grams = nonNeg(hop.amount);
  const alpha = nonNeg(hop.alpha);
  const role = hopRole(hop.use);
  const minutes = role === "dryHop" ? 0 : nonNeg(hop.time);
  const mgAlphaPerL = (grams * (alpha / 100) * 1000) / ctx.volume;
  // A boil addition sees the extract already in the kettle; later ones see all of it.
  const entry = role === "boil" ? minutes : role === "aroma" || role === "dryHop" ? 0 : Number.POSITIVE_INFINITY;
  const u = additionUtilization(atAddition(ctx, entry), role, minutes, num(hop.temp));
  const ibu = mgAlphaPerL * u * formFactor(hop.type) * ctx.equipment.hopUtilization;
  return ctx.formula === "garetz" ? garetzAdjust(ibu, atAddition(ctx, entry)) : ibu;
}

/**
 * Garetz divides by gravity, hopping-rate and altitude factors; the hopping-rate
 * factor depends on the IBU itself, so it is iterated to a fixed point.
 */
function garetzAdjust(rawIbu: number, ctx: IbuContext): number {
  const cf = ctx.concentration > 0 ? ctx.concentration : 1;
  const gf = ctx.boilGravity > 1.05 ? (ctx.boilGravity - 1.05) / 0.2 + 1 : 1;
  const tf = Math.max(0, ctx.equipment.altitude) * 3.28084 / 550 * 0.02 + 1;
  let ibu = rawIbu / (gf * tf);
  for (let i = 0; i < 20; i++) ibu = rawIbu / (gf * tf * ((cf * ibu) / 260 + 1));
  return Number.isFinite(ibu) && ibu > 0 ? ibu : 0;
}
