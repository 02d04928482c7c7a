import type { Config } from "../config.ts";
import { parseScopeList, scopesOf } from "../lib/scopes.ts";
import { issueApiKey, keySecretTag } from "../store/keys.ts";
import type { Store } from "../store/types.ts";
import { onlyArguments, UsageError } from "./usage-error.ts";


export const USAGE = `usage: brewrecords <command>
  serve                                   start the HTTP server (see README for the environment)
  user add <userId> [--password-stdin]    create an account; with --password-stdin, also its
                                          password for the web pages, read from standard input
  user passwd <userId>                    set the account's web password, read from standard input
  key generate <userId> --scopes <list>   generate the account's API key (replaces the old one);
                                          <list>: all, or a comma list of scope names;
                                          --api-version 1 makes a key for the deprecated /v1 API
  logging-id <userId> [--regenerate]      make the account's logging id for devices (README,
                                          Devices) and print it; shown once, as it is stored
                                          only as a digest; --regenerate replaces it
  import <userId> <file.json>             load batches, recipes and inventory (all or nothing)
  export <userId> <file.json>             write the account's data in the format import reads
  pull <userId> --user-id <id> [--api-key <key>] [--from <base URL>] [--prune] [--full]
                                          bring the account of <id> from the hosted service (or
                                          another server of this API) here, resumably; the key also
                                          from PULL_API_KEY or standard input (pull --help for more)
  backup <file.sqlite>                    online, consistent copy of the database (server may run)
  migrate-store --from <url> --to <url> [--force]
                                          copy every account, key, document and count between
                                          stores (SQLite path or postgres:// URL, either way) and
                                          verify rows and a checksum per table; a target with data
                                          is refused unless --force, which replaces its contents
  healthcheck                             ask the local server for /healthz; exit 0 when healthy`;

// Basic credentials split at the first colon, so a user id can never contain one.
const USER_ID = /^[A-Za-z0-9._@+-]{1,128}$/;

function userId(value: string | undefined): string {
  if (!value) throw new UsageError(`missing <userId>\n${USAGE}`);
  if (!USER_ID.test(value)) throw new UsageError(`invalid user id "${value}": use 1 to 128 letters, digits or . _ @ + -`);
  return value;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new UsageError(`${name} needs a value`);
  return v;
}

/** A new web password from standard input (one trailing line end dropped), hashed. */
async function passwordFromStdin(): Promise<string> {
  const { hashPassword, passwordFromInput, passwordProblem } = await import("../web/password.ts");
  if (process.stdin.isTTY) console.error("type the password, then Enter and Ctrl-D (the input is shown):");
  const password = passwordFromInput(await Bun.stdin.text());
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  return hashPassword(password);
}

