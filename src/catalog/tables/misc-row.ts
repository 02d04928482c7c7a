// Compact row helper for the misc table. `amount` is a typical dose for a 20 L batch, in `unit`;
// water agents carry a unit amount because the water calculation sets the real figure.

export type MiscType = "Water Agent" | "Fining" | "Flavor" | "Spice" | "Herb" | "Other";
export type MiscUse = "Boil" | "Mash" | "Steep" | "Primary" | "Secondary" | "Bottling" | "Sparge" | "Flameout";
export type MiscUnit = "g" | "ml" | "tsp" | "items" | "drops";

export interface MiscRow {
  readonly name: string;
  readonly type: MiscType;
  readonly use: MiscUse;
  readonly time: number; // minutes, or days for Primary/Secondary additions
  readonly amount: number;
  readonly unit: MiscUnit;
  readonly concentration?: number; // percent, for acids
  readonly notes?: string;
}

export function misc(
  name: string,
  type: MiscType,
  use: MiscUse,
  time: number,
  amount: number,
  unit: MiscUnit,
  notes?: string,
  concentration?: number,
): MiscRow {
  return { name, type, use, time, amount, unit, notes, concentration };
}
