// Compact row helpers for the fermentable tables. Figures are typical values from maltsters'
// and suppliers' published specifications; colour is entered in the unit the maker publishes
// (EBC in Europe, degrees Lovibond in North America) and converted once in ../shape.ts.

export type FermentableType = "Grain" | "Sugar" | "Liquid Extract" | "Dry Extract" | "Adjunct" | "Other";

export type GrainCategory =
  | "Base"
  | "Base (Pilsner)"
  | "Base (Wheat)"
  | "Base (Munich)"
  | "Base (Vienna)"
  | "Base (Maris Otter)"
  | "Base (6-Row)"
  | "Crystal/Caramel"
  | "Roasted"
  | "Acidulated"
  | "Other"
  | "Ignore";

export type Colour = { readonly ebc: number } | { readonly lovibond: number };

/** Colour published in EBC. */
export const ebc = (value: number): Colour => ({ ebc: value });
/** Colour published in degrees Lovibond. */
export const lov = (value: number): Colour => ({ lovibond: value });

/** Optional laboratory figures; omitted where the maker publishes none. */
export interface Figures {
  readonly diastaticPower?: number; // Lintner
  readonly protein?: number; // percent
  readonly moisture?: number; // percent
  readonly notFermentable?: boolean;
  readonly notes?: string;
}

export interface FermentableRow extends Figures {
  readonly name: string;
  readonly type: FermentableType;
  readonly grainCategory?: GrainCategory;
  readonly supplier?: string;
  readonly origin?: string;
  readonly colour: Colour;
  readonly potential: number; // SG of 1 lb in 1 US gal, as the API stores it (1.037 = 37 ppg)
  /** Fermentability as a fraction (0.81), the form the hosted service stores. */
  readonly attenuation?: number;
}

/** A malted or flaked grain. */
export function grain(
  name: string,
  supplier: string | undefined,
  origin: string | undefined,
  grainCategory: GrainCategory,
  colour: Colour,
  potential: number,
  attenuation: number | undefined,
  figures: Figures = {},
): FermentableRow {
  return { name, type: "Grain", grainCategory, supplier, origin, colour, potential, attenuation, ...figures };
}

/** A sugar, extract or adjunct: no grain category. */
export function other(
  type: Exclude<FermentableType, "Grain">,
  name: string,
  supplier: string | undefined,
  origin: string | undefined,
  colour: Colour,
  potential: number,
  attenuation: number | undefined,
  figures: Figures = {},
): FermentableRow {
  return { name, type, supplier, origin, colour, potential, attenuation, ...figures };
}
