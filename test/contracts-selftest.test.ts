// The kit can fail: each planted deviation (contracts/selftest) is a copy of our server with one
// rule of the API document broken, and the kit, run on the deviation's area at the default call
// budget, must report the check that catches it as failed, in that area only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig, jsonReport, junitXml, mergeSettings, runKit } from "../contracts/kit.ts";
import { AREAS } from "../contracts/config.ts";
import { DEVIATIONS } from "../contracts/selftest/deviations.ts";
import { extensionsArea } from "../contracts/checks/extensions/index.ts";
import { inventoryBoundChecks, recipeNestedBoundChecks } from "../contracts/checks/nested-bounds.ts";
import { startDeviationProxy } from "../contracts/selftest/proxy.ts";
import { basicCredential } from "../contracts/redact.ts";
import { account, listen, populate, prepare, secrets, SOURCES, stop, type KitServer } from "./helpers/contracts-server.ts";

const RATE_LIMIT = 20;
const dir = mkdtempSync(join(tmpdir(), "contracts-selftest-"));
const settings: Record<string, string> = {};
let main: KitServer;
let limited: KitServer;
const rateKeys: { user: string; key: string }[] = [];

beforeAll(async () => {
  main = prepare(dir, "main", 1_000_000, SOURCES);
  populate(main, settings);
  limited = prepare(dir, "limited", RATE_LIMIT, SOURCES);
  for (const d of DEVIATIONS.filter((x) => x.area === "ratelimit")) rateKeys.push({ user: `kit-rate-${d.name}`, key: account(limited, `kit-rate-${d.name}`, "all") });
  main = await listen(main);
  limited = await listen(limited);
}, 120_000);

afterAll(async () => {
  await Promise.all([stop(main), stop(limited)]);
  rmSync(dir, { recursive: true, force: true });
});

const auth = (user: string, key: string) => `Basic ${basicCredential(user, key)}`;

test("at least 40 planted deviations, each with a distinct name, in every documented area and the extensions area", () => {
  expect(DEVIATIONS.length).toBeGreaterThanOrEqual(40);
  expect(new Set(DEVIATIONS.map((d) => d.name)).size).toBe(DEVIATIONS.length);
  expect(new Set(DEVIATIONS.map((d) => d.area))).toEqual(new Set(AREAS));
});

test("every check of the extensions area has a planted deviation of its own", () => {
  const names = extensionsArea().checks.map((c) => c.name);
  const caught = DEVIATIONS.filter((d) => d.area === "extensions").map((d) => d.caughtBy);
  expect(names.filter((n) => !caught.some((c) => n.includes(c)))).toEqual([]);
  // Each deviation names one check only.
  expect(caught.filter((c) => names.filter((n) => n.includes(c)).length !== 1)).toEqual([]);
});

test("every check of a nested bound has a planted deviation that it alone catches", () => {
  const made = { created: new Set<string>() };
  const names = [...recipeNestedBoundChecks(made), ...inventoryBoundChecks(made)].map((c) => c.name);
  const caught = DEVIATIONS.filter((d) => d.alone && d.area !== "extensions").map((d) => d.caughtBy);
  expect(names.filter((n) => !caught.some((c) => n.includes(c)))).toEqual([]);
  expect(caught.filter((c) => names.filter((n) => n.includes(c)).length !== 1)).toEqual([]);
});

describe("each planted deviation is caught by its check, in its area, at the default call budget", () => {
  for (const d of DEVIATIONS) {
    test(`${d.name} (${d.what}) fails "${d.caughtBy}" in the ${d.area} area`, async () => {
      const ratelimit = d.area === "ratelimit";
      const proxy = startDeviationProxy({
        target: ratelimit ? limited.url : main.url, deviation: d.name,
        mainAuthorization: auth(settings.CONTRACTS_USER_ID!, settings.CONTRACTS_API_KEY!),
        otherAuthorization: auth(settings.CONTRACTS_OTHER_USER_ID!, settings.CONTRACTS_OTHER_API_KEY!),
      });
      try {
        const rate = rateKeys.find((k) => k.user === `kit-rate-${d.name}`);
        const accounts = ratelimit ? { CONTRACTS_RATELIMIT_USER_ID: rate!.user, CONTRACTS_RATELIMIT_API_KEY: rate!.key, CONTRACTS_RATE_LIMIT: String(RATE_LIMIT) } : settings;
        const report = await runKit(buildConfig(mergeSettings(accounts, {
          CONTRACTS_BASE_URL: proxy.url, CONTRACTS_AREAS: d.area, CONTRACTS_ALLOW_WRITES: "1", CONTRACTS_ALLOW_DELETES: "1", CONTRACTS_SEED: "7", ...d.settings,
        }), 7));
        const failed = report.results.filter((r) => r.outcome === "fail");
        expect(failed.filter((r) => r.name.includes(d.caughtBy)).length).toBeGreaterThan(0);
        // A check of an addition or of nested bounds comes with a deviation that only it catches.
        if (d.area === "extensions" || d.alone) expect(failed.map((r) => r.name)).toEqual([expect.stringContaining(d.caughtBy)]);
        expect(failed.every((r) => r.area === d.area)).toBe(true);
        expect(report.results.filter((r) => r.outcome === "error").map((r) => r.detail)).toEqual([]);
        // A failure shows the request as a runnable curl line with the key replaced by its variable.
        for (const f of failed) expect(f.detail).toContain("curl -i -X ");
        // A failing property names its seed and shows the shrunk counterexample's request.
        for (const p of failed.filter((r) => r.tags.includes("property"))) expect(p.detail).toMatch(/seed \d+[\s\S]*counterexample: [\s\S]*curl -i/);
        if (d.name === "page-repeats-item") expect(failed.some((r) => r.tags.includes("property"))).toBe(true);
        // Records made with a success status other than 201 are deleted all the same, and the bounds'
        // edges are not split further for a refusal that is none: the run keeps within its budget.
        if (d.name === "created-200") {
          expect(failed.some((r) => r.reason === "POST /v2/inventory/miscs answered 200 where the document says 201")).toBe(true);
          expect(Math.max(...Object.values(report.calls))).toBeLessThanOrEqual(450);
          const miscs = await (await fetch(`${main.url}/v2/inventory/miscs?limit=50`, { headers: { Authorization: auth(settings.CONTRACTS_USER_ID!, settings.CONTRACTS_API_KEY!) } })).json();
          expect(miscs.map((m: { name: string }) => m.name).filter((n: string) => n.startsWith("contracts-kit-"))).toEqual([]);
        }
        const out = junitXml(report) + jsonReport(report);
        for (const s of secrets) expect(out.includes(s)).toBe(false);
      } finally {
        proxy.stop();
      }
    }, 60_000);
  }
});
