// Every area of the kit, by name, in the order a run visits them.
import type { AreaName } from "./config.ts";
import type { Area } from "./engine.ts";
import { authArea } from "./checks/auth.ts";
import { isolationArea } from "./checks/isolation.ts";
import { listsArea } from "./checks/lists.ts";
import { batchesArea } from "./checks/batches.ts";
import { readingsArea } from "./checks/readings.ts";
import { recipesArea } from "./checks/recipes.ts";
import { inventoryArea } from "./checks/inventory.ts";
import { errorsArea } from "./checks/errors.ts";
import { v1Area } from "./checks/v1.ts";
import { ratelimitArea } from "./checks/ratelimit.ts";
import { extensionsArea } from "./checks/extensions/index.ts";

export const AREA_FACTORIES: Record<AreaName, () => Area> = {
  auth: authArea,
  isolation: isolationArea,
  lists: listsArea,
  batches: batchesArea,
  readings: readingsArea,
  recipes: recipesArea,
  inventory: inventoryArea,
  errors: errorsArea,
  v1: v1Area,
  ratelimit: ratelimitArea,
  extensions: extensionsArea,
};
