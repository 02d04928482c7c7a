// Accuracy against figures computed by the hosted app (its recipe objects and BeerXML
// exports), by BeerSmith and by other programs. Each fixture in test/fixtures/calc/ holds a
// recipe in the API's shape, the expected figures and where they come from; `computedBy`
// names a reference program's own formula for a figure that depends on it, and `leftOut`
// gives, per figure the reference states but that is not compared, the reason.
import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { calculateRecipe } from "../../src/calc/index.ts";
import { REFERENCE_FORMULAS } from "./reference-formulas.ts";

interface Fixture {
  name: string;
  source: { figures: string; origin: string };
  notes: string[];
  recipe: Record<string, unknown>;
  expected: Record<string, number>;
  computedBy?: Record<string, string>;
  leftOut?: Record<string, string>;
}

type Tolerance = { kind: "abs" | "rel"; limit: number; label: string };

const GRAVITY: Tolerance = { kind: "abs", limit: 0.002, label: "±0.002" };
const VOLUME: Tolerance = { kind: "rel", limit: 0.03, label: "±3%" };
const TOLERANCE: Record<string, Tolerance> = {
  og: GRAVITY,
  fg: GRAVITY,
  fgEstimated: GRAVITY,
  preBoilGravity: GRAVITY,
  ibu: { kind: "rel", limit: 0.1, label: "±10%" },
  color: { kind: "rel", limit: 0.1, label: "±10%" },
  abv: { kind: "abs", limit: 0.2, label: "±0.2" },
  boilSize: VOLUME,
  mashWaterAmount: VOLUME,
  spargeWaterAmount: VOLUME,
  totalWaterAmount: VOLUME,
  mashVolume: VOLUME,
  strikeTemp: { kind: "abs", limit: 1, label: "±1 °C" },
  // kcal per 100 ml, from OG and FG
  calories: { kind: "rel", limit: 0.03, label: "±3%" },
};
const IN_DATA = new Set(["mashWaterAmount", "spargeWaterAmount", "totalWaterAmount", "mashVolume", "strikeTemp"]);

const dir = join(import.meta.dir, "..", "fixtures", "calc");
const fixtures: Fixture[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Fixture);

function computedFigure(fx: Fixture, out: Record<string, unknown>, field: string): unknown {
  const formula = fx.computedBy?.[field];
  if (formula) return REFERENCE_FORMULAS[formula]!(out);
  if (field === "calories") return ((out.nutrition as Record<string, unknown>).calories as Record<string, unknown>).total;
  return IN_DATA.has(field) ? (out.data as Record<string, unknown>)[field] : out[field];
}

function within(t: Tolerance, expected: number, actual: number): boolean {
  const diff = Math.abs(actual - expected);
  return t.kind === "abs" ? diff <= t.limit + 1e-9 : diff <= t.limit * Math.abs(expected) + 1e-9;
}

const rows = fixtures.flatMap((fx) => {
  const out = calculateRecipe(fx.recipe);
  return Object.entries(fx.expected).map(([field, expected]) => {
    const actual = computedFigure(fx, out, field);
    const t = TOLERANCE[field]!;
    return { recipe: fx.name, field, expected, actual, tolerance: t, ok: typeof actual === "number" && within(t, expected, actual) };
  });
});

console.log(
  "\nexpected vs computed\n" +
    rows
      .map((r) => `${r.ok ? " " : "✗"} ${r.recipe.padEnd(38).slice(0, 38)} ${r.field.padEnd(18)} ${String(r.expected).padStart(9)} ${String(r.actual).padStart(9)}  ${r.tolerance.label}`)
      .join("\n"),
);

test("at least ten recipes with independent figures", () => {
  expect(fixtures.filter((fx) => Object.keys(fx.expected).length > 0).length).toBeGreaterThanOrEqual(10);
});

describe("every reference compares its figures or says why not", () => {
  for (const fx of fixtures) {
    test(`${fx.name}: a figure compared or a reason to leave each out`, () => {
      const leftOut = Object.entries(fx.leftOut ?? {});
      expect(Object.keys(fx.expected).length + leftOut.length).toBeGreaterThan(0);
      for (const [figure, reason] of leftOut) {
        expect(fx.expected[figure]).toBeUndefined();
        expect(reason.length).toBeGreaterThan(20);
      }
    });
    test(`${fx.name}: every compared figure has a tolerance and every named formula exists`, () => {
      for (const field of Object.keys(fx.expected)) expect(TOLERANCE[field]).toBeDefined();
      for (const [field, formula] of Object.entries(fx.computedBy ?? {})) {
        expect(fx.expected[field]).toBeDefined();
        expect(REFERENCE_FORMULAS[formula]).toBeDefined();
      }
    });
  }
});

describe("calculated figures match the reference within tolerance", () => {
  for (const r of rows) {
    test(`${r.recipe}: ${r.field} ${r.expected} ${r.tolerance.label}`, () => {
      expect(typeof r.actual).toBe("number");
      const diff = Math.abs((r.actual as number) - r.expected);
      const limit = r.tolerance.kind === "abs" ? r.tolerance.limit : r.tolerance.limit * Math.abs(r.expected);
      expect(diff).toBeLessThanOrEqual(limit + 1e-9);
    });
  }
});
