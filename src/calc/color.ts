// Beer colour by Morey's equation.
import type { Fermentable } from "./fermentables.ts";
import { LB_PER_KG, L_PER_GAL } from "./fermentables.ts";

/** Malt colour units: Σ(lb × °L) / gallons. */
export function mcu(list: Fermentable[], litres: number): number {
  if (!(litres > 0)) return 0;
  let sum = 0;
  for (const f of list) if (f.stage !== "bottling") sum += f.amount * LB_PER_KG * f.colorSrm;
  return sum / (litres / L_PER_GAL);
}

/**
 * Morey: SRM = 1.4922 × MCU^0.6859. The volume is batch + trub/chiller loss, the
 * wort at the end of the boil, which reproduces the app's stored colours.
 */
export function moreySrm(mcuValue: number): number {
  return mcuValue > 0 ? 1.4922 * mcuValue ** 0.6859 : 0;
}
