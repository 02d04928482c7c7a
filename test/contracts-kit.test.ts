// The contract kit against our own server process (as deployed, and from sources on PostgreSQL): the
// whole kit must pass with the full set of keys, and with one all-scope key on an empty account; a
// refused key stops the run. The planted deviations are in contracts-selftest.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig, mergeSettings, runKit, summaryTable, type RunReport } from "../contracts/kit.ts";
import { DOCUMENTED_AREAS } from "../contracts/config.ts";
import { PreflightError } from "../contracts/engine.ts";
import { startDeviationProxy } from "../contracts/selftest/proxy.ts";
import { DROP_TIMEOUT_MS, freshPostgres, type Database } from "./helpers/stores.ts";
import { deployedBuild } from "./helpers/process.ts";
import { account, listen, populate, prepare, secrets, SOURCES, stop, type KitServer } from "./helpers/contracts-server.ts";

const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;
const SEED = "20261122";
const RATE_LIMIT = 20;
/** Every documented area but the rate limit, which needs a server of its own. */
const AREAS = DOCUMENTED_AREAS.filter((a) => a !== "ratelimit");
/** Data the API cannot make, named for the full runs: a batch to delete and one without a tracker. */
const BATCH_DATA = { CONTRACTS_DELETABLE_BATCH_ID: "main-batch-13", CONTRACTS_UNTRACKED_BATCH_ID: "main-batch-01" };

const dir = mkdtempSync(join(tmpdir(), "contracts-kit-"));
const settings: Record<string, string> = {};
let build: Awaited<ReturnType<typeof deployedBuild>>;
let main: KitServer;
let limited: KitServer;
const rateKeys: { user: string; key: string }[] = [];
let emptyKey = "";

beforeAll(async () => {
  build = await deployedBuild();
  main = prepare(dir, "main", 1_000_000, build.main);
  populate(main, settings);
  emptyKey = account(main, "kit-empty", "all");
  limited = prepare(dir, "limited", RATE_LIMIT, build.main);
  for (const user of ["kit-rate-1", "kit-rate-2", "kit-rate-3"]) rateKeys.push({ user, key: account(limited, user, "all") });
  main = await listen(main);
  limited = await listen(limited);
}, 120_000);

