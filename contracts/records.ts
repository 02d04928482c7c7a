// Bodies of the records the kit creates: valid by the document, named with the run prefix so they
// can be found and deleted. Shared by the checks and by the data the kit makes before a run.
import type { Collection } from "./doc.ts";

export const INVENTORY_BODIES: Record<Collection, Record<string, unknown>> = {
  fermentables: { type: "Grain", color: 3, potential: 1.037, notes: "first" },
  hops: { alpha: 5.5, type: "Pellet", use: "Boil", notes: "first" },
  miscs: { type: "Other", use: "Boil", unit: "g", notes: "first" },
  yeasts: { type: "Ale", form: "Dry", unit: "pkg", notes: "first" },
};

export const hopAddition = (name: string) => ({ name, alpha: 5.5, amount: 20, use: "Boil", time: 60, type: "Pellet" });

export function recipeBody(runPrefix: string, suffix: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `${runPrefix}${suffix}`, author: "Contract Kit", type: "All Grain", batchSize: 20, boilTime: 60, efficiency: 72,
    notes: "first", hops: [hopAddition("Cascade"), hopAddition("Saaz")], ...extra,
  };
}
