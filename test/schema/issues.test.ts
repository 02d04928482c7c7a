// The shape of validation issues: dot paths, the broken keyword, a message naming the path,
// deterministic order, and no echo of the input.
import { describe, expect, test } from "bun:test";
import { validateRecipe } from "../../src/schema";
import * as samples from "./samples";

const issuesWith = (changes: Record<string, unknown>) => {
  const doc = samples.recipe() as Record<string, unknown>;
  for (const [path, value] of Object.entries(changes)) samples.setPath(doc, path, value);
  return validateRecipe(doc);
};

describe("root", () => {
  for (const [label, doc] of [["a string", "text"], ["null", null], ["an array", [1]], ["a number", 3]] as const) {
    test(`${label} as a recipe is one type issue at path ""`, () => {
      expect(validateRecipe(doc)).toEqual([{ path: "", rule: "type", message: "document must be object" }]);
    });
  }
  test("an empty object lacks only name: rule required at path name", () => {
    expect(validateRecipe({})).toEqual([{ path: "name", rule: "required", message: "name is required" }]);
  });
  test("name \"\" is invalid with rule minLength at path name", () => {
    expect(validateRecipe({ name: "" })).toEqual([{ path: "name", rule: "minLength", message: "name must not be empty" }]);
  });
  test("name 5 is invalid with rule type at path name", () => {
    expect(validateRecipe({ name: 5 })).toEqual([{ path: "name", rule: "type", message: "name must be string" }]);
  });
  test("{ name: \"x\" } alone is a valid recipe", () => {
    expect(validateRecipe({ name: "x" })).toEqual([]);
  });
});

describe("paths and unions", () => {
  test("an array element's field is reported as fermentables.1.amount", () => {
    const doc = samples.recipe();
    doc.fermentables.push({ ...samples.fermentable(), amount: "2 kg" as unknown as number });
    expect(validateRecipe(doc)).toEqual([{ path: "fermentables.1.amount", rule: "type", message: "fermentables.1.amount must be number" }]);
  });
  test("a nullable number given text is one type issue: must be number or null", () => {
    expect(issuesWith({ "hops.0.beta": "high" })).toEqual([{ path: "hops.0.beta", rule: "type", message: "hops.0.beta must be number or null" }]);
  });
  test("style \"IPA\" is one type issue: must be object or null", () => {
    expect(issuesWith({ style: "IPA" })).toEqual([{ path: "style", rule: "type", message: "style must be object or null" }]);
  });
  test("a broken field inside a nullable object is reported at its own path", () => {
    expect(issuesWith({ "style.ogMin": "1.050" })).toEqual([{ path: "style.ogMin", rule: "type", message: "style.ogMin must be number or null" }]);
  });
  test("an enum message lists the allowed values and says when null is allowed", () => {
    expect(issuesWith({ "hops.0.usage": "Dual" })).toEqual([
      { path: "hops.0.usage", rule: "enum", message: 'hops.0.usage must be one of "Aroma", "Bittering", "Both", "" or null' },
    ]);
  });
  test("water ion amounts given as numeric strings are valid", () => {
    expect(issuesWith({ "water.source.magnesium": ".860", "water.source.ph": "6.3", "water.target.bicarbonate": "11.4243" })).toEqual([]);
  });
  test("a water ion amount given as non-numeric text is invalid with rule pattern", () => {
    expect(issuesWith({ "water.source.calcium": "9.98 ppm" })).toEqual([
      { path: "water.source.calcium", rule: "pattern", message: "water.source.calcium must be a number or a numeric string" },
    ]);
  });
  test("tags may be null or an array of tag objects, not a string", () => {
    expect(issuesWith({ tags: null })).toEqual([]);
    expect(issuesWith({ tags: [{ display: "Lager", value: "lager" }] })).toEqual([]);
    expect(issuesWith({ tags: "lager" })).toEqual([{ path: "tags", rule: "type", message: "tags must be array or null" }]);
  });
});

describe("order and size", () => {
  test("issues are sorted by path with array indices compared as numbers, then by rule", () => {
    const doc = samples.recipe();
    doc.hops = Array.from({ length: 11 }, () => samples.hop());
    doc.hops[10]!.beta = 21;
    doc.hops[2]!.beta = -1;
    Object.assign(doc, { og: 2, batchSize: 0, name: "" });
    expect(validateRecipe(doc).map((i) => `${i.path}:${i.rule}`)).toEqual([
      "batchSize:minimum", "hops.2.beta:minimum", "hops.10.beta:maximum", "name:minLength", "og:maximum",
    ]);
  });
  test("a huge wrong value is not echoed in the message", () => {
    const huge = "Z".repeat(1_000_000);
    const issues = issuesWith({ og: huge, type: huge, "fermentables.0.use": huge });
    expect(issues.map((i) => i.path)).toEqual(["fermentables.0.use", "og", "type"]);
    for (const issue of issues) {
      expect(issue.message).not.toContain("ZZ");
      expect(issue.message.length).toBeLessThan(300);
    }
  });
  test("deeply nested unknown data is accepted without being walked", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = { d: deep };
    expect(issuesWith({ extra: deep })).toEqual([]);
  });
});
