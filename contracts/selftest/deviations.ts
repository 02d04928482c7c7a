// One planted deviation per area: each corrupts a single rule of the API document. The self-test
// runs the kit through the proxy once per deviation and expects a failure in the named area.
import type { AreaName } from "../config.ts";

export interface Deviation { name: string; area: AreaName; what: string }

export const DEVIATIONS: Deviation[] = [
  { name: "forbidden-instead-of-unauthorized", area: "auth", what: "a request without Authorization answers 403 `Forbidden`" },
  { name: "direction-accepts-anything", area: "errors", what: "an order_by_direction other than asc/desc is dropped instead of refused" },
  { name: "leak-other-account", area: "isolation", what: "a read of another account's id answers 200 with that record" },
  { name: "last-reading-oldest", area: "readings", what: "readings/last answers the oldest reading" },
  { name: "page-repeats-item", area: "lists", what: "a page after start_after=X starts with X again" },
  { name: "mash-ph-edge-exclusive", area: "batches", what: "PATCH measuredMashPh=14 answers 400 `Invalid measuredMashPh`" },
  { name: "invalid-status-text", area: "batches", what: "the refusal of a bad status reads `Invalid Status`" },
  { name: "recipe-keeps-client-id", area: "recipes", what: "a recipe POST answers the client's `_id` as its id" },
  { name: "inventory-adjust-wins", area: "inventory", what: "an inventory PATCH with both fields applies inventory_adjust" },
  { name: "v1-no-planning-default", area: "v1", what: "the v1 batch list without status lists every status" },
  { name: "no-retry-after", area: "ratelimit", what: "a 429 answer carries no Retry-After header" },
];

export function deviationNamed(name: string): Deviation {
  const d = DEVIATIONS.find((x) => x.name === name);
  if (!d) throw new Error(`unknown deviation ${name}; known: ${DEVIATIONS.map((x) => x.name).join(", ")}`);
  return d;
}
