// `bun test ./contracts`: runs the whole kit with the CONTRACTS_* environment and reports each
// check as one test (skips carry their reason). The run happens once, before the tests register,
// because a check's outcome, skip included, is only known after it ran.
import { describe, expect, test } from "bun:test";
import { configFromEnv, runKit, summaryTable, type RunReport } from "./kit.ts";

let report: RunReport | undefined;
let broken: unknown;
try {
  report = await runKit(await configFromEnv());
} catch (e) {
  broken = e;
}

if (!report) {
  test("the kit is configured and the target answers (see contracts/README.md)", () => {
    throw broken instanceof Error ? broken : new Error(String(broken));
  });
} else {
  console.log(summaryTable(report));
  const areas = [...new Set(report.results.map((r) => r.area))];
  for (const area of areas) {
    describe(area, () => {
      for (const r of report!.results.filter((x) => x.area === area)) {
        if (r.outcome === "skip") test.skip(`${r.name} (skipped: ${r.reason})`, () => {});
        else test(r.name, () => {
          if (r.outcome !== "pass") throw new Error(`${r.outcome === "error" ? "kit error" : "does not conform"}: ${r.detail ?? r.reason}`);
          expect(r.outcome).toBe("pass");
        });
      }
    });
  }
}
