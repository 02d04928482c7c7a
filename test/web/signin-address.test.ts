import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ADDRESS_POLICY, USER_POLICY } from "../../src/web/throttle.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";

// The sign-in throttle counts failures per client address as the server process sees it: failures
// from 127.0.0.1 lock that address and no other. curl sends from a second loopback address
// (--interface 127.0.0.2) to the server listening on 127.0.0.1.

const dir = tempDir();
let server: ServerProcess;
let cookie: string;
let csrf: string;

const OWNER_PASSWORD = "a long enough passphrase for the owner";

beforeAll(async () => {
  const made = cli(["user", "add", "owner", "--password-stdin"], { DATABASE_URL: join(dir.path, "db.sqlite") }, `${OWNER_PASSWORD}\n`);
  if (made.code !== 0) throw new Error(made.stderr);
  server = await startServerProcess({ DATABASE_URL: join(dir.path, "db.sqlite") });
  const page = await fetch(server.url + "/signin", { headers: { accept: "text/html" } });
  cookie = page.headers.get("set-cookie")!.split(";")[0];
  csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
});

afterAll(async () => {
  await server?.stop();
  dir.remove();
});

/** A sign-in for `userId`, sent from `from` (with a wrong password unless one is given); its status. */
function signIn(userId: string, from: string, password = "not the password"): number {
  const form = new URLSearchParams({ csrf, userId, password }).toString();
  const p = Bun.spawnSync(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--interface", from, "-H", `cookie: ${cookie}`,
    "-H", "accept: text/html", "-H", "content-type: application/x-www-form-urlencoded", "--data", form, `${server.url}/signin`]);
  return Number(p.stdout.toString());
}

test("failures from one address lock that address, not another", () => {
  // Each failure names another account, so only the address counter reaches its lock.
  for (let i = 0; i < ADDRESS_POLICY.freeFailures; i++) expect(signIn(`nobody-${i}`, "127.0.0.1")).toBe(401);
  expect(signIn("nobody-last", "127.0.0.1")).toBe(401);
  expect(signIn("someone-else", "127.0.0.1")).toBe(429);
  expect(signIn("someone-else", "127.0.0.2")).toBe(401);
}, 30_000);

test("a stranger's wrong passwords lock the stranger's address out of the account, not its owner signing in from elsewhere (decisions, Web pages)", () => {
  for (let i = 0; i < USER_POLICY.freeFailures + 1; i++) expect(signIn("owner", "127.0.0.3")).toBe(401);
  expect(signIn("owner", "127.0.0.3", OWNER_PASSWORD)).toBe(429);
  expect(signIn("owner", "127.0.0.4", OWNER_PASSWORD)).toBe(303);
}, 30_000);
