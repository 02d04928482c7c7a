// Compact row helper for the yeast table. Attenuation and temperature ranges are the
// laboratories' published ranges; the single `attenuation` figure is their midpoint.

export type YeastType = "Ale" | "Lager" | "Wheat" | "Wine" | "Champagne" | "Other";
export type YeastForm = "Dry" | "Liquid";
export type Flocculation = "Low" | "Medium-Low" | "Medium" | "Medium-High" | "High" | "Very High";

export interface YeastRow {
  readonly name: string;
  readonly laboratory: string;
  readonly productId: string;
  readonly type: YeastType;
  readonly form: YeastForm;
  readonly flocculation: Flocculation;
  readonly attenuation: readonly [number, number] | null; // apparent, percent
  readonly temperature: readonly [number, number]; // Celsius
  readonly maxAbv: number | null; // percent
  readonly bestFor: string;
  readonly notes?: string;
}

export function yeast(
  name: string,
  laboratory: string,
  productId: string,
  type: YeastType,
  form: YeastForm,
  flocculation: Flocculation,
  attenuation: readonly [number, number] | null,
  temperature: readonly [number, number],
  maxAbv: number | null,
  bestFor: string,
  notes?: string,
): YeastRow {
  return { name, laboratory, productId, type, form, flocculation, attenuation, temperature, maxAbv, bestFor, notes };
}
