// The contract kit against our own server process (as deployed, and from sources on PostgreSQL): the
// whole kit must pass, and each planted deviation (contracts/selftest) must be reported as a failure
// in its area.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig, jsonReport, junitXml, mergeSettings, runKit, type RunReport } from "../contracts/kit.ts";
import type { AreaName } from "../contracts/config.ts";
import { startDeviationProxy } from "../contracts/selftest/proxy.ts";
import { DEVIATIONS } from "../contracts/selftest/deviations.ts";
import { importDocument } from "../contracts/selftest/dataset.ts";
import { basicCredential } from "../contracts/redact.ts";
import { freshPostgres, type Database } from "./helpers/stores.ts";
import { deployedBuild } from "./helpers/process.ts";

/** The areas our server implements: the kit runs every one of them against it. */
const ENABLED_AREAS: AreaName[] = ["auth", "errors", "isolation", "readings", "lists", "batches", "recipes", "inventory", "v1", "ratelimit"];

const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;
const SEED = "20261122";
const RATE_LIMIT = 20;
const READ_SCOPES = "recipes.read,batches.read,inventory.read";

// The SQLite servers run the deployed bundle (scripts/build.ts), the PostgreSQL ones the sources: the
// kit passes on both ways of running the server.
const SOURCES = join(ROOT, "src", "cli", "main.ts");
let build: Awaited<ReturnType<typeof deployedBuild>>;

interface Server { url: string; proc: ReturnType<typeof Bun.spawn>; env: Record<string, string>; main: string }
const dir = mkdtempSync(join(tmpdir(), "contracts-kit-"));
const settings: Record<string, string> = {};
const secrets: string[] = [];
let main: Server;
let limited: Server;
const rateKeys: { user: string; key: string }[] = [];

function cli(s: Server, ...args: string[]): string {
  const p = Bun.spawnSync([BUN, s.main, ...args], { cwd: ROOT, env: { ...process.env, ...s.env } });
  if (p.exitCode !== 0) throw new Error(`brewrecords ${args.join(" ")} failed: ${p.stderr.toString()}`);
  return p.stdout.toString().trim();
}

/** Creates the account, its key and its data; returns the key. */
function account(s: Server, user: string, scopes: string, data?: object, v1 = false): string {
  cli(s, "user", "add", user);
  const key = cli(s, "key", "generate", user, "--scopes", scopes, ...(v1 ? ["--api-version", "1"] : []));
  secrets.push(key, basicCredential(user, key));
  if (data) {
    const file = join(dir, `${user}.json`);
    writeFileSync(file, JSON.stringify(data));
    cli(s, "import", user, file);
  }
  return key;
}

/** A server's database and environment; accounts are made before it listens. */
function prepare(name: string, perHour: number, main: string, databaseUrl = join(dir, `${name}.sqlite`)): Server {
  const env = { DATABASE_URL: databaseUrl, DEMO: "0", HOST: "127.0.0.1", PORT: "0", RATE_LIMIT_V2_PER_HOUR: String(perHour), RATE_LIMIT_V1_PER_HOUR: String(perHour) };
  return { url: "", proc: undefined as never, env, main };
}

