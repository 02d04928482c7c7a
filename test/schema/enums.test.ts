// Closed value sets only where the document (or the hosted service's docs) lists every value;
// every other "not shown" set accepts any string. Values are written here from the document.
import { describe, expect, test } from "bun:test";
import { validateBatch, validateBrewTracker, validateRecipe, type ValidationIssue } from "../../src/schema";
import * as samples from "./samples";

type Validate = (doc: unknown) => ValidationIssue[];
const ADDITION_USES = ["Boil", "Mash", "Steep", "Primary", "Secondary", "Bottling", "Sparge", "Flameout"];
const TIME_UNITS = ["min", "day", "days"];

interface ClosedSet { path: string; values: string[]; nullable: boolean }

const RECIPE_SETS: ClosedSet[] = [
  { path: "type", values: ["Extract", "Partial Mash", "All Grain"], nullable: false },
  { path: "ibuFormula", values: ["tinseth", "tinseth*", "rager", "garetz", "noonan"], nullable: false },
  { path: "fermentables.0.type", values: ["Grain", "Sugar", "Liquid Extract", "Dry Extract", "Adjunct", "Other"], nullable: false },
  {
    path: "fermentables.0.grainCategory",
    values: ["Base", "Base (Pilsner)", "Base (Wheat)", "Base (Munich)", "Base (Vienna)", "Base (Maris Otter)", "Base (6-Row)", "Crystal/Caramel", "Roasted", "Acidulated", "Other", "Ignore"],
    nullable: true,
  },
  // Real recipes carry `use: ""` on fermentables.
  { path: "fermentables.0.use", values: [...ADDITION_USES, ""], nullable: true },
  { path: "fermentables.0.timeUnit", values: TIME_UNITS, nullable: true },
  { path: "hops.0.use", values: ["Boil", "Dry Hop", "Mash", "First Wort", "Aroma"], nullable: false },
  // Real recipes carry `usage: ""` on hops.
  { path: "hops.0.usage", values: ["Aroma", "Bittering", "Both", ""], nullable: true },
  { path: "hops.0.timeUnit", values: TIME_UNITS, nullable: true },
  { path: "yeasts.0.unit", values: ["g", "ml", "pkg", "billion cells", "oz"], nullable: false },
  { path: "miscs.0.use", values: ADDITION_USES, nullable: false },
  { path: "miscs.0.unit", values: ["g", "mg", "kg", "oz", "lb", "ml", "l", "tsp", "tbsp", "cup", "pkg", "items", "drops", "pt", "qt", "gal"], nullable: false },
  { path: "miscs.0.timeUnit", values: TIME_UNITS, nullable: true },
  { path: "water.source.type", values: ["source", "target"], nullable: false },
  { path: "water.mashAdjustments.acids.0.type", values: ["lactic", "phosphoric"], nullable: false },
];

const BATCH_SETS: ClosedSet[] = [
  { path: "status", values: ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"], nullable: false },
  { path: "measurements.0.type", values: ["Gravity", "Volume", "Temperature", "Weight"], nullable: false },
  { path: "measurements.0.spesificMeasurement", values: ["OriginalGravity", "FinalGravity", "GravityAddition"], nullable: false },
  {
    path: "events.0.eventType",
    values: [
      "event-batch-brew-day", "event-batch-brew-day-reminder", "event-batch-bottling-day", "event-batch-ferm-step",
      "event-batch-ferm-completed", "event-batch-dry-hop", "event-batch-general", "event-batch-date",
      "event-batch-yeast-starter-reminder", "event-general", "test",
    ],
    nullable: false,
  },
];

const TRACKER_SETS: ClosedSet[] = [
  { path: "stages.0.type", values: ["tracker", "checklist"], nullable: false },
  { path: "stages.0.steps.0.type", values: ["before", "after", "event", "mash", "ramp", "boil", "hopstand"], nullable: false },
];

function closedSets(kind: string, sets: ClosedSet[], sample: () => Record<string, unknown>, validate: Validate) {
  const withValue = (path: string, value: unknown) => {
    const doc = sample();
    samples.setPath(doc, path, value);
    return validate(doc);
  };
  describe(`${kind} closed sets`, () => {
    for (const { path, values, nullable } of sets) {
      test(`${path} accepts each of ${values.length} listed values`, () => {
        for (const value of values) expect(withValue(path, value)).toEqual([]);
      });
      test(`${path} "Not listed" is invalid with rule enum at path ${path}`, () => {
        const issues = withValue(path, "Not listed");
        expect(issues.map(({ path, rule }) => ({ path, rule }))).toEqual([{ path, rule: "enum" }]);
        for (const value of values) expect(issues[0]!.message).toContain(JSON.stringify(value));
      });
      test(`${path} in other letter case is invalid with rule enum`, () => {
        const value = values.find((v) => v.toUpperCase() !== v)!;
        expect(withValue(path, value.toUpperCase()).map((i) => i.rule)).toEqual(["enum"]);
      });
      test(`${path} 7 is invalid with rule type`, () => {
        expect(withValue(path, 7)).toEqual([{ path, rule: "type", message: `${path} must be string${nullable ? " or null" : ""}` }]);
      });
      test(`${path} null is ${nullable ? "valid" : "invalid with rule type"}`, () => {
        expect(withValue(path, null).map((i) => i.rule)).toEqual(nullable ? [] : ["type"]);
      });
    }
  });
}

closedSets("recipe", RECIPE_SETS, samples.recipe, validateRecipe);
closedSets("batch", BATCH_SETS, samples.batch, validateBatch);
closedSets("brew tracker", TRACKER_SETS, samples.brewTracker, validateBrewTracker);

describe("sets the document leaves not shown accept any string", () => {
  const OPEN: [string, Validate, () => Record<string, unknown>, string][] = [
    ["hops.0.type", validateRecipe, samples.recipe, "Cryo"],
    ["yeasts.0.type", validateRecipe, samples.recipe, "Kveik"],
    ["yeasts.0.form", validateRecipe, samples.recipe, "Slant"],
    ["yeasts.0.flocculation", validateRecipe, samples.recipe, "Very High"],
    ["miscs.0.type", validateRecipe, samples.recipe, "Spice"],
    ["fermentation.steps.0.type", validateRecipe, samples.recipe, "Tertiary"],
    ["mash.steps.0.type", validateRecipe, samples.recipe, "Decoction"],
    ["carbonationType", validateBatch, samples.batch, "CO2 Tabs"],
  ];
  for (const [path, validate, sample, value] of OPEN) {
    test(`${path} "${value}" and "any text" are valid, 1 is invalid with rule type`, () => {
      for (const v of [value, "any text"]) {
        const doc = sample();
        samples.setPath(doc, path, v);
        expect(validate(doc)).toEqual([]);
      }
      const doc = sample();
      samples.setPath(doc, path, 1);
      expect(validate(doc).map((i) => [i.path, i.rule])).toEqual([[path, "type"]]);
    });
  }
});
