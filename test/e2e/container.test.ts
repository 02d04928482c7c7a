import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { baseImageOf, bunVersionOf } from "../helpers/bun-image-stand-in.ts";
import { ContainerRun, makeCertificate, runArgs, runContainer, type RunOptions } from "../helpers/container.ts";
import { podman, podmanMissing } from "../helpers/podman.ts";
import { freePort, tempDir } from "../helpers/process.ts";

// The Dockerfile built and run with podman, as the README runs it: HTTPS from mounted certificate
// files, data in a named volume, the image's own user and health check. Where the official Bun image
// cannot be pulled, a stand-in made from this machine's files takes its place (for this test only).
const ROOT = join(import.meta.dir, "..", "..");
const BUN_UID = 1000;

test("the Dockerfile builds every stage on the official Bun image of the version package.json pins", () => {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const stages = new Set([...dockerfile.matchAll(/^FROM\s.*\sAS\s+(\S+)/gim)].map((m) => m[1]));
  const bases = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]).filter((from) => !stages.has(from));
  const pinned = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies.bun;
  expect(bases).toEqual([`oven/bun:${pinned}-slim`, `oven/bun:${pinned}-slim`]);
  expect(bunVersionOf(baseImageOf(dockerfile))).toBe(pinned);
});

const missing = podmanMissing();
if (missing) console.warn(`container tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)(`the container image${missing ? ` (skipped: ${missing})` : ""}`, () => {
  const run = new ContainerRun();
  const image = run.image;
  const dir = missing ? undefined : tempDir("brewrecords-container-");
  let tls: { cert: string; key: string };

  // Hooks only where the tests run: a skipped suite lists its tests, each with the reason.
  if (!missing) {
    beforeAll(() => {
      const started = performance.now();
      const standIn = run.build();
      console.error(`container test: image built in ${((performance.now() - started) / 1000).toFixed(1)} s${standIn ? " on the stand-in base image" : ""}`);
      // The key as an operator should mount it: readable by the image's user alone.
      tls = makeCertificate(dir!.path, BUN_UID);
    }, 600_000);

    afterAll(() => {
      run.remove();
      dir!.remove();
    });
  }

  const options = (what: string, volume = run.volume(what)): RunOptions => ({ image, name: run.name(what), volume, ...tls });

  test("the image keeps its user, the /data volume, the port and the health check command", () => {
    const [inspected] = JSON.parse(podman(["image", "inspect", image]).stdout);
    const { Config: config, Healthcheck: healthcheck } = inspected;
    expect(config.User).toBe("bun");
    expect(Object.keys(config.Volumes)).toEqual(["/data"]);
    expect(Object.keys(config.ExposedPorts)).toEqual(["3000/tcp"]);
    expect(config.Cmd).toEqual(["brewrecords", "serve"]);
    // Kept only in the Docker image format; the OCI format drops it.
    expect(healthcheck.Test).toEqual(["CMD", "brewrecords", "healthcheck"]);
  });

  test("the image holds the bundle and Swagger UI's files, not the sources or other packages", () => {
    const list = (dir: string) => podman(["run", "--rm", "--entrypoint", "ls", image, "-A", dir]).stdout.split("\n").filter(Boolean);
    expect(list("/app")).toEqual(["dist", "node_modules", "package.json"]);
    expect(list("/app/node_modules")).toEqual(["swagger-ui-dist"]);
  }, 60_000);

  test("the server is the container's first process, runs as uid 1000, and serves HTTPS from the mounted files", async () => {
    const c = await runContainer(options("https"));
    const pid = c.inspect("{{.State.Pid}}");
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    expect(status).toContain(`\nUid:\t${BUN_UID}\t${BUN_UID}\t${BUN_UID}\t${BUN_UID}\n`);
    expect(status).toContain(`\nGid:\t${BUN_UID}\t${BUN_UID}\t${BUN_UID}\t${BUN_UID}\n`);
    // No shell between podman and the server: the signals of `podman stop` reach it.
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toEqual(["bun", "/usr/local/bin/brewrecords", "serve", ""]);
    const res = await c.call("/healthz");
    expect([res.status, await res.text()]).toEqual([200, '{"database":"ok","status":"ok"}']);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    // A client that does not trust the mounted certificate is refused by TLS itself.
    await expect(fetch(`${c.url}/healthz`)).rejects.toThrow();
  }, 60_000);

  test("the pages, their assets, the OpenAPI document and Swagger UI are served from the image", async () => {
    const c = await runContainer(options("pages"));
    const css = await c.call("/static/style.css");
    expect([css.status, await css.text()]).toEqual([200, readFileSync(join(ROOT, "src", "web", "static", "style.css"), "utf8")]);
    const ui = await c.call("/swagger/assets/swagger-ui.css");
    expect([ui.status, await ui.text()]).toEqual([200, readFileSync(join(ROOT, "node_modules", "swagger-ui-dist", "swagger-ui.css"), "utf8")]);
    const spec = await c.call("/swagger/json");
    expect(((await spec.json()) as { openapi: string }).openapi).toStartWith("3.");
    const signIn = await c.call("/signin");
    expect([signIn.status, signIn.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(await signIn.text()).toContain('<form class="card" method="post" action="/signin">');
  }, 60_000);

  test("its health check turns healthy, recording the server's answer", async () => {
    const c = await runContainer(options("health"));
    const check = podman(["healthcheck", "run", c.name]);
    expect(check.code).toBe(0);
    expect(c.inspect("{{.State.Health.Status}}")).toBe("healthy");
    const log = JSON.parse(c.inspect("{{json .State.Health.Log}}")) as Array<{ ExitCode: number; Output: string }>;
    expect(log.at(-1)).toMatchObject({ ExitCode: 0, Output: '200 {"database":"ok","status":"ok"}' });
  }, 60_000);

  test("podman stop ends the server with exit code 0, well before podman would kill it", async () => {
    const c = await runContainer(options("stop"));
    const started = performance.now();
    expect(podman(["stop", "-t", "10", c.name]).code).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(c.inspect("{{.State.ExitCode}}")).toBe("0");
  }, 60_000);

  test("a write through the API is read back after a restart, and by a new container on the same volume", async () => {
    const volume = run.volume("data");
    const first = await runContainer(options("data-1", volume));
    expect(first.exec(["brewrecords", "user", "add", "alice"]).code).toBe(0);
    const key = first.exec(["brewrecords", "key", "generate", "alice", "--scopes", "all"]).stdout.trim();
    const batch = { batches: [{ _id: "volume-batch", name: "Kept in the volume", batchNo: 7, status: "Planning" }] };
    expect(first.exec(["brewrecords", "import", "alice", "/dev/stdin"], JSON.stringify(batch)).code).toBe(0);
    const auth = { authorization: basic("alice", key) };
    const patched = await first.call("/v2/batches/volume-batch", {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ status: "Brewing" }),
    });
    expect(patched.status).toBe(200);
    const statusOf = async (c: typeof first) => {
      const res = await c.call("/v2/batches/volume-batch", { headers: auth });
      return [res.status, ((await res.json()) as { status: string }).status];
    };

    expect(podman(["restart", "-t", "10", first.name]).code).toBe(0);
    await first.ready();
    expect(await statusOf(first)).toEqual([200, "Brewing"]);

    expect(podman(["rm", "-f", "-t", "10", first.name]).code).toBe(0);
    const second = await runContainer(options("data-2", volume));
    expect(await statusOf(second)).toEqual([200, "Brewing"]);
    // The files are the image's user's, so the server can write them on every start.
    expect(second.exec(["stat", "-c", "%u %n", "/data", "/data/brewrecords.sqlite"]).stdout).toBe(`${BUN_UID} /data\n${BUN_UID} /data/brewrecords.sqlite\n`);
  }, 90_000);

  test("a key file the image's user cannot read stops the container with exit 2, naming the setting and the file", async () => {
    const locked = tempDir("brewrecords-locked-key-");
    try {
      const { cert, key } = makeCertificate(locked.path, 0);
      const o = { ...options("locked-key"), cert, key };
      const res = podman(["run", ...runArgs(o, freePort())]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`brewrecords: TLS_KEY_FILE: cannot read /certs/key.pem as user id ${BUN_UID} (EACCES)`);
    } finally {
      locked.remove();
    }
  }, 60_000);
});