async function listen(s: Server): Promise<Server> {
  const proc = Bun.spawn([BUN, s.main, "serve"], { cwd: ROOT, env: { ...process.env, ...s.env }, stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let out = "";
  const deadline = Date.now() + 20_000;
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { ...s, proc, url: out.match(/listening on (http:\/\/\S+)/)![1]! };
}

/** The kit's accounts and data on a server's database; their credentials go into `into`. */
function populate(e: Server, into: Record<string, string>): void {
  const put = (user: string, key: string, userVar: string, keyVar: string) => { into[userVar] = user; into[keyVar] = key; };
  put("kit-main", account(e, "kit-main", "all", importDocument("main", 14)), "CONTRACTS_USER_ID", "CONTRACTS_API_KEY");
  put("kit-readonly", account(e, "kit-readonly", READ_SCOPES, importDocument("readonly", 2)), "CONTRACTS_READONLY_USER_ID", "CONTRACTS_READONLY_API_KEY");
  put("kit-other", account(e, "kit-other", "all", importDocument("other", 3)), "CONTRACTS_OTHER_USER_ID", "CONTRACTS_OTHER_API_KEY");
  put("kit-nodelete", account(e, "kit-nodelete", `${READ_SCOPES},recipes.write,batches.write,inventory.write`), "CONTRACTS_NODELETE_USER_ID", "CONTRACTS_NODELETE_API_KEY");
  put("kit-v1", account(e, "kit-v1", "all", importDocument("v1", 9), true), "CONTRACTS_V1_USER_ID", "CONTRACTS_V1_API_KEY");
}

beforeAll(async () => {
  build = await deployedBuild();
  main = prepare("main", 1_000_000, build.main);
  populate(main, settings);
  limited = prepare("limited", RATE_LIMIT, build.main);
  for (const user of ["kit-rate-1", "kit-rate-2", "kit-rate-3"]) rateKeys.push({ user, key: account(limited, user, "all") });
  main = await listen(main);
  limited = await listen(limited);
}, 120_000);

afterAll(async () => {
  main?.proc?.kill();
  limited?.proc?.kill();
  await Promise.all([main?.proc?.exited, limited?.proc?.exited]);
  build?.remove();
  rmSync(dir, { recursive: true, force: true });
});

function config(extra: Record<string, string>, accounts = settings, baseUrl = main.url) {
  return buildConfig(mergeSettings(accounts, {
    CONTRACTS_BASE_URL: baseUrl, CONTRACTS_ALLOW_WRITES: "1", CONTRACTS_ALLOW_DELETES: "1", CONTRACTS_SEED: SEED, ...extra,
  }), Number(SEED));
}

/** A key of the rate-limited server nothing has used yet: its hour starts with the kit's first call. */
function rateKey(): Record<string, string> {
  const k = rateKeys.shift();
  if (!k) throw new Error("no unused rate-limit key left");
  return { CONTRACTS_RATELIMIT_USER_ID: k.user, CONTRACTS_RATELIMIT_API_KEY: k.key, CONTRACTS_RATE_LIMIT: String(RATE_LIMIT) };
}

const problems = (r: RunReport) => r.results.filter((x) => x.outcome === "fail" || x.outcome === "error").map((x) => `${x.outcome}: ${x.name}\n${x.detail}`);

describe("the kit against our server", () => {
  test("every enabled area passes with zero failures, errors and skips", async () => {
    const areas = ENABLED_AREAS.filter((a) => a !== "ratelimit");
    const report = await runKit(config({ CONTRACTS_AREAS: areas.join(","), CONTRACTS_MAX_CALLS: "5000", CONTRACTS_DELETABLE_BATCH_ID: "main-batch-13" }));
    expect(problems(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === "skip").map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
    expect(new Set(report.results.map((r) => r.area))).toEqual(new Set(areas));
  }, 120_000);

  test.skipIf(!ENABLED_AREAS.includes("ratelimit"))(`the rate-limit area passes on a server allowing ${RATE_LIMIT} calls per hour`, async () => {
    const report = await runKit(config({ CONTRACTS_BASE_URL: limited.url, CONTRACTS_AREAS: "ratelimit", ...rateKey() }));
    expect(problems(report)).toEqual([]);
    expect(report.results.map((r) => r.outcome)).toEqual(["pass", "pass", "pass"]);
  }, 60_000);
});

// The same kit against the same server on the PostgreSQL store: every rule behaves alike on both.
describe("the kit against our server on PostgreSQL", () => {
  const pgSettings: Record<string, string> = {};
  const databases: Database[] = [];
  let pgMain: Server;
  let pgLimited: Server;
  const pgRateKeys: { user: string; key: string }[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) databases.push(await freshPostgres());
    pgMain = prepare("pg-main", 1_000_000, SOURCES, databases[0]!.url);
    populate(pgMain, pgSettings);
    pgLimited = prepare("pg-limited", RATE_LIMIT, SOURCES, databases[1]!.url);
    for (const user of ["kit-rate-1", "kit-rate-2"]) pgRateKeys.push({ user, key: account(pgLimited, user, "all") });
    pgMain = await listen(pgMain);
    pgLimited = await listen(pgLimited);
  }, 180_000);

  afterAll(async () => {
    pgMain?.proc?.kill();
    pgLimited?.proc?.kill();
    await Promise.all([pgMain?.proc?.exited, pgLimited?.proc?.exited]);
    for (const d of databases) await d.drop();
  });

  test("every enabled area passes with zero failures, errors and skips", async () => {
    const areas = ENABLED_AREAS.filter((a) => a !== "ratelimit");
    const report = await runKit(config({ CONTRACTS_AREAS: areas.join(","), CONTRACTS_MAX_CALLS: "5000", CONTRACTS_DELETABLE_BATCH_ID: "main-batch-13" }, pgSettings, pgMain.url));
    expect(problems(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === "skip").map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
  }, 180_000);

  test(`the rate-limit area passes on a server allowing ${RATE_LIMIT} calls per hour`, async () => {
    const k = pgRateKeys.shift()!;
    const report = await runKit(config({ CONTRACTS_AREAS: "ratelimit", CONTRACTS_RATELIMIT_USER_ID: k.user, CONTRACTS_RATELIMIT_API_KEY: k.key, CONTRACTS_RATE_LIMIT: String(RATE_LIMIT) }, pgSettings, pgLimited.url));
    expect(problems(report)).toEqual([]);
    expect(report.results.map((r) => r.outcome)).toEqual(["pass", "pass", "pass"]);
  }, 60_000);
});

describe("the kit's own rules", () => {
  test("with CONTRACTS_SKIP_TAGS=text a wrong error text is no failure, and the checks say they compared the status only", async () => {
    const proxy = startDeviationProxy({ target: main.url, deviation: "invalid-status-text" });
    try {
      const report = await runKit(config({ CONTRACTS_BASE_URL: proxy.url, CONTRACTS_AREAS: "batches", CONTRACTS_SKIP_TAGS: "text" }));
      expect(problems(report)).toEqual([]);
      const status = report.results.filter((r) => r.name.startsWith("PATCH status=\"Done\""));
      expect(status.map((r) => [r.outcome, r.name.endsWith("(status only: text skipped)")])).toEqual([["pass", true]]);
    } finally {
      proxy.stop();
    }
  }, 60_000);

  test("a 429 longer than the kit may wait turns the remaining checks into skips, not failures", async () => {
    const key = rateKey();
    const report = await runKit(config({
      CONTRACTS_BASE_URL: limited.url, CONTRACTS_AREAS: "errors", CONTRACTS_MAX_WAIT_SECONDS: "0",
      CONTRACTS_USER_ID: key.CONTRACTS_RATELIMIT_USER_ID!, CONTRACTS_API_KEY: key.CONTRACTS_RATELIMIT_API_KEY!,
    }));
    expect(problems(report)).toEqual([]);
    const skipped = report.results.filter((r) => r.outcome === "skip");
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.map((r) => r.reason?.replace(/\d+ s/, "N s"))).toEqual(skipped.map(() => "rate limited: Retry-After N s is longer than CONTRACTS_MAX_WAIT_SECONDS=0"));
    expect(report.results.length - skipped.length).toBeGreaterThanOrEqual(RATE_LIMIT - 8);
  }, 60_000);
});

describe("each planted deviation is reported as a failure in its area", () => {
  for (const d of DEVIATIONS) {
    test.skipIf(!ENABLED_AREAS.includes(d.area))(`${d.name} (${d.what}) fails the ${d.area} area`, async () => {
      const limitedArea = d.area === "ratelimit";
      const upstream = limitedArea ? limited.url : main.url;
      const otherAuthorization = `Basic ${basicCredential(settings.CONTRACTS_OTHER_USER_ID!, settings.CONTRACTS_OTHER_API_KEY!)}`;
      const proxy = startDeviationProxy({ target: upstream, deviation: d.name, otherAuthorization });
      try {
        const report = await runKit(config({ CONTRACTS_BASE_URL: proxy.url, CONTRACTS_AREAS: d.area, CONTRACTS_MAX_CALLS: "800", ...(limitedArea ? rateKey() : {}) }));
        const failed = report.results.filter((r) => r.outcome === "fail");
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.every((r) => r.area === d.area)).toBe(true);
        expect(report.results.filter((r) => r.outcome === "error")).toEqual([]);
        // A failure shows the request as a runnable curl line with the key replaced by its variable.
        expect(failed[0]!.detail).toContain("curl -i -X ");
        // A failing property names its seed and shows the shrunk counterexample's request.
        for (const p of failed.filter((r) => r.tags.includes("property"))) expect(p.detail).toMatch(/seed \d+[\s\S]*counterexample: [\s\S]*curl -i/);
        if (d.name === "page-repeats-item") expect(failed.some((r) => r.tags.includes("property"))).toBe(true);
        const out = junitXml(report) + jsonReport(report);
        for (const s of secrets) expect(out.includes(s)).toBe(false);
      } finally {
        proxy.stop();
      }
    }, 60_000);
  }
});

