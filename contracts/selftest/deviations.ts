// Every planted deviation: each corrupts a single rule of the API document (or of an addition beyond
// it, in the extensions area), and names the check
// that must catch it. The self-test runs the kit through the proxy once per deviation, at the
// default call budget, and expects that check to fail, in the deviation's area only.
import type { Deviation } from "./deviation.ts";
import { ACCESS } from "./deviations/access.ts";
import { LISTING } from "./deviations/lists.ts";
import { WRITES } from "./deviations/writes.ts";
import { BOUNDS_DEVIATIONS } from "./deviations/bounds.ts";
import { OTHERS } from "./deviations/versions.ts";
import { EXTENSIONS, WITHOUT_ADDITIONS } from "./deviations/extensions.ts";

export type { Deviation } from "./deviation.ts";

export const DEVIATIONS: Deviation[] = [...ACCESS, ...LISTING, ...WRITES, ...BOUNDS_DEVIATIONS, ...OTHERS, ...EXTENSIONS];

/** Targets the proxy can stand in for that break no rule (a server without the additions). */
export const STAND_INS: Deviation[] = [WITHOUT_ADDITIONS];

export function deviationNamed(name: string): Deviation {
  const d = [...DEVIATIONS, ...STAND_INS].find((x) => x.name === name);
  if (!d) throw new Error(`unknown deviation ${name}; known: ${DEVIATIONS.map((x) => x.name).join(", ")}`);
  return d;
}
