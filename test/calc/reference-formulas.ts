// Formulas of the reference programs, for figures that depend on the program's own formula
// rather than on the recipe: the accuracy test applies them to our calculated inputs
// (fixture field `computedBy`) so that such a figure is still compared, not left out.

/** °Plato of a specific gravity by the short rule °P = 259 − 259 / SG. */
export function platoOf(sg: number): number {
  return 259 - 259 / sg;
}

/**
 * BeerSmith's ABV: alcohol from the real extract (Balling), as BeerSmith's documentation
 * of apparent and real attenuation gives it: RE = 0.1808 × OE + 0.8192 × AE;
 * ABW = (OE − RE) / (2.0665 − 0.010665 × OE); ABV = ABW × FG / 0.79661, with °P by the
 * 259 rule. With these choices it gives BeerSmith 2's EST_ABV of all four of its references
 * from their EST_OG and EST_FG. The hosted app uses (OG − FG) × 131.25 instead.
 */
export function beerSmithAbv(og: number, fg: number): number {
  const oe = platoOf(og);
  const ae = platoOf(fg);
  const re = 0.1808 * oe + 0.8192 * ae;
  const abw = (oe - re) / (2.0665 - 0.010665 * oe);
  return (abw * fg) / 0.79661;
}

type Out = Record<string, unknown>;

/** Named formulas a fixture may ask for, each taking the calculated recipe. */
export const REFERENCE_FORMULAS: Record<string, (out: Out) => number> = {
  beerSmithAbv: (out) => Math.round(beerSmithAbv(out.og as number, out.fg as number) * 100) / 100,
};
