import { afterAll, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { collectOutput, freePort, tempDir } from "../helpers/process.ts";

// The README's start command: `npm start` builds the bundle (its prestart script) and serves it.
const ROOT = join(import.meta.dir, "..", "..");
const dir = tempDir("brewrecords-npm-start-");
afterAll(() => dir.remove());

test("npm start builds dist/ and serves the bundle on the configured port", async () => {
  const startedAt = Date.now();
  const port = String(freePort());
  const env = { ...process.env, PORT: port, HOST: "127.0.0.1", DEMO: "0", DATABASE_URL: join(dir.path, "db.sqlite"), LOG_LEVEL: "warn" };
  // In a session of its own, so that npm, its shell and the server stop together.
  const proc = Bun.spawn(["setsid", "npm", "start"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const output = collectOutput(proc);
  try {
    for (let i = 0; i < 600 && !output().includes("listening on") && proc.exitCode === null; i++) await Bun.sleep(50);
    expect(output()).toContain(`brewrecords listening on http://127.0.0.1:${port}`);
    expect(output()).toContain("bun dist/main.js serve");
    expect(statSync(join(ROOT, "dist", "main.js")).mtimeMs).toBeGreaterThanOrEqual(startedAt - 1000);
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect([res.status, await res.text()]).toEqual([200, '{"database":"ok","status":"ok"}']);
  } finally {
    process.kill(-proc.pid, "SIGTERM");
    await proc.exited;
  }
}, 60_000);
