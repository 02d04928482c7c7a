// The validators generated ahead of time (src/schema/compiled/, `bun scripts/validators.ts`): each is
// what ajv compiles from its schema today.
import { describe, expect, test } from "bun:test";
import Ajv, { type ValidateFunction } from "ajv";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILED_DIR, validatorModules } from "../../scripts/validators.ts";
import { toIssues } from "../../src/schema/issues.ts";
import { VALIDATED_NAMES, validatorOf, type ValidatedName } from "../../src/schema/validate.ts";
import { AJV_OPTIONS, VALIDATED_SCHEMAS } from "../../src/schema/validated.ts";
import * as samples from "./samples";

describe("the generated modules", () => {
  test(
    "are what the generator writes from the schemas now (after changing a schema: bun scripts/validators.ts)",
    () => {
      const modules = validatorModules();
      expect(readdirSync(COMPILED_DIR).sort()).toEqual([...modules.keys()].sort());
      for (const [file, text] of modules) expect({ file, current: readFileSync(join(COMPILED_DIR, file), "utf8") === text }).toEqual({ file, current: true });
    },
    120_000,
  );

  test("one for each validated schema, each loaded by its name", () => {
    expect([...VALIDATED_NAMES].sort() as string[]).toEqual(Object.keys(VALIDATED_SCHEMAS).sort());
    for (const name of VALIDATED_NAMES) expect(typeof validatorOf(name)).toBe("function");
  });
});

describe("generated and compiled at run time, the same issues", () => {
  const cases: Array<[ValidatedName, unknown]> = [
    ["batch", samples.batch()],
    ["batch", { status: "Done", measuredOg: "1.05", batchHops: [{ amount: null, alpha: "x", use: "Later" }], recipe: { fermentables: [{ color: -1 }] } }],
    ["recipe", samples.recipe()],
    ["recipe", { name: "", hops: [{ time: "10", use: 3 }], mash: { steps: [{ stepTemp: null }] } }],
    ["reading", { time: "now", sg: "1.05", ph: 15 }],
    ["brew-tracker", { stages: [{ duration: "x" }], active: 1 }],
    ["hops-create", { alpha: 4 }],
    ["hops-patch", { name: "" }],
    ["batch-create", { recipeId: "", brewDate: -1, status: "x" }],
    ["batch", "not an object"],
  ];
  // Compiling the batch schema takes seconds on a busy machine: once per schema.
  const compiled = new Map<ValidatedName, ValidateFunction>();
  const compiledOf = (name: ValidatedName) => compiled.get(name) ?? compiled.set(name, new Ajv(AJV_OPTIONS).compile(VALIDATED_SCHEMAS[name])).get(name)!;
  test.each(cases)(
    "%s",
    (name, doc) => {
      const generated = validatorOf(name);
      const atRunTime = compiledOf(name);
      expect(generated(doc)).toBe(atRunTime(doc));
      expect(toIssues(generated.errors)).toEqual(toIssues(atRunTime.errors));
    },
    60_000,
  );
});
