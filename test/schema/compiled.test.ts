// The validators generated ahead of time (src/schema/compiled/, `bun scripts/validators.ts`): each is
// what ajv compiles from its schema today, and one made from another version of its schema is never used.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILED_DIR, validatorModules } from "../../scripts/validators.ts";
import { toIssues } from "../../src/schema/issues.ts";
import { compileAtRunTime, VALIDATED, validatorFrom, validatorOf, type ValidatedName, type ValidatedSchema } from "../../src/schema/validate.ts";
import * as samples from "./samples";

const NAMES = Object.keys(VALIDATED) as ValidatedName[];

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

  test("are the validators in use, none compiled at run time", () => {
    for (const name of NAMES) expect(validatorOf(name)).toBe((VALIDATED[name] as ValidatedSchema).load().default);
  });
});

describe("a module generated from another version of its schema", () => {
  test("is not used: the schema is compiled now, and its rules apply", () => {
    const stale = (VALIDATED.reading as ValidatedSchema).load();
    const changed = { ...VALIDATED.reading.schema, required: ["time"] };
    const validate = validatorFrom(stale, changed);
    expect(validate).not.toBe(stale.default);
    expect(validate({ sg: 1.05 })).toBe(false);
    expect(toIssues(validate.errors)).toEqual([{ path: "time", rule: "required", message: "time is required" }]);
    expect(stale.default({ sg: 1.05 })).toBe(true);
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
  const compiled = new Map<ValidatedName, ReturnType<typeof compileAtRunTime>>();
  const compiledOf = (name: ValidatedName) => compiled.get(name) ?? compiled.set(name, compileAtRunTime((VALIDATED[name] as ValidatedSchema).schema)).get(name)!;
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
