// Summary table per area, JUnit XML and a JSON report; all text here is already redacted.
import type { CheckResult, Outcome, RunReport } from "./engine.ts";

const OUTCOMES: Outcome[] = ["pass", "fail", "skip", "error"];

export function countByArea(results: CheckResult[]): Map<string, Record<Outcome, number>> {
  const out = new Map<string, Record<Outcome, number>>();
  for (const r of results) {
    const row = out.get(r.area) ?? { pass: 0, fail: 0, skip: 0, error: 0 };
    row[r.outcome]++;
    out.set(r.area, row);
  }
  return out;
}

export function summaryTable(report: RunReport): string {
  const counted = countByArea(report.results);
  // Setup (preflight, cleanup, the records the kit makes) has calls but no checks of its own.
  for (const name of Object.keys(report.callsByArea)) if (!counted.has(name)) counted.set(name, { pass: 0, fail: 0, skip: 0, error: 0 });
  const rows = [...counted];
  const total = { pass: 0, fail: 0, skip: 0, error: 0 };
  for (const [, row] of rows) for (const o of OUTCOMES) total[o] += row[o];
  const line = (name: string, r: Record<Outcome, number>, calls?: number) =>
    name.padEnd(12) + OUTCOMES.map((o) => String(r[o]).padStart(8)).join("") + (calls === undefined ? "" : String(calls).padStart(8));
  const calls = Object.entries(report.calls).map(([k, v]) => `${k} ${v}`).join(", ");
  return [
    "area".padEnd(12) + ["passed", "failed", "skipped", "errors", "calls"].map((h) => h.padStart(8)).join(""),
    ...rows.map(([name, r]) => line(name, r, report.callsByArea[name])),
    line("total", total, Object.values(report.callsByArea).reduce((a, b) => a + b, 0)),
    `seed ${report.seed} · calls per key: ${calls || "none"} · ${(report.ms / 1000).toFixed(1)} s`,
    ...(!report.mainKey ? ["no main key given (CONTRACTS_USER_ID, CONTRACTS_API_KEY): only the checks that need no key ran"] : []),
    ...budgetNote(report),
    ...dataNeeds(report),
  ].join("\n");
}

/** Checks the call budget left unrun: "0 failed" does not cover them, and a larger budget runs them. */
function budgetNote(report: RunReport): string[] {
  const n = report.results.filter((r) => r.outcome === "skip" && /call budget/.test(r.reason ?? "")).length;
  if (!n) return [];
  return [`${n} check(s) not run for the call budget: "0 failed" does not cover them; CONTRACTS_MAX_CALLS=5000, with keys nothing else uses for an hour on a target that allows it, runs them all (see "Call budget")`];
}

/** Which data, absent from the account and not makeable through the API, would enable which skipped checks. */
export function dataNeeds(report: RunReport): string[] {
  const byData = new Map<string, string[]>();
  for (const r of report.results) if (r.outcome === "skip" && r.data) byData.set(r.data, [...(byData.get(r.data) ?? []), `[${r.area}] ${r.name}`]);
  if (!byData.size) return [];
  const out = ["", "data that would enable the skipped checks:"];
  for (const [data, names] of byData) out.push(`- ${data}: ${names.length} check(s)`, ...names.map((n) => `    ${n}`));
  return out;
}

/** 0 all passed (skips allowed), 1 a check failed, 2 the kit itself broke. */
export function exitCode(report: RunReport): 0 | 1 | 2 {
  if (report.results.some((r) => r.outcome === "fail")) return 1;
  if (report.results.some((r) => r.outcome === "error")) return 2;
  return 0;
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

export function junitXml(report: RunReport): string {
  const suites = [...countByArea(report.results)].map(([area, c]) => {
    const cases = report.results.filter((r) => r.area === area).map((r) => {
      const head = `    <testcase classname="contracts.${xml(area)}" name="${xml(r.name)}" time="${(r.ms / 1000).toFixed(3)}"`;
      if (r.outcome === "pass") return `${head}/>`;
      const inner = r.outcome === "skip" ? `<skipped message="${xml(r.reason ?? "")}"/>`
        : `<${r.outcome === "fail" ? "failure" : "error"} message="${xml(r.reason ?? "")}">${xml(r.detail ?? "")}</${r.outcome === "fail" ? "failure" : "error"}>`;
      return `${head}>\n      ${inner}\n    </testcase>`;
    });
    const n = c.pass + c.fail + c.skip + c.error;
    return `  <testsuite name="${xml(area)}" tests="${n}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="brewing-records-contracts">\n${suites.join("\n")}\n</testsuites>\n`;
}

export function jsonReport(report: RunReport): string {
  const summary = Object.fromEntries(countByArea(report.results));
  return JSON.stringify({ ...report, summary, exitCode: exitCode(report) }, null, 2) + "\n";
}
