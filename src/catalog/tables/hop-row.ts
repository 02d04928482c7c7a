// Compact row helper for the hop table. Figures are midpoints of the ranges growers and
// breeders publish: alpha and beta acids in percent by weight, total oil in ml/100 g, and the
// share of the oil (percent) held by myrcene, humulene, caryophyllene and farnesene.

export type HopUsage = "Aroma" | "Bittering" | "Both";

/** [myrcene, humulene, caryophyllene, farnesene], percent of total oil. */
export type OilShares = readonly [number, number, number, number];

export interface HopRow {
  readonly name: string;
  readonly origin: string; // country code, as the API document describes `origin`
  readonly usage: HopUsage;
  readonly alpha: number;
  readonly beta?: number;
  readonly oil?: number;
  readonly oils?: OilShares;
  readonly notes?: string;
}

/** Unknown figures are `null` here and simply left out of the item. */
export function hop(
  name: string,
  origin: string,
  usage: HopUsage,
  alpha: number,
  beta: number | null,
  oil: number | null,
  oils: OilShares | null,
  notes?: string,
): HopRow {
  return { name, origin, usage, alpha, beta: beta ?? undefined, oil: oil ?? undefined, oils: oils ?? undefined, notes };
}
