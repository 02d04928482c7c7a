// [Beyond the hosted API] Additions some implementations make beyond the API document, checked only
// with CONTRACTS_EXTENSIONS=1 so a server that offers none is never judged on them. The documented
// areas never import from this folder.
//
// One file per addition joins ADDITIONS below. An addition's checks name the addition in brackets
// instead of a part of the document, and find out first whether the target offers it at all: a
// target without it gets skips that say so, never failures.
import type { Area, Check } from "../../engine.ts";

export interface Addition { name: string; checks: Check[] }

/** The additions the kit knows how to check. */
export const ADDITIONS: Addition[] = [];

export function extensionsArea(): Area {
  const checks = ADDITIONS.flatMap((a) => a.checks.map((c) => ({ ...c, name: `${c.name} [${a.name}]` })));
  if (checks.length) return { name: "extensions", checks };
  return {
    name: "extensions",
    checks: [{
      name: "additions beyond the document",
      async run(ctx) { ctx.skip("this version of the kit checks no additions beyond the document yet"); },
    }],
  };
}
