import { expect } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli } from "../helpers/process.ts";

/**
 * An account made through the real command line for the device tests: the user, an API key with
 * every scope, the logging id, and an import. Returns the Authorization header and the logging id.
 */
export function deviceAccount(env: Record<string, string>, dir: string, userId: string, data: unknown): { auth: string; loggingId: string } {
  expect(cli(["user", "add", userId], env).code).toBe(0);
  const key = cli(["key", "generate", userId, "--scopes", "all"], env);
  const logging = cli(["logging-id", userId], env);
  expect([key.code, logging.code]).toEqual([0, 0]);
  const file = join(dir, `${userId}-import.json`);
  writeFileSync(file, JSON.stringify(data));
  expect(cli(["import", userId, file], env).code).toBe(0);
  return { auth: basic(userId, key.stdout.trim()), loggingId: logging.stdout.trim() };
}