afterAll(async () => {
  await Promise.all([stop(main), stop(limited)]);
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
const skips = (r: RunReport) => r.results.filter((x) => x.outcome === "skip").map((x) => `${x.name}: ${x.reason}`);
const totalCalls = (r: RunReport) => Object.values(r.calls).reduce((a, b) => a + b, 0);

describe("the kit against our server", () => {
  test("every documented area passes at the default call budget with the full set of keys, every property runs", async () => {
    const report = await runKit(config({ CONTRACTS_AREAS: AREAS.join(","), ...BATCH_DATA, CONTRACTS_DELETABLE_BATCH_ID: "main-batch-12" }));
    if (process.env.KIT_DEBUG) console.log(summaryTable(report), skips(report));
    expect(problems(report)).toEqual([]);
    // Every area runs: each gets its share of the main key's budget and passes checks within it.
    expect(new Set(report.results.filter((r) => r.outcome === "pass").map((r) => r.area))).toEqual(new Set(AREAS));
    for (const r of report.results.filter((x) => x.outcome === "skip")) expect(r.reason).toMatch(/call budget/);
    // The summary says how many the budget left unrun, and how to run them.
    const unrun = report.results.filter((x) => x.outcome === "skip").length;
    expect(unrun).toBeGreaterThan(0);
    expect(summaryTable(report)).toContain(`${unrun} check(s) not run for the call budget: "0 failed" does not cover them; CONTRACTS_MAX_CALLS=5000`);
    // The small fixed cases run at any budget; properties shrink instead of being skipped.
    expect(report.results.filter((r) => r.tags.includes("property") && r.outcome !== "pass").map((r) => r.name)).toEqual([]);
    expect(report.results.filter((r) => r.name.includes("a field with ties")).map((r) => r.outcome)).toEqual(Array(12).fill("pass"));
    // The nested bounds' edges run at any budget; their first values outside shrink to a sample.
    const nested = report.results.filter((r) => r.tags.includes("sampled") || r.name.includes("at its inclusive edges"));
    expect(nested.map((r) => [r.area, r.tags[0], r.outcome])).toEqual([
      ["recipes", "always", "pass"], ["recipes", "sampled", "pass"], ["inventory", "always", "pass"], ["inventory", "sampled", "pass"],
    ]);
    // Essential calls (restoring, deleting, cleanup) come out of calls set aside: the run stays within the default 450.
    expect(Math.max(...Object.values(report.calls))).toBeLessThanOrEqual(450);
    // The summary's calls per key count every call the kit made: preflight, setup and cleanup too.
    expect(totalCalls(report)).toBe(Object.values(report.callsByArea).reduce((a, b) => a + b, 0));
  }, 120_000);

  test("with a budget of 5000 calls every documented area passes with nothing skipped", async () => {
    const report = await runKit(config({ CONTRACTS_AREAS: AREAS.join(","), CONTRACTS_MAX_CALLS: "5000", ...BATCH_DATA }));
    expect(problems(report)).toEqual([]);
    expect(skips(report)).toEqual([]);
  }, 120_000);

  test("one all-scope key on an empty account: no failure, list and paging checks of recipes and inventory run on records the kit makes, skips name the data they need", async () => {
    // Making more than 50 records and deleting them again takes a fifth of the default budget: room is given for it.
    const report = await runKit(config({ CONTRACTS_AREAS: AREAS.join(","), CONTRACTS_USER_ID: "kit-empty", CONTRACTS_API_KEY: emptyKey, CONTRACTS_MAX_CALLS: "1000" }, {}));
    if (process.env.KIT_DEBUG) console.log(summaryTable(report), skips(report));
    expect(problems(report)).toEqual([]);
    const madeHere = report.results.filter((r) => r.area === "lists" && /GET \/v2\/(recipes|inventory)/.test(r.name));
    expect(madeHere.length).toBeGreaterThan(60);
    expect(madeHere.filter((r) => r.outcome !== "pass").map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
    expect(report.results.find((r) => r.name.startsWith("GET of a list of more than 50 records"))?.outcome).toBe("pass");
    // Every skip says why: a missing account or setting, or data the API cannot make.
    for (const r of report.results.filter((x) => x.outcome === "skip")) expect(r.reason).toMatch(/^(no \w+ account configured|needs .+|.*CONTRACTS_\w+.*)$/);
    expect(summaryTable(report)).toContain("data that would enable the skipped checks:\n- a batch in the main account");
    // What the kit made is gone again.
    const auth = `Basic ${Buffer.from(`kit-empty:${emptyKey}`).toString("base64")}`;
    for (const path of ["/v2/recipes", "/v2/inventory/miscs", "/v2/inventory/hops"]) {
      expect(await (await fetch(`${main.url}${path}`, { headers: { Authorization: auth } })).json()).toEqual([]);
    }
  }, 120_000);

  test("a read-scoped main key: no failure; the error checks that write or delete skip, saying the key lacks the scope", async () => {
    const report = await runKit(config({ CONTRACTS_AREAS: "errors", CONTRACTS_USER_ID: settings.CONTRACTS_READONLY_USER_ID!, CONTRACTS_API_KEY: settings.CONTRACTS_READONLY_API_KEY! }, {}));
    expect(problems(report)).toEqual([]);
    const writes = report.results.filter((r) => /^(PATCH|DELETE) /.test(r.name));
    expect(writes.length).toBe(24);
    for (const r of writes) expect([r.name, r.outcome, r.reason]).toEqual([r.name, "skip", expect.stringMatching(/^the main key lacks the (write|delete) scope \(403, which comes before 400 and 404 \[Authentication\]\)/)]);
    expect(report.results.filter((r) => r.name.startsWith("GET ") && r.outcome === "pass").length).toBeGreaterThan(5);
  }, 60_000);

  test("another account's own copy of a shared catalog item is no isolation failure: the checks read its own records", async () => {
    const otherKey = account(main, "kit-other-catalog", "all");
    const auth = `Basic ${Buffer.from(`kit-other-catalog:${otherKey}`).toString("base64")}`;
    // Its own copy of a catalog yeast, which every account may read, is its only yeast: the kit makes
    // one of its own to read instead.
    const res = await fetch(`${main.url}/v2/inventory/yeasts/default-01e871af09c`, { method: "PATCH", headers: { Authorization: auth, "content-type": "application/json" }, body: JSON.stringify({ inventory: 3 }) });
    expect(res.status).toBe(200);
    expect((await (await fetch(`${main.url}/v2/inventory/yeasts`, { headers: { Authorization: auth } })).json()).map((y: { _id: string }) => y._id)).toEqual(["default-01e871af09c"]);
    const report = await runKit(config({ CONTRACTS_AREAS: "isolation", CONTRACTS_OTHER_USER_ID: "kit-other-catalog", CONTRACTS_OTHER_API_KEY: otherKey }));
    expect(problems(report)).toEqual([]);
    expect(report.results.find((r) => r.name.startsWith("GET /v2/inventory/yeasts/{id} with another account's id"))?.outcome).toBe("pass");
  }, 60_000);

  test("the v1 area leaves a fermentable whose stock is not a number as it was, and checks one that has a number", async () => {
    const data = {
      batches: [{ _id: "v1null-b1", name: "Planned", status: "Planning" }],
      recipes: [{ _id: "v1null-r1", name: "Recipe" }],
      // The first listed has no stock a PATCH could put back; the second has one.
      fermentables: [{ _id: "a-no-stock", name: "No stock", inventory: null }, { _id: "b-stock", name: "Stock", inventory: 4 }],
      hops: [{ _id: "v1null-h1", name: "Hop", inventory: 1 }],
    };
    const key = account(main, "kit-v1-null", "all", data, true);
    const report = await runKit(config({ CONTRACTS_AREAS: "v1", CONTRACTS_V1_USER_ID: "kit-v1-null", CONTRACTS_V1_API_KEY: key }));
    expect(problems(report)).toEqual([]);
    expect(report.results.find((r) => r.name.includes("inventory wins"))?.outcome).toBe("pass");
    const auth = `Basic ${Buffer.from(`kit-v1-null:${key}`).toString("base64")}`;
    const stock = async (id: string) => (await (await fetch(`${main.url}/v1/inventory/fermentables/${id}`, { headers: { Authorization: auth } })).json()).inventory;
    expect([await stock("a-no-stock"), await stock("b-stock")]).toEqual([null, 4]);
  }, 60_000);

  test("a read-only key that may write after all: the auth checks fail, and what it made in its account is deleted", async () => {
    const key = account(main, "kit-ro-writes", "all");
    const report = await runKit(config({ CONTRACTS_AREAS: "auth", CONTRACTS_READONLY_USER_ID: "kit-ro-writes", CONTRACTS_READONLY_API_KEY: key }));
    expect(report.results.filter((r) => r.outcome === "fail").length).toBeGreaterThan(0);
    const auth = `Basic ${Buffer.from(`kit-ro-writes:${key}`).toString("base64")}`;
    for (const path of ["/v2/recipes", ...["fermentables", "hops", "miscs", "yeasts"].map((c) => `/v2/inventory/${c}`)]) {
      const names = (await (await fetch(`${main.url}${path}?limit=50`, { headers: { Authorization: auth } })).json()).map((e: { name?: string }) => String(e.name));
      expect([path, names.filter((n: string) => n.startsWith("contracts-kit-"))]).toEqual([path, []]);
    }
  }, 60_000);

  test("no key at all: the checks that need none run, and the summary says the rest did not for want of a key", async () => {
    const report = await runKit(config({ CONTRACTS_AREAS: AREAS.join(",") }, {}));
    expect(problems(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === "pass").length).toBeGreaterThan(0);
    expect(summaryTable(report)).toContain("no main key given (CONTRACTS_USER_ID, CONTRACTS_API_KEY): only the checks that need no key ran");
    expect(summaryTable(await runKit(config({ CONTRACTS_AREAS: "errors" })))).not.toContain("no main key given");
  }, 60_000);

  test("a refused main key stops the run before any verdict, naming the key", async () => {
    const run = runKit(config({ CONTRACTS_AREAS: AREAS.join(","), CONTRACTS_API_KEY: `${settings.CONTRACTS_API_KEY}x` }));
    await expect(run).rejects.toBeInstanceOf(PreflightError);
    await expect(run).rejects.toThrow("CONTRACTS_USER_ID/CONTRACTS_API_KEY (main key): the credentials were refused (401)");
  }, 60_000);

  test(`the rate-limit area passes on a server allowing ${RATE_LIMIT} calls per hour, the preflight's call counted`, async () => {
    const report = await runKit(config({ CONTRACTS_AREAS: "ratelimit", ...rateKey() }, {}, limited.url));
    expect(problems(report)).toEqual([]);
    expect(report.results.map((r) => r.outcome)).toEqual(["pass", "pass", "pass"]);
    expect(report.calls.ratelimit).toBe(RATE_LIMIT + 1);
  }, 60_000);
});

// The same kit against the same server on the PostgreSQL store: every rule behaves alike on both.
describe("the kit against our server on PostgreSQL", () => {
  const pgSettings: Record<string, string> = {};
  const databases: Database[] = [];
  let pgMain: KitServer;
  let pgLimited: KitServer;
  const pgRateKeys: { user: string; key: string }[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) databases.push(await freshPostgres());
    pgMain = prepare(dir, "pg-main", 1_000_000, SOURCES, databases[0]!.url);
    populate(pgMain, pgSettings);
    pgLimited = prepare(dir, "pg-limited", RATE_LIMIT, SOURCES, databases[1]!.url);
    for (const user of ["kit-rate-1"]) pgRateKeys.push({ user, key: account(pgLimited, user, "all") });
    pgMain = await listen(pgMain);
    pgLimited = await listen(pgLimited);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([stop(pgMain), stop(pgLimited)]);
    for (const d of databases) await d.drop();
  }, DROP_TIMEOUT_MS);

  test("every documented area passes with nothing skipped", async () => {
    const report = await runKit(config({ CONTRACTS_AREAS: AREAS.join(","), CONTRACTS_MAX_CALLS: "5000", ...BATCH_DATA }, pgSettings, pgMain.url));
    expect(problems(report)).toEqual([]);
    expect(skips(report)).toEqual([]);
  }, 180_000);

  test("the extensions area (CONTRACTS_EXTENSIONS=1) passes with nothing skipped", async () => {
    const report = await runKit(config({ CONTRACTS_EXTENSIONS: "1", CONTRACTS_AREAS: "extensions" }, pgSettings, pgMain.url));
    expect(problems(report)).toEqual([]);
    expect(skips(report)).toEqual([]);
  }, 180_000);

  test(`the rate-limit area passes on a server allowing ${RATE_LIMIT} calls per hour`, async () => {
    const k = pgRateKeys.shift()!;
    const report = await runKit(config({ CONTRACTS_AREAS: "ratelimit", CONTRACTS_RATELIMIT_USER_ID: k.user, CONTRACTS_RATELIMIT_API_KEY: k.key, CONTRACTS_RATE_LIMIT: String(RATE_LIMIT) }, {}, pgLimited.url));
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
      CONTRACTS_AREAS: "errors", CONTRACTS_MAX_WAIT_SECONDS: "0",
      CONTRACTS_USER_ID: key.CONTRACTS_RATELIMIT_USER_ID!, CONTRACTS_API_KEY: key.CONTRACTS_RATELIMIT_API_KEY!,
    }, {}, limited.url));
    expect(problems(report)).toEqual([]);
    const skipped = report.results.filter((r) => r.outcome === "skip");
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.map((r) => r.reason?.replace(/\d+ s/, "N s"))).toEqual(skipped.map(() => "rate limited: Retry-After N s is longer than CONTRACTS_MAX_WAIT_SECONDS=0"));
    // The preflight spent one of the hour's calls.
    expect(report.results.length - skipped.length).toBeGreaterThanOrEqual(RATE_LIMIT - 9);
  }, 60_000);

  test("the extensions area runs only with CONTRACTS_EXTENSIONS=1, and no documented area imports from it", async () => {
    expect(config({}).areas).toEqual([...DOCUMENTED_AREAS]);
    expect(config({ CONTRACTS_EXTENSIONS: "1" }).areas).toEqual([...DOCUMENTED_AREAS, "extensions"]);
    expect(() => config({ CONTRACTS_AREAS: "extensions" })).toThrow("set CONTRACTS_EXTENSIONS=1");
    const checks = join(ROOT, "contracts", "checks");
    for (const file of readdirSync(checks).filter((f) => f.endsWith(".ts"))) {
      expect(`${file}: ${readFileSync(join(checks, file), "utf8").includes("extensions/")}`).toBe(`${file}: false`);
    }
  }, 60_000);
});

