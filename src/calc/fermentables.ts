// The grain bill: where each fermentable goes in the process and how many
// gravity points it gives. Points are "gallon-degrees": kg × ppg × 2.20462 lb/kg,
// so points / litres × 3.78541 gives gravity points (8.3454 = 2.20462 × 3.78541).
import { type Obj, key, nonNeg, num } from "./input.ts";

export const LB_PER_KG = 2.20462;
export const L_PER_GAL = 3.78541;
export const KG_L_TO_LB_GAL = LB_PER_KG * L_PER_GAL; // 8.3454

/** Where an addition meets the wort, which decides the gravities it counts in. */
export type Stage = "mash" | "kettle" | "fermenter" | "bottling";

export interface Fermentable {
  source: Obj;
  amount: number; // kg
  potential: number; // SG of 1 lb in 1 gal at 100 % yield
  colorSrm: number;
  stage: Stage;
  /** Kettle additions: minutes before the end of the boil it goes in; undefined = the whole boil. */
  boilMinutes: number | undefined;
  steeped: boolean; // specialty grain steeped, not mashed: yields at the efficiency, needs no strike water
  fullYield: boolean; // sugars and extracts dissolve completely: no mash efficiency
  notFermentable: boolean;
  fullyFermentable: boolean; // plain sugar: the yeast takes all of it
  diastaticPower: number | undefined; // Lintner
}

// Defaults when `potential` is missing, by fermentable type (typical catalogue values).
const DEFAULT_POTENTIAL: Record<string, number> = {
  grain: 1.036,
  adjunct: 1.036,
  sugar: 1.046,
  "dry extract": 1.044,
  "liquid extract": 1.036,
  extract: 1.036,
  other: 1.036,
};

const FERMENTER_USES = new Set(["primary", "secondary", "tertiary", "fermenter", "fermentation", "dry hop", "conditioning"]);
const KETTLE_USES = new Set(["boil", "first wort", "flameout", "whirlpool", "hop stand", "aroma", "kettle", "late boil", "late addition"]);
/** Kettle uses that go in at the end of the boil when no time is given. */
const END_OF_BOIL_USES = new Set(["flameout", "whirlpool", "hop stand", "aroma"]);

export function isSugarOrExtract(type: string): boolean {
  return type === "sugar" || type.includes("extract");
}

function stageOf(use: string, type: string): Stage {
  if (use === "bottling" || use === "priming") return "bottling";
  if (FERMENTER_USES.has(use)) return "fermenter";
  if (KETTLE_USES.has(use)) return "kettle";
  if (use === "mash" || use === "steep" || use === "sparge" || use === "mash tun") return "mash";
  // Unset use: grains are mashed, sugars and extracts go into the boil (the app's defaults).
  return isSugarOrExtract(type) ? "kettle" : "mash";
}

function potentialOf(f: Obj, type: string): number {
  const p = num(f.potential);
  if (p !== undefined && p > 1 && p < 1.5) return p;
  // `potentialPercentage` is the extract yield; sucrose (100 %) gives 1.046.
  const pct = num(f.potentialPercentage);
  if (pct !== undefined && pct > 0 && pct <= 100) return 1 + (pct / 100) * 0.046;
  return DEFAULT_POTENTIAL[type] ?? DEFAULT_POTENTIAL.grain;
}

/**
 * When a kettle addition goes in, in minutes before the end of the boil: its `time` when
 * shorter than the boil, 0 for flameout-like uses without one, else the whole boil.
 */
function boilMinutesOf(f: Obj, use: string, boilTime: number): number | undefined {
  const t = num(f.time);
  if (t !== undefined && t >= 0 && t < boilTime) return t;
  if (t === undefined && END_OF_BOIL_USES.has(use)) return 0;
  return undefined;
}

export function readFermentables(list: Obj[], boilTime = Number.POSITIVE_INFINITY): Fermentable[] {
  return list.map((f) => {
    const type = key(f.type);
    const use = key(f.use);
    const dp = num(f.diastaticPower);
    const stage = stageOf(use, type);
    return {
      source: f,
      amount: nonNeg(f.amount),
      potential: potentialOf(f, type),
      colorSrm: nonNeg(f.color, nonNeg(f.lovibond)),
      stage,
      boilMinutes: stage === "kettle" ? boilMinutesOf(f, use, boilTime) : undefined,
      steeped: use === "steep",
      fullYield: isSugarOrExtract(type),
      notFermentable: f.notFermentable === true,
      fullyFermentable: type === "sugar" && f.notFermentable !== true,
      diastaticPower: dp !== undefined && dp >= 0 ? dp : undefined,
    };
  });
}

/** Gallon-degree points of one fermentable at the given mash efficiency (fraction). */
export function points(f: Fermentable, efficiency: number): number {
  const yieldFactor = f.fullYield ? 1 : efficiency;
  return f.amount * (f.potential - 1) * 1000 * KG_L_TO_LB_GAL * yieldFactor;
}

/** Grains that go through the mash tun: they need strike water and absorb it. */
export function isMashed(f: Fermentable): boolean {
  return f.stage === "mash" && !f.fullYield && !f.steeped;
}

export interface DiastaticPower {
  total: number; // Lintner × kg, summed over the mash
  average: number; // Lintner of the mash, weighted by mass
  all: boolean; // every mashed grain states its diastatic power
}

export function diastaticPower(mashed: Fermentable[]): DiastaticPower {
  let total = 0;
  let mass = 0;
  for (const f of mashed) {
    total += f.amount * (f.diastaticPower ?? 0);
    mass += f.amount;
  }
  return {
    total,
    average: mass > 0 ? total / mass : 0,
    all: mashed.length > 0 && mashed.every((f) => f.diastaticPower !== undefined),
  };
}
