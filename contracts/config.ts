// The kit's only reader of the environment. Settings come from, in order of strength:
// runner flags, then CONTRACTS_* environment variables, then an optional JSON config file.

/** Areas of the API document, in the order a run visits them. */
export const DOCUMENTED_AREAS = [
  "auth", "errors", "isolation", "readings", "lists", "batches", "recipes", "inventory", "v1", "ratelimit",
] as const;
/** Additions beyond the document (this server's own): off unless CONTRACTS_EXTENSIONS=1. */
export const EXTENSION_AREAS = ["extensions"] as const;
export const AREAS = [...DOCUMENTED_AREAS, ...EXTENSION_AREAS] as const;
export type AreaName = (typeof AREAS)[number];

export interface Account { userId: string; apiKey: string; label: AccountLabel }
export type AccountLabel = "main" | "readonly" | "other" | "v1" | "nodelete" | "ratelimit";

export interface Config {
  baseUrl: string;
  accounts: Partial<Record<AccountLabel, Account>>;
  allowWrites: boolean;
  allowDeletes: boolean;
  rateLimit?: number;
  scratchBatchId?: string;
  deletableBatchId?: string;
  /** A batch known to have no brew tracker (its brewtracker read must be 404). */
  untrackedBatchId?: string;
  /** Whether the additions beyond the document are checked (the `extensions` area). */
  extensions: boolean;
  /** The main account's logging id, for the device logging endpoints (an addition beyond the document). */
  loggingId?: string;
  /** A webhook receiver URL the target accepts, for the webhook subscription checks (an addition beyond the document). */
  webhookUrl?: string;
  seed: number;
  maxCalls: number;
  areas: AreaName[];
  skipTags: string[];
  /** Longest Retry-After the kit waits out before it gives up on a call, seconds. */
  maxWaitSeconds: number;
}

export class ConfigError extends Error {}

/** Environment variable of each account's credentials, also used to show secrets redacted. */
export const ACCOUNT_VARS: Record<AccountLabel, { user: string; key: string }> = {
  main: { user: "CONTRACTS_USER_ID", key: "CONTRACTS_API_KEY" },
  readonly: { user: "CONTRACTS_READONLY_USER_ID", key: "CONTRACTS_READONLY_API_KEY" },
  other: { user: "CONTRACTS_OTHER_USER_ID", key: "CONTRACTS_OTHER_API_KEY" },
  v1: { user: "CONTRACTS_V1_USER_ID", key: "CONTRACTS_V1_API_KEY" },
  nodelete: { user: "CONTRACTS_NODELETE_USER_ID", key: "CONTRACTS_NODELETE_API_KEY" },
  ratelimit: { user: "CONTRACTS_RATELIMIT_USER_ID", key: "CONTRACTS_RATELIMIT_API_KEY" },
};

/** Every setting the kit knows; flags are the same names in kebab case without the prefix. */
export const SETTINGS = [
  "CONTRACTS_BASE_URL", ...Object.values(ACCOUNT_VARS).flatMap((v) => [v.user, v.key]),
  "CONTRACTS_ALLOW_WRITES", "CONTRACTS_ALLOW_DELETES", "CONTRACTS_RATE_LIMIT", "CONTRACTS_SCRATCH_BATCH_ID",
  "CONTRACTS_DELETABLE_BATCH_ID", "CONTRACTS_UNTRACKED_BATCH_ID", "CONTRACTS_EXTENSIONS", "CONTRACTS_LOGGING_ID", "CONTRACTS_WEBHOOK_URL", "CONTRACTS_SEED", "CONTRACTS_MAX_CALLS", "CONTRACTS_AREAS",
  "CONTRACTS_SKIP_TAGS", "CONTRACTS_MAX_WAIT_SECONDS",
] as const;

export type Settings = Partial<Record<string, string>>;

/** `--base-url` -> `CONTRACTS_BASE_URL`. */
export function flagToSetting(flag: string): string {
  return "CONTRACTS_" + flag.replace(/^--/, "").replace(/-/g, "_").toUpperCase();
}

/** Reads a JSON config file whose keys are the CONTRACTS_* names. */
export async function readConfigFile(path: string): Promise<Settings> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new ConfigError(`config file not found: ${path}`);
  let parsed: unknown;
  try { parsed = JSON.parse(await file.text()); } catch { throw new ConfigError(`config file is not JSON: ${path}`); }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new ConfigError("config file must hold one JSON object");
  const out: Settings = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (!(SETTINGS as readonly string[]).includes(k)) throw new ConfigError(`unknown setting in config file: ${k}`);
    out[k] = String(v);
  }
  return out;
}