describe("the extensions area against our server (CONTRACTS_EXTENSIONS=1)", () => {
  const auth = () => `Basic ${Buffer.from(`${settings.CONTRACTS_USER_ID}:${settings.CONTRACTS_API_KEY}`).toString("base64")}`;
  const names = async (path: string) =>
    ((await (await fetch(`${main.url}${path}?include=name&limit=50`, { headers: { Authorization: auth() } })).json()) as { name: string }[]).map((e) => e.name);

  test("every check of every addition passes at the default call budget, nothing skipped, and what the kit made is gone", async () => {
    const hooks = async () => (await (await fetch(`${main.url}/v2/webhooks`, { headers: { Authorization: auth() } })).json()) as unknown[];
    const before = { batches: await names("/v2/batches"), recipes: await names("/v2/recipes"), webhooks: await hooks() };
    const report = await runKit(config({ CONTRACTS_EXTENSIONS: "1", CONTRACTS_AREAS: "extensions" }));
    if (process.env.KIT_DEBUG) console.log(summaryTable(report), skips(report));
    expect(problems(report)).toEqual([]);
    expect(skips(report)).toEqual([]);
    expect(report.results.length).toBe(54);
    expect(Math.max(...Object.values(report.calls))).toBeLessThanOrEqual(450);
    expect({ batches: await names("/v2/batches"), recipes: await names("/v2/recipes"), webhooks: await hooks() }).toEqual(before);
  }, 120_000);

  test("with every documented area too, at the default call budget, every area passes checks, and skips are the budget's only", async () => {
    const report = await runKit(config({ CONTRACTS_EXTENSIONS: "1", CONTRACTS_AREAS: [...AREAS, "extensions"].join(","), ...BATCH_DATA, CONTRACTS_DELETABLE_BATCH_ID: "main-batch-11" }));
    expect(problems(report)).toEqual([]);
    expect(new Set(report.results.filter((r) => r.outcome === "pass").map((r) => r.area))).toEqual(new Set([...AREAS, "extensions"]));
    for (const r of report.results.filter((x) => x.outcome === "skip")) expect(r.reason).toMatch(/call budget/);
    // The summary says how many the budget left unrun, and how to run them.
    const unrun = report.results.filter((x) => x.outcome === "skip").length;
    expect(unrun).toBeGreaterThan(0);
    expect(summaryTable(report)).toContain(`${unrun} check(s) not run for the call budget: "0 failed" does not cover them; CONTRACTS_MAX_CALLS=5000`);
    expect(Math.max(...Object.values(report.calls))).toBeLessThanOrEqual(450);
  }, 120_000);

  test("without CONTRACTS_LOGGING_ID the device posts skip naming the setting, and everything else passes", async () => {
    const report = await runKit(config({ CONTRACTS_EXTENSIONS: "1", CONTRACTS_AREAS: "extensions" }, { ...settings, CONTRACTS_LOGGING_ID: "" }));
    expect(problems(report)).toEqual([]);
    const skipped = report.results.filter((r) => r.outcome === "skip");
    expect(skipped.map((r) => r.name.match(/^POST \/(stream|ispindel|tilt)|^a post with an unknown/)?.[0])).toEqual(["POST /stream", "POST /ispindel", "POST /tilt", "a post with an unknown"]);
    for (const r of skipped) expect(r.reason).toBe("no logging id given (set CONTRACTS_LOGGING_ID)");
  }, 120_000);

  test("with one all-scope key on an empty account every addition passes and leaves nothing behind", async () => {
    const report = await runKit(config({ CONTRACTS_EXTENSIONS: "1", CONTRACTS_AREAS: "extensions", CONTRACTS_USER_ID: "kit-empty", CONTRACTS_API_KEY: emptyKey }, {}));
    expect(problems(report)).toEqual([]);
    // Only what needs another key, the logging id or a webhook receiver skips, and says so.
    for (const r of report.results.filter((x) => x.outcome === "skip")) expect(r.reason).toMatch(/^no readonly account configured$|CONTRACTS_LOGGING_ID|CONTRACTS_WEBHOOK_URL/);
    const empty = `Basic ${Buffer.from(`kit-empty:${emptyKey}`).toString("base64")}`;
    for (const path of ["/v2/batches", "/v2/recipes"]) expect(await (await fetch(`${main.url}${path}`, { headers: { Authorization: empty } })).json()).toEqual([]);
  }, 120_000);

  test("a target without the additions gets skips that say so, never failures", async () => {
    // Every path of the additions answers 404 there, as on a server that only follows the document.
    const proxy = startDeviationProxy({ target: main.url, deviation: "without-additions" });
    try {
      const report = await runKit(config({ CONTRACTS_BASE_URL: proxy.url, CONTRACTS_EXTENSIONS: "1", CONTRACTS_AREAS: "extensions" }));
      expect(problems(report)).toEqual([]);
      expect(report.results.filter((r) => r.outcome === "pass").map((r) => r.name)).toEqual([]);
      for (const r of report.results) expect(r.reason).toMatch(/does not offer|needs a batch made with POST \/v2\/batches/);
    } finally {
      proxy.stop();
    }
  }, 120_000);
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

  test("Ctrl-C mid-run: the checks not begun are skipped, what the kit made is deleted and the batch it changed restored, exit 130", async () => {
    const auth = `Basic ${Buffer.from(`${settings.CONTRACTS_USER_ID}:${settings.CONTRACTS_API_KEY}`).toString("base64")}`;
    const get = async (path: string) => (await fetch(`${main.url}${path}`, { headers: { Authorization: auth } })).json();
    const scratch = (await get("/v2/batches?limit=1"))[0]._id as string;
    const before = await get(`/v2/batches/${scratch}`);
    const p = Bun.spawn([BUN, "contracts/run.ts", "--base-url", main.url, "--areas", "batches,recipes,inventory", "--allow-writes", "--allow-deletes"], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...settings }, stdout: "pipe", stderr: "pipe",
    });
    // Interrupted once the batch PATCH checks have begun changing the scratch batch.
    let out = "";
    const reader = p.stdout.getReader();
    while (!out.includes("ok   [batches]")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    p.kill("SIGINT");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const err = await new Response(p.stderr).text();
    expect(await p.exited).toBe(130);
    expect(err).toContain("interrupted: what the kit changed is restored and what it made is deleted");
    expect(out).toContain("(the run was interrupted)");
    expect(out).not.toMatch(/^(ok  |FAIL) \[(recipes|inventory)\]/m);
    // Restored as the kit restores after every run: each member as it was, and a value it set where
    // there was none cleared with null (a PATCH cannot remove a member); server bookkeeping aside.
    const after = await get(`/v2/batches/${scratch}`);
    for (const [k, v] of Object.entries(before)) if (!k.startsWith("_")) expect([k, after[k]]).toEqual([k, v]);
    for (const k of Object.keys(after).filter((x) => !(x in before))) expect([k, after[k]]).toEqual([k, null]);
    for (const path of ["/v2/recipes", ...["fermentables", "hops", "miscs", "yeasts"].map((c) => `/v2/inventory/${c}`)]) {
      const names = (await get(`${path}?limit=50`)).map((e: { name?: string }) => String(e.name));
      expect([path, names.filter((n: string) => n.startsWith("contracts-kit-"))]).toEqual([path, []]);
    }
  }, 120_000);

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

  test("exit 2 on a bad configuration, an unreachable target and a refused key, with a line that says which", async () => {
    expect((await run(["--base-url", main.url, "--areas", "nonsense"])).code).toBe(2);
    expect((await run(["--areas", "errors"], { CONTRACTS_BASE_URL: "" })).code).toBe(2);
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const r = await run(["--base-url", url]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("target unreachable");
    const refused = await run(["--base-url", main.url, "--areas", "errors"], { CONTRACTS_OTHER_API_KEY: "wrong" });
    expect(refused.code).toBe(2);
    expect(refused.out).toContain("key refused, no checks run: CONTRACTS_OTHER_USER_ID/CONTRACTS_OTHER_API_KEY (other key): the credentials were refused (401)");
    expect(refused.out).not.toContain("FAIL");
  }, 60_000);

  test("flags win over the environment, which wins over the config file", async () => {
    const file = join(dir, "config.json");
    await Bun.write(file, JSON.stringify({ CONTRACTS_BASE_URL: "http://file.invalid", CONTRACTS_SEED: "1", CONTRACTS_MAX_CALLS: "7" }));
    const r = await run(["--config", file, "--seed", "3", "--areas", "errors", "--max-calls", "2"], { CONTRACTS_BASE_URL: main.url, CONTRACTS_SEED: "2" });
    expect(r.out).toContain(`contracts: ${main.url} · areas errors · seed 3 · budget 2 calls per key`);
    // The preflight spends one call of the main key; its first check gets the second.
    expect(r.out).toContain("skip [errors] GET /v2/recipes?order_by_direction=sideways");
    expect(r.out).toContain("(call budget reached (2 calls with the main key))");
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
