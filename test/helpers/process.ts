import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer } from "../../scripts/build.ts";

const ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(ROOT, "src", "cli", "main.ts");

/** A self-signed certificate for localhost and 127.0.0.1 (openssl), written into `dir`. */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  const gen = Bun.spawnSync([
    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert,
  ]);
  if (gen.exitCode !== 0) throw new Error(`openssl failed: ${gen.stderr.toString()}`);
  return { cert, key };
}

// A port nothing listens on now, for a process told its port before it starts: guessing one at random
// may pick one the kernel gave an outgoing connection (it hands those out from 32768 up).
export { freePort } from "../../bench/lib/procs.ts";

export function tempDir(prefix = "brewrecords-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * The server as deployed (`npm start`, the container image): scripts/build.ts's bundle in an app
 * folder of its own, beside a link to the installed packages, as dist/ sits beside node_modules/.
 */
export async function deployedBuild(): Promise<{ main: string; dir: string; remove(): void }> {
  const app = tempDir("brewrecords-build-");
  symlinkSync(join(ROOT, "node_modules"), join(app.path, "node_modules"));
  await buildServer(join(app.path, "dist"));
  return { main: join(app.path, "dist", "main.js"), dir: app.path, remove: app.remove };
}

/** Runs the real command line to completion: from sources, or from `main` (a deployed build's). */
export function cli(args: string[], env: Record<string, string>, stdin?: string, main = MAIN) {
  const res = Bun.spawnSync([process.execPath, main, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
  });
  return { code: res.exitCode, stdout: res.stdout.toString(), stderr: res.stderr.toString() };
}

export interface ServerProcess {
  url: string;
  output(): string;
  proc: ReturnType<typeof Bun.spawn>;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** Everything a process writes to stdout and stderr (both piped), so far. */
export function collectOutput(proc: { stdout: unknown; stderr: unknown }): () => string {
  let out = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out += decoder.decode(chunk);
  };
  void pump(proc.stdout as ReadableStream<Uint8Array>);
  void pump(proc.stderr as ReadableStream<Uint8Array>);
  return () => out;
}

/** Starts `brewrecords serve` as a real process on a free port and waits until it listens. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 15_000, main = MAIN): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, main, "serve"], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", DEMO: "0", LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = collectOutput(proc);
  const deadline = Date.now() + timeoutMs;
  let url: string | undefined;
  while (!url) {
    const out = output();
    const m = /listening on (http\S+)/.exec(out);
    if (m) url = m[1];
    else if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${out}`);
    else if (Date.now() > deadline) {
      proc.kill();
      throw new Error(`server did not start within ${timeoutMs} ms:\n${out}`);
    } else await Bun.sleep(20);
  }
  return {
    url,
    proc,
    output,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      proc.kill(signal);
      return await proc.exited;
    },
  };
}