/** Runs one command; returns an exit code, or undefined for a command that keeps running (serve). */
// Modules only some commands need (the import schemas, password hashing, the HTTP stack) are loaded in
// those commands, so `serve` and the others start without them.
export async function runCommand(args: string[], config: Config, open: (url: string) => Promise<Store>): Promise<number | undefined> {
  const [cmd, sub, ...rest] = args;
  if (cmd === "serve") {
    const { serve } = await import("./serve.ts");
    await serve(config, await open(config.databaseUrl));
    return undefined;
  }
  if (!cmd || cmd === "help" || cmd === "--help") {
    console.log(USAGE);
    return cmd ? 0 : 1;
  }
  // Commands that do not use the configured database must not open (and so create) it.
  if (cmd === "healthcheck" || cmd === "migrate-store") {
    const { runStorelessCommand } = await import("./ops.ts");
    return runStorelessCommand(args, config);
  }
  const store = await open(config.databaseUrl);
  try {
    if (cmd === "user" && sub === "add") {
      const id = userId(rest[0]);
      onlyArguments("user add", rest, { positional: 1, flags: ["--password-stdin"] }, USAGE);
      // The password is checked before the account exists, so a refused one creates nothing.
      const hash = rest.includes("--password-stdin") ? await passwordFromStdin() : null;
      if (!(await store.createUser(id, hash))) throw new UsageError(`user ${id} already exists`);
      console.error(`created user ${id}${hash ? " with a password" : ""}`);
      return 0;
    }
    if (cmd === "user" && sub === "passwd") {
      const id = userId(rest[0]);
      if (!(await store.userExists(id))) throw new UsageError(`no user ${id} (create it with: user add ${id})`);
      await store.setPassword(id, await passwordFromStdin());
      console.error(`password set for ${id}; its earlier web sessions have ended`);
      return 0;
    }
    if (cmd === "key" && sub === "generate") {
      const id = userId(rest[0]);
      onlyArguments("key generate", rest, { positional: 1, values: ["--scopes", "--api-version"] }, USAGE);
      if (option(rest, "--scopes") === undefined) throw new UsageError(`key generate needs --scopes (all, or a comma list)\n${USAGE}`);
      const version = option(rest, "--api-version") ?? "2";
      if (version !== "1" && version !== "2") throw new UsageError("--api-version must be 1 or 2");
      const apiVersion = version === "1" ? 1 : 2;
      const scopes = parseScopeList(option(rest, "--scopes") ?? "", apiVersion);
      if ("unknown" in scopes) {
        throw new UsageError(`unknown scope(s) for a version ${version} key: ${scopes.unknown.join(", ")}; use all or names of: ${scopesOf(apiVersion).join(", ")}`);
      }
      if (!(await store.userExists(id))) throw new UsageError(`no user ${id} (create it with: user add ${id})`);
      console.log(await issueApiKey(store, id, scopes.scopes, apiVersion));
      return 0;
    }
    if (cmd === "logging-id") {
      const { runLoggingId } = await import("./logging-id.ts");
      return await runLoggingId(userId(sub), rest, store);
    }
    if (cmd === "import") {
      const id = userId(sub);
      const file = rest[0];
      if (!file) throw new UsageError(`missing <file.json>\n${USAGE}`);
      onlyArguments("import", rest, { positional: 1 }, USAGE);
      if (!(await store.userExists(id))) throw new UsageError(`no user ${id} (create it with: user add ${id})`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(await Bun.file(file).text());
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
      }
      const { ImportError, parseImport } = await import("../import.ts");
      try {
        const { importProgress } = await import("./progress.ts");
        const line = importProgress(process.stderr);
        const set = parseImport(parsed, undefined, line.checked);
        // A logging id's digest made under another database's secret could never match a device's id
        // here: it is left out, and the account keeps the logging id it has.
        if (set.loggingId?.secretTag !== undefined && set.loggingId.secretTag !== (await keySecretTag(store))) {
          delete set.loggingId;
          line.end();
          console.error(`the logging id was not imported: it was made in another database, where devices still use it; make one here with: logging-id ${id} (--regenerate if ${id} has one)`);
        }
        line.writing(set.batches.length + set.docs.length);
        await store.importAll(id, set);
        line.end();
        console.error(`imported ${set.batches.length} batches and ${set.docs.length} other documents for ${id}`);
      } catch (e) {
        if (e instanceof ImportError) throw new UsageError(`import refused, nothing written: ${e.message}`);
        throw e;
      }
      return 0;
    }
    if (cmd === "pull") {
      const { PULL_USAGE, PullStop, runPull } = await import("../pull/command.ts");
      if (sub === "--help") {
        console.log(PULL_USAGE);
        return 0;
      }
      const io = { readInput: () => Bun.stdin.text(), inputIsTerminal: process.stdin.isTTY === true, err: process.stderr, out: process.stdout };
      try {
        return await runPull(args.slice(1), { store, config, ...io });
      } catch (e) {
        throw e instanceof PullStop ? new UsageError(e.message, e.exitCode) : e;
      }
    }
    const { runOpsCommand } = await import("./ops.ts");
    const code = await runOpsCommand(args, store, config);
    if (code !== undefined) return code;
    throw new UsageError(`unknown command: ${args.join(" ")}\n${USAGE}`);
  } finally {
    await store.close();
  }
}
