import type { Colour, FermentableRow } from "./tables/fermentable-row.ts";
import type { HopRow } from "./tables/hop-row.ts";
import type { MiscRow } from "./tables/misc-row.ts";
import type { YeastRow } from "./tables/yeast-row.ts";

// Turns table rows into the API document's Fermentable, Hop, Yeast and Misc Objects (metric).
// Fields a row does not know are left `undefined` and dropped by the builder, because the
// hosted service omits unset fields rather than sending null.

export type Fields = Record<string, string | number | boolean | undefined>;

const round = (value: number, digits: number): number => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};

/**
 * `color` in SRM and `lovibond`, related as in the hosted service's own objects:
 * SRM = EBC / 1.97 and SRM = 1.3546 × °L − 0.76 (a 6 EBC malt is 3.05 SRM and 2.8 °L).
 */
export function colourFields(colour: Colour): { color: number; lovibond: number } {
  if ("ebc" in colour) {
    const srm = colour.ebc / 1.97;
    return { color: round(srm, 2), lovibond: srm === 0 ? 0 : round((srm + 0.76) / 1.3546, 1) };
  }
  return { color: round(Math.max(0, 1.3546 * colour.lovibond - 0.76), 2), lovibond: colour.lovibond };
}

export function fermentableFields(row: FermentableRow): Fields {
  return {
    name: row.name,
    type: row.type,
    grainCategory: row.grainCategory,
    supplier: row.supplier,
    origin: row.origin,
    ...colourFields(row.colour),
    potential: row.potential,
    attenuation: row.attenuation,
    diastaticPower: row.diastaticPower,
    protein: row.protein,
    moisture: row.moisture,
    notFermentable: row.notFermentable ?? false,
    notes: row.notes,
  };
}

export function hopFields(row: HopRow): Fields {
  const [myrcene, humulene, caryophyllene, farnesene] = row.oils ?? [];
  return {
    name: row.name,
    alpha: row.alpha,
    beta: row.beta,
    oil: row.oil,
    myrcene,
    humulene,
    caryophyllene,
    farnesene,
    origin: row.origin,
    usage: row.usage,
    // Defaults a new recipe addition starts from, as on the hosted service's default hops.
    type: "Pellet",
    use: "Boil",
    time: 60,
    ibu: 0,
    notes: row.notes,
  };
}

export function yeastFields(row: YeastRow): Fields {
  const [minAttenuation, maxAttenuation] = row.attenuation ?? [];
  const attenuation =
    minAttenuation === undefined || maxAttenuation === undefined ? undefined : Math.round((minAttenuation + maxAttenuation) / 2);
  return {
    name: row.name,
    type: row.type,
    form: row.form,
    laboratory: row.laboratory,
    productId: row.productId,
    flocculation: row.flocculation,
    attenuation,
    minAttenuation,
    maxAttenuation,
    minTemp: row.temperature[0],
    maxTemp: row.temperature[1],
    maxAbv: row.maxAbv ?? undefined,
    amount: 1,
    unit: "pkg",
    bestFor: row.bestFor,
    notes: row.notes,
  };
}

export function miscFields(row: MiscRow): Fields {
  const inDays = row.use === "Primary" || row.use === "Secondary";
  return {
    name: row.name,
    type: row.type,
    use: row.use,
    time: row.time,
    timeUnit: inDays ? "days" : "min",
    amount: row.amount,
    unit: row.unit,
    concentration: row.concentration,
    waterAdjustment: row.type === "Water Agent",
    notes: row.notes,
  };
}