/** Merges layers, strongest last, keeping only known CONTRACTS_* settings. */
export function mergeSettings(...layers: Settings[]): Settings {
  const out: Settings = {};
  for (const layer of layers) {
    for (const name of SETTINGS) {
      const v = layer[name];
      if (v !== undefined && v !== "") out[name] = v;
    }
  }
  return out;
}

function flag(s: Settings, name: string): boolean {
  const v = s[name];
  if (v === undefined) return false;
  if (["1", "true", "yes"].includes(v.toLowerCase())) return true;
  if (["0", "false", "no"].includes(v.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0, got ${JSON.stringify(v)}`);
}

function int(s: Settings, name: string, min: number): number | undefined {
  const v = s[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new ConfigError(`${name} must be a whole number >= ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

function list(s: Settings, name: string): string[] {
  return (s[name] ?? "").split(",").map((x) => x.trim()).filter(Boolean);
}

/** Builds a validated Config; `defaultSeed` is used when CONTRACTS_SEED is absent. */
export function buildConfig(s: Settings, defaultSeed: number): Config {
  const base = s.CONTRACTS_BASE_URL;
  if (!base) throw new ConfigError("CONTRACTS_BASE_URL (--base-url) is required");
  let url: URL;
  try { url = new URL(base); } catch { throw new ConfigError(`CONTRACTS_BASE_URL is not a URL: ${base}`); }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError("CONTRACTS_BASE_URL must be http(s)");

  const accounts: Config["accounts"] = {};
  for (const [label, vars] of Object.entries(ACCOUNT_VARS) as [AccountLabel, { user: string; key: string }][]) {
    const userId = s[vars.user];
    const apiKey = s[vars.key];
    if (!userId && !apiKey) continue;
    if (!userId || !apiKey) throw new ConfigError(`${vars.user} and ${vars.key} must be given together`);
    accounts[label] = { userId, apiKey, label };
  }

  const hook = s.CONTRACTS_WEBHOOK_URL;
  if (hook !== undefined && !URL.canParse(hook)) throw new ConfigError(`CONTRACTS_WEBHOOK_URL is not a URL: ${hook}`);
  const extensions = flag(s, "CONTRACTS_EXTENSIONS");
  const areaNames = list(s, "CONTRACTS_AREAS");
  for (const a of areaNames) {
    if (!(AREAS as readonly string[]).includes(a)) throw new ConfigError(`unknown area ${JSON.stringify(a)}; known: ${AREAS.join(", ")}`);
    if ((EXTENSION_AREAS as readonly string[]).includes(a) && !extensions) throw new ConfigError(`area ${a} checks additions beyond the document: set CONTRACTS_EXTENSIONS=1`);
  }
  const defaults: AreaName[] = extensions ? [...AREAS] : [...DOCUMENTED_AREAS];
  return {
    baseUrl: base.replace(/\/+$/, ""),
    accounts,
    allowWrites: flag(s, "CONTRACTS_ALLOW_WRITES"),
    allowDeletes: flag(s, "CONTRACTS_ALLOW_DELETES"),
    rateLimit: int(s, "CONTRACTS_RATE_LIMIT", 1),
    scratchBatchId: s.CONTRACTS_SCRATCH_BATCH_ID,
    deletableBatchId: s.CONTRACTS_DELETABLE_BATCH_ID,
    untrackedBatchId: s.CONTRACTS_UNTRACKED_BATCH_ID,
    extensions,
    loggingId: s.CONTRACTS_LOGGING_ID,
    webhookUrl: s.CONTRACTS_WEBHOOK_URL,
    seed: int(s, "CONTRACTS_SEED", 0) ?? defaultSeed,
    maxCalls: int(s, "CONTRACTS_MAX_CALLS", 1) ?? 450,
    areas: areaNames.length ? (areaNames as AreaName[]) : defaults,
    skipTags: list(s, "CONTRACTS_SKIP_TAGS"),
    maxWaitSeconds: int(s, "CONTRACTS_MAX_WAIT_SECONDS", 0) ?? 120,
  };
}

/** Config for `bun test ./contracts`: environment over the file named by CONTRACTS_CONFIG. */
export async function configFromEnv(env: Record<string, string | undefined> = process.env): Promise<Config> {
  const file = env.CONTRACTS_CONFIG ? await readConfigFile(env.CONTRACTS_CONFIG) : {};
  return buildConfig(mergeSettings(file, env), Date.now() % 2 ** 31);
}