describe("the runner", () => {
  // Asynchronous: a proxy in this process must keep answering while the child runs.
  const spawn = async (cmd: string[], env: Record<string, string>) => {
    const p = Bun.spawn(cmd, { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, out: out + err };
  };
  const run = (args: string[], env: Record<string, string> = {}) => spawn([BUN, "contracts/run.ts", ...args], { ...settings, ...env });

  test("exit 0 on a passing run, with the summary table and both reports written", async () => {
    const junit = join(dir, "pass.xml");
    const json = join(dir, "pass.json");
    const r = await run(["--base-url", main.url, "--areas", "errors,readings", "--junit", junit, "--json", json]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^errors\s+39\s+0\s+0\s+0\s+\d+$/m);
    expect(await Bun.file(junit).text()).toContain('<testsuite name="errors" tests="39" failures="0"');
    expect((await Bun.file(json).json()).exitCode).toBe(0);
    for (const s of secrets) expect(r.out.includes(s)).toBe(false);
  }, 60_000);

  test("exit 1 when a check fails, with the failing request redacted", async () => {
    const proxy = startDeviationProxy({ target: main.url, deviation: "direction-accepts-anything" });
    try {
      const r = await run(["--base-url", proxy.url, "--areas", "errors"]);
      expect(r.code).toBe(1);
      expect(r.out).toContain("FAIL [errors] GET /v2/batches?order_by_direction=sideways");
      expect(r.out).toContain("$CONTRACTS_API_KEY");
      for (const s of secrets) expect(r.out.includes(s)).toBe(false);
    } finally {
      proxy.stop();
    }
  }, 60_000);

  test("exit 2 on a bad configuration and on an unreachable target", async () => {
    expect((await run(["--base-url", main.url, "--areas", "nonsense"])).code).toBe(2);
    expect((await run(["--areas", "errors"], { CONTRACTS_BASE_URL: "" })).code).toBe(2);
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const r = await run(["--base-url", url]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("target unreachable");
  }, 60_000);

  test("flags win over the environment, which wins over the config file", async () => {
    const file = join(dir, "config.json");
    await Bun.write(file, JSON.stringify({ CONTRACTS_BASE_URL: "http://file.invalid", CONTRACTS_SEED: "1", CONTRACTS_MAX_CALLS: "7" }));
    const r = await run(["--config", file, "--seed", "3", "--areas", "errors", "--max-calls", "1"], { CONTRACTS_BASE_URL: main.url, CONTRACTS_SEED: "2" });
    expect(r.out).toContain(`contracts: ${main.url} · areas errors · seed 3 · budget 1 calls per key`);
    // The preflight call spends the budget of 1 with no key; the main key's first check gets its call.
    expect(r.out).toContain("skip [errors] GET /v2/recipes?order_by_direction=sideways");
    expect(r.out).toContain("(call budget reached (1 calls with the main key))");
  }, 60_000);

  test("bun test ./contracts runs the kit from the environment and exits 0 only without failures", async () => {
    const env = { ...settings, CONTRACTS_BASE_URL: main.url, CONTRACTS_AREAS: "errors" };
    const ok = await spawn([BUN, "test", "./contracts"], env);
    expect(ok.out).toContain(" 39 pass");
    expect(ok.code).toBe(0);
    const proxy = startDeviationProxy({ target: main.url, deviation: "direction-accepts-anything" });
    try {
      const bad = await spawn([BUN, "test", "./contracts"], { ...env, CONTRACTS_BASE_URL: proxy.url });
      expect(bad.out).toContain(" 13 fail");
      expect(bad.code).toBe(1);
    } finally {
      proxy.stop();
    }
  }, 60_000);
});
