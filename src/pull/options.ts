// The `pull` command line, read into options by plain functions.

/** The hosted service's API address (API document: paths under {base_url}). */
export const HOSTED_BASE_URL = "https://api.brewfather.app";

export const PULL_USAGE = `usage: pull <userId> --user-id <remote user id> [--api-key <key>] [--from <base URL>]
            [--prune] [--full] [--retries <n>] [--state <file>] [--new-source]
  The API key: --api-key, else PULL_API_KEY, else the first line of standard input.
  --from      default ${HOSTED_BASE_URL}
  --prune     remove what the remote lacks (otherwise nothing here is ever deleted)
  --full      read every batch's readings and tracker, not only those that may have changed
  --retries   attempts after a network failure before stopping (default 5)
  --state     the file that lets a run continue and a later run see changes (default: beside the database)
  --new-source  start a new history when the state file holds another source's (another --from or
              --user-id): without it such a pull is refused, since a pull without history takes the
              remote copy of whatever changed on both sides
  exit codes: 0 done, 1 usage, 2 remote refused the credentials, 3 stopped midway (run again to continue)`;

export interface PullArgs {
  localUser: string;
  from: string;
  remoteUser: string;
  apiKey?: string;
  prune: boolean;
  full: boolean;
  retries: number;
  state?: string;
  /** Replace a state file that holds another source's history. */
  newSource: boolean;
}

const VALUED = ["--from", "--user-id", "--api-key", "--retries", "--state"] as const;
const FLAGS = ["--prune", "--full", "--new-source"] as const;
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * A base URL the API key may be sent to: HTTPS, or plain HTTP to this machine only (the document says
 * the service is HTTPS only; a key sent in clear over a network is a key given away).
 */
export function baseUrl(value: string): string | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `--from: not a URL: ${value}` };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    return { error: `--from: the API key is sent over https:// only (or http:// to 127.0.0.1, [::1] or localhost), got ${value}` };
  }
  if (url.search || url.hash || url.username || url.password) return { error: `--from: give the base URL alone, without query, fragment or credentials` };
  return url.toString().replace(/\/+$/, "");
}

/** The options of `pull <userId> …`, or the first problem with them. */
export function parsePullArgs(args: string[]): PullArgs | { error: string } {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((VALUED as readonly string[]).includes(a)) {
      const v = args[i + 1];
      if (v === undefined || v.startsWith("--")) return { error: `${a} needs a value` };
      if (a in values) return { error: `${a} given twice` };
      values[a] = v;
      i++;
    } else if ((FLAGS as readonly string[]).includes(a)) flags.add(a);
    else if (a.startsWith("--")) return { error: `unknown option ${a}` };
    else positional.push(a);
  }
  if (positional.length !== 1) return { error: positional.length ? `one <userId> expected, got ${positional.join(" ")}` : "missing <userId> (the account here)" };
  const remoteUser = values["--user-id"];
  if (!remoteUser) return { error: "missing --user-id (the user id shown beside the API key on the remote)" };
  if (remoteUser.includes(":")) return { error: "--user-id cannot contain a colon" };
  const from = baseUrl(values["--from"] ?? HOSTED_BASE_URL);
  if (typeof from !== "string") return from;
  const retriesText = values["--retries"] ?? "5";
  if (!/^\d{1,2}$/.test(retriesText)) return { error: "--retries must be a whole number from 0 to 99" };
  return {
    localUser: positional[0]!,
    from,
    remoteUser,
    apiKey: values["--api-key"],
    prune: flags.has("--prune"),
    full: flags.has("--full"),
    retries: Number(retriesText),
    state: values["--state"],
    newSource: flags.has("--new-source"),
  };
}

/** The API key from standard input: its first line, trimmed. */
export function keyFromInput(text: string): string {
  return (text.split(/\r?\n/)[0] ?? "").trim();
}
