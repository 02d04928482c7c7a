import { join } from "node:path";
import { bundle, buildServer } from "../../scripts/build.ts";
import type { BenchData } from "./generate.ts";
import { freePort, type StartOptions } from "./procs.ts";
import type { Target } from "./scenarios.ts";

// How each measured process is started: the server as users run it, the reference, the peers.

const ROOT = join(import.meta.dir, "..", "..");
const BUN = process.execPath;
const BUILDS = join(ROOT, "bench", ".cache", "build");

/**
 * The server runs as deployed (`npm start`, the container image): from the bundle of scripts/build.ts,
 * built here from the checked-out sources. The Elysia hello-world is bundled the same way, so that
 * cold starts compare like with like; both also start from sources (`Way`).
 */
export async function buildTargets(): Promise<void> {
  await buildServer(join(BUILDS, "server"));
  await bundle({ entry: join(ROOT, "bench", "reference", "hello.ts"), outdir: join(BUILDS, "hello") });
}

/** How a program starts: from its bundle (as deployed), or from its sources. */
export type Way = "bundle" | "sources";

/** The server as deployed; `env` adds settings (SQLITE_SYNCHRONOUS=FULL for the durability rows). */
export function serverOptions(d: BenchData, way: Way = "bundle", env: Record<string, string> = {}): StartOptions {
  return serverOn(d.dbPath, d.main.authorization, way, env);
}

/** The server as deployed on any database (a SQLite path or a postgres:// URL); `authorization` opens its probe. */
export function serverOn(databaseUrl: string, authorization: string, way: Way = "bundle", env: Record<string, string> = {}): StartOptions {
  const port = freePort();
  env = { DATABASE_URL: databaseUrl, PORT: String(port), DEMO: "0", RATE_LIMIT_V2_PER_HOUR: "1000000000", LOG_LEVEL: "silent", LOGGING_MIN_INTERVAL_SECONDS: "0", ...env };
  const main = way === "bundle" ? join(BUILDS, "server", "main.js") : "src/cli/main.ts";
  return { name: "server", cmd: [BUN, main, "serve"], cwd: ROOT, env, port, probe: { path: "/v2/batches", headers: { authorization } } };
}

/**
 * How a target of the scenarios starts: the server as deployed (`server-full` with
 * SQLITE_SYNCHRONOUS=FULL, `server-hooked` on its own copy `hookedDbPath`), or a baseline.
 */
export function optionsFor(t: Exclude<Target, "json-server">, d: BenchData, hookedDbPath?: string): StartOptions {
  if (t === "server" || t === "server-plain") return serverOptions(d);
  if (t === "server-full") return serverOptions(d, "bundle", { SQLITE_SYNCHRONOUS: "FULL" });
  if (t === "server-hooked") {
    if (!hookedDbPath) throw new Error("server-hooked needs its own copy of the database (bench/lib/hooked.ts)");
    // Plain HTTP to the receiver on loopback is what the operator's allow list permits.
    return serverOptions({ ...d, dbPath: hookedDbPath }, "bundle", { WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
  }
  return targetOptions(d, t);
}

export function helloOptions(way: Way = "bundle"): StartOptions {
  const port = freePort();
  const main = way === "bundle" ? join(BUILDS, "hello", "hello.js") : "bench/reference/hello.ts";
  return { name: "hello", cmd: [BUN, main], cwd: ROOT, env: { PORT: String(port) }, port, probe: { path: "/" } };
}

export function targetOptions(d: BenchData, target: Exclude<Target, "server" | "server-full" | "server-plain">): StartOptions {
  const port = freePort();
  const probe = { path: "/v2/batches", headers: { authorization: d.main.authorization } };
  if (target === "reference") {
    const keys = JSON.stringify({ [d.main.authorization]: d.main.userId, [d.large.authorization]: d.large.userId });
    const loggingIds = JSON.stringify({ [d.main.loggingId]: d.main.userId });
    const env = { DATABASE_PATH: d.dbPath, BENCH_KEYS: keys, BENCH_LOGGING_IDS: loggingIds, PORT: String(port) };
    return { name: target, cmd: [BUN, "bench/reference/server.ts"], cwd: ROOT, env, port, probe };
  }
  if (target === "fastify") {
    return { name: target, cmd: ["node", "bench/peers/fastify.mjs"], cwd: ROOT, env: { DATABASE_PATH: d.dbPath, PORT: String(port) }, port, probe };
  }
  const bin = "bench/peers/node_modules/json-server/lib/cli/bin.js";
  const cmd = ["node", bin, "--ro", "--quiet", "--id", "_id", "--host", "127.0.0.1", "--port", String(port), d.jsonServerPath];
  return { name: target, cmd, cwd: ROOT, port, probe: { path: "/batches?_limit=1" }, timeoutMs: 120_000 };
}

