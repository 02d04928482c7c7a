// Our server as the contract kit's target in tests: a real process on a fresh database, with the
// accounts and data the kit needs made through the command line before it listens.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { importDocument } from "../../contracts/selftest/dataset.ts";
import { basicCredential } from "../../contracts/redact.ts";

const ROOT = join(import.meta.dir, "..", "..");
const BUN = process.execPath;
export const SOURCES = join(ROOT, "src", "cli", "main.ts");
export const READ_SCOPES = "recipes.read,batches.read,inventory.read";
/** Where the kit's webhook subscription points: nothing listens there, so its one test event is refused and retried until the kit deletes it. */
export const WEBHOOK_URL = "http://127.0.0.1:9/kit-hook";

export interface KitServer { url: string; proc?: ReturnType<typeof Bun.spawn>; env: Record<string, string>; main: string; dir: string }

/** Every key and Basic credential made, so tests can prove none reaches any output. */
export const secrets: string[] = [];

function cli(s: KitServer, ...args: string[]): string {
  const p = Bun.spawnSync([BUN, s.main, ...args], { cwd: ROOT, env: { ...process.env, ...s.env } });
  if (p.exitCode !== 0) throw new Error(`brewrecords ${args.join(" ")} failed: ${p.stderr.toString()}`);
  return p.stdout.toString().trim();
}

/** Creates the account, its key and its data; returns the key. */
export function account(s: KitServer, user: string, scopes: string, data?: object, v1 = false): string {
  cli(s, "user", "add", user);
  const key = cli(s, "key", "generate", user, "--scopes", scopes, ...(v1 ? ["--api-version", "1"] : []));
  secrets.push(key, basicCredential(user, key));
  if (data) {
    const file = join(s.dir, `${s.env.NAME}-${user}.json`);
    writeFileSync(file, JSON.stringify(data));
    cli(s, "import", user, file);
  }
  return key;
}

/** Makes the account's logging id (for the device logging endpoints, an addition beyond the document). */
export function loggingId(s: KitServer, user: string): string {
  const id = cli(s, "logging-id", user);
  secrets.push(id);
  return id;
}

/** A server's database and environment; accounts are made before it listens. */
export function prepare(dir: string, name: string, perHour: number, main: string, databaseUrl = join(dir, `${name}.sqlite`)): KitServer {
  // The kit's webhook receiver (WEBHOOK_URL) is on this machine, which only an allowed host may be.
  const env = {
    NAME: name, DATABASE_URL: databaseUrl, DEMO: "0", HOST: "127.0.0.1", PORT: "0", RATE_LIMIT_V2_PER_HOUR: String(perHour), RATE_LIMIT_V1_PER_HOUR: String(perHour),
    WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
  };
  return { url: "", env, main, dir };
}

export async function listen(s: KitServer): Promise<KitServer> {
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

export async function stop(s?: KitServer): Promise<void> {
  s?.proc?.kill();
  await s?.proc?.exited;
}

/**
 * The full set of the kit's accounts and data; their credentials go into `into` as CONTRACTS_*
 * settings. The main account has more than 50 misc items and ties on its order fields.
 */
export function populate(s: KitServer, into: Record<string, string>): void {
  const put = (user: string, key: string, userVar: string, keyVar: string) => { into[userVar] = user; into[keyVar] = key; };
  put("kit-main", account(s, "kit-main", "all", importDocument("main", 14, 55)), "CONTRACTS_USER_ID", "CONTRACTS_API_KEY");
  into.CONTRACTS_LOGGING_ID = loggingId(s, "kit-main");
  into.CONTRACTS_WEBHOOK_URL = WEBHOOK_URL;
  put("kit-readonly", account(s, "kit-readonly", READ_SCOPES, importDocument("readonly", 2)), "CONTRACTS_READONLY_USER_ID", "CONTRACTS_READONLY_API_KEY");
  put("kit-other", account(s, "kit-other", "all", importDocument("other", 3)), "CONTRACTS_OTHER_USER_ID", "CONTRACTS_OTHER_API_KEY");
  put("kit-nodelete", account(s, "kit-nodelete", `${READ_SCOPES},recipes.write,batches.write,inventory.write`), "CONTRACTS_NODELETE_USER_ID", "CONTRACTS_NODELETE_API_KEY");
  put("kit-v1", account(s, "kit-v1", "all", importDocument("v1", 9), true), "CONTRACTS_V1_USER_ID", "CONTRACTS_V1_API_KEY");
}
