// Deviations in the bounds of nested recipe objects and of inventory items: an inclusive edge
// refused, or the first value outside accepted (clamped to the bound, as a lenient server might).
import { json, type Call, type Deviation } from "../deviation.ts";

const validationError = (path: string) => json([{ path, message: `${path} is out of range` }], 400);
const created = (c: Call, path: string) => c.method === "POST" && c.path === path;
type Item = Record<string, any>;
const items = (c: Call, key: string): Item[] => (Array.isArray(c.json()?.[key]) ? c.json()[key] : []);

/** The body with `f` applied to each element of its array `key` (or to the body itself without a key). */
function forwardChanged(c: Call, key: string | undefined, f: (item: Item) => Item) {
  const body = c.json();
  return c.forward({ body: JSON.stringify(key ? { ...body, [key]: body[key].map(f) } : f(body)) });
}

export const BOUNDS_DEVIATIONS: Deviation[] = [
  {
    name: "recipe-fermentable-potential-edge-exclusive", area: "recipes", alone: true,
    caughtBy: "POST /v2/recipes answers 201 with each of the",
    what: "a recipe holding a fermentable with potential 1.500 fails validation",
    async handle(c) {
      if (created(c, "/v2/recipes") && items(c, "fermentables").some((f) => f?.potential === 1.5)) return validationError("fermentables/0/potential");
    },
  },
  {
    name: "recipe-hop-time-unbounded", area: "recipes", alone: true,
    caughtBy: "POST /v2/recipes answers 400 with a JSON array for the first value outside each bound of a nested object",
    what: "a recipe hop time above 365 is accepted (stored as 365)",
    async handle(c) {
      if (created(c, "/v2/recipes") && items(c, "hops").some((h) => h?.time > 365)) {
        return forwardChanged(c, "hops", (h) => ({ ...h, time: Math.min(h.time, 365) }));
      }
    },
  },
  {
    name: "inventory-yeast-max-abv-edge-exclusive", area: "inventory", alone: true,
    caughtBy: "POST /v2/inventory/{collection} answers 201 with each of the",
    what: "an inventory yeast with maxAbv 30 fails validation",
    async handle(c) { if (created(c, "/v2/inventory/yeasts") && c.json()?.maxAbv === 30) return validationError("maxAbv"); },
  },
  {
    name: "inventory-fermentable-potential-unbounded", area: "inventory", alone: true,
    caughtBy: "POST /v2/inventory/{collection} answers 400 with a JSON array for the first value outside",
    what: "an inventory fermentable potential above 1.500 is accepted (stored as 1.500)",
    async handle(c) {
      if (created(c, "/v2/inventory/fermentables") && c.json()?.potential > 1.5) return forwardChanged(c, undefined, (f) => ({ ...f, potential: 1.5 }));
    },
  },
];
