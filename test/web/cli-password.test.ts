import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite.ts";
import { verifyPassword } from "../../src/web/password.ts";
import { cli, tempDir } from "../helpers/process.ts";

const dir = tempDir("brewrecords-web-cli-");
const env = { DATABASE_URL: join(dir.path, "db.sqlite"), DEMO: "0" };
afterAll(() => dir.remove());

async function storedHash(userId: string) {
  const store = SqliteStore.open(env.DATABASE_URL);
  try {
    return (await store.getUser(userId))?.passwordHash ?? null;
  } finally {
    await store.close();
  }
}

describe("passwords from the command line", () => {
  test("user add --password-stdin stores an argon2id hash of the line read, without its line end", async () => {
    const res = cli(["user", "add", "alice", "--password-stdin"], env, "first secret pass\n");
    expect(res.code).toBe(0);
    expect(res.stderr).toBe("created user alice with a password\n");
    const hash = await storedHash("alice");
    expect(hash).toStartWith("$argon2id$");
    expect(await verifyPassword("first secret pass", hash)).toBe(true);
    expect(await verifyPassword("first secret pass\n", hash)).toBe(false);
  });

  test("user passwd replaces the password", async () => {
    const res = cli(["user", "passwd", "alice"], env, "second secret pass\r\n");
    expect(res.code).toBe(0);
    const hash = await storedHash("alice");
    expect(await verifyPassword("second secret pass", hash)).toBe(true);
    expect(await verifyPassword("first secret pass", hash)).toBe(false);
  });

  test("a short password is refused and creates no account", async () => {
    const res = cli(["user", "add", "bob", "--password-stdin"], env, "short\n");
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("brewrecords: the password must have at least 8 characters\n");
    const store = SqliteStore.open(env.DATABASE_URL);
    expect(await store.userExists("bob")).toBe(false);
    await store.close();
  });

  test("user passwd for a missing account fails and names the fix", () => {
    const res = cli(["user", "passwd", "nobody"], env, "long enough pass\n");
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("brewrecords: no user nobody (create it with: user add nobody)\n");
  });

  test("a misspelt option of user add is refused", () => {
    const res = cli(["user", "add", "carol", "--password-stdn"], env, "long enough pass\n");
    expect(res.code).toBe(1);
    expect(res.stderr).toStartWith("brewrecords: unknown option(s) or argument(s) for user add: --password-stdn\n");
  });

  test("user add without the option still makes an account without a password", async () => {
    expect(cli(["user", "add", "dave"], env).code).toBe(0);
    expect(await storedHash("dave")).toBeNull();
  });
});
