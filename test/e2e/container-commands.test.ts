import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { freePort, tempDir } from "../helpers/process.ts";

// No Docker engine runs here, so the Dockerfile's own commands run outside it: a production install
// from the frozen lock file, the build, the CLI through its PATH link to the bundle (with no sources
// beside it, as in the image), start, and the HEALTHCHECK command.
const ROOT = join(import.meta.dir, "..", "..");
const dir = tempDir("brewrecords-image-");
afterAll(() => dir.remove());

test("the Dockerfile's install, CLI, serve and healthcheck commands work on a copy of the image's files", async () => {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  expect(dockerfile).toContain("RUN bun install --frozen-lockfile --production --ignore-scripts");
  expect(dockerfile).toContain("RUN bun scripts/build.ts");
  expect(dockerfile).toContain("RUN ln -s /app/dist/main.js /usr/local/bin/brewrecords");
  expect(dockerfile).toContain('CMD ["brewrecords", "serve"]');
  expect(dockerfile).toContain('CMD ["brewrecords", "healthcheck"]');

  const app = join(dir.path, "app");
  for (const f of ["package.json", "bun.lock", "src", "scripts/build.ts"]) cpSync(join(ROOT, f), join(app, f), { recursive: true });
  // As in the image: `bun` on PATH, and `brewrecords` a link to the CLI whose shebang finds it.
  const bin = join(dir.path, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "bun"));
  const brewrecords = join(bin, "brewrecords");
  symlinkSync(join(app, "dist", "main.js"), brewrecords);
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    NODE_ENV: "production",
    HOST: "0.0.0.0",
    PORT: String(freePort()),
    DATABASE_URL: join(dir.path, "data", "brewrecords.sqlite"),
    DEMO: "0",
    TRUST_PROXY: "1",
    LOG_LEVEL: "warn",
  };
  const install = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile", "--production", "--ignore-scripts"], { cwd: app, env });
  expect(install.exitCode).toBe(0);
  const build = Bun.spawnSync([process.execPath, "scripts/build.ts"], { cwd: app, env });
  expect(build.stderr.toString()).toContain("built");
  expect(build.exitCode).toBe(0);
  // The image holds the bundle, not the sources it came from.
  rmSync(join(app, "src"), { recursive: true });
  rmSync(join(app, "scripts"), { recursive: true });
  const run = (args: string[]) => Bun.spawnSync([brewrecords, ...args], { cwd: app, env });
  expect(run(["user", "add", "alice"]).exitCode).toBe(0);
  const key = run(["key", "generate", "alice", "--scopes", "all"]).stdout.toString().trim();
  const server = Bun.spawn([brewrecords, "serve"], { cwd: app, env, stdout: "pipe", stderr: "pipe" });
  try {
    let health = run(["healthcheck"]);
    for (let i = 0; i < 100 && health.exitCode !== 0; i++) {
      await Bun.sleep(100);
      health = run(["healthcheck"]);
    }
    expect(health.exitCode).toBe(0);
    expect(health.stdout.toString()).toBe('200 {"database":"ok","status":"ok"}\n');
    // The API, the pages' assets (copied beside the bundle) and Swagger UI (from node_modules).
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${env.PORT}${path}`, { headers: { "x-forwarded-proto": "https", ...headers } });
    const list = await get("/v2/batches", { authorization: `Basic ${Buffer.from(`alice:${key}`).toString("base64")}` });
    expect([list.status, await list.text()]).toEqual([200, "[]"]);
    const css = await get("/static/style.css");
    expect(await css.text()).toBe(readFileSync(join(ROOT, "src", "web", "static", "style.css"), "utf8"));
    const ui = await get("/swagger/assets/swagger-ui.css");
    expect([ui.status, (await ui.text()).length > 1000]).toEqual([200, true]);
    const spec = await get("/swagger/json");
    expect(((await spec.json()) as { openapi: string }).openapi).toStartWith("3.");
  } finally {
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }
  expect(run(["healthcheck"]).exitCode).toBe(1);
}, 120_000);
