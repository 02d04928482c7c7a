import { chmodSync, chownSync, existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseImageOf, ensureBaseImage } from "./bun-image-stand-in.ts";
import { podman, podmanOk } from "./podman.ts";
import { freePort, selfSignedCertificate, tempDir } from "./process.ts";

// The project's Dockerfile built and run with podman, the way a user runs the image: HTTPS from
// mounted certificate files, data in a named volume.

const ROOT = join(import.meta.dir, "..", "..");
/** The Dockerfile's stage that installs the dependencies: the one step that reaches the registry. */
const INSTALL_STAGE = "deps";
/** The bun of the `bun` package: the version package.json pins, which the stand-in base image holds. */
const BUN_BINARY = join(ROOT, "node_modules", ".bin", "bun");

/**
 * Builds the Dockerfile as `tag`; returns true when the official base image was not here and the
 * test's stand-in took its place. The base image and every step's layers stay in podman's store as
 * the next build's cache: with the dependencies unchanged, nothing reaches the registry again.
 */
function buildImage(tag: string): boolean {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const standIn = ensureBaseImage(baseImageOf(dockerfile), realpathSync(BUN_BINARY));
  // The Docker format keeps HEALTHCHECK (the OCI format has no place for it); --pull=never: the base
  // image is the one here, never a registry's.
  const build = ["build", "--format", "docker", "--network", "host", "--pull=never"];
  // A host that reaches the registry through a proxy with its own CA names it in NODE_EXTRA_CA_CERTS:
  // the install stage is built first with that CA handed to bun (a global bunfig in root's home). The
  // mounts leave empty files where they were, so the image under test takes the stage from the cache,
  // where mounts are no part of a step's key, and keeps none of that.
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca && existsSync(ca)) {
    const dir = tempDir("brewrecords-build-ca-");
    try {
      const bunfig = join(dir.path, "bunfig.toml");
      writeFileSync(bunfig, '[install]\ncafile = "/run/build-ca.pem"\n');
      const mounts = ["-v", `${bunfig}:/root/.bunfig.toml:ro`, "-v", `${realpathSync(ca)}:/run/build-ca.pem:ro`];
      podmanOk([...build, ...mounts, "--target", INSTALL_STAGE, "."], { timeoutMs: 600_000 });
    } finally {
      dir.remove();
    }
  }
  podmanOk([...build, "-t", tag, "."], { timeoutMs: 600_000 });
  return standIn;
}

/** A self-signed certificate for localhost and 127.0.0.1, and its key readable by `keyOwner` alone. */
export function makeCertificate(dir: string, keyOwner: number): { cert: string; key: string } {
  const { cert, key } = selfSignedCertificate(dir);
  chownSync(key, keyOwner, keyOwner);
  chmodSync(key, 0o600);
  return { cert, key };
}

/**
 * What one test run builds and starts: the image, containers and volumes carry the run's own names,
 * so cleanup removes them and nothing another run made.
 */
export class ContainerRun {
  readonly prefix = `brewrecords-test-${process.pid}-${Date.now().toString(36)}`;
  readonly image = `localhost/${this.prefix}:latest`;
  private containers = new Set<string>();
  private volumes = new Set<string>();

  /** Builds the image; true when it stands on the test's stand-in for the official base image. */
  build(): boolean {
    return buildImage(this.image);
  }

  name(what: string): string {
    this.containers.add(`${this.prefix}-${what}`);
    return `${this.prefix}-${what}`;
  }

  volume(what: string): string {
    this.volumes.add(`${this.prefix}-${what}`);
    return `${this.prefix}-${what}`;
  }

  remove(): void {
    for (const c of this.containers) podman(["rm", "-f", "-t", "0", c]);
    for (const v of this.volumes) podman(["volume", "rm", "-f", v]);
    podman(["rmi", this.image]);
  }
}

export interface RunOptions {
  image: string;
  name: string;
  volume: string;
  cert: string;
  key: string;
}

/** The arguments of `podman run` for the image as the README runs it, on a port of this host. */
export function runArgs(o: RunOptions, port: number): string[] {
  return [
    "--name", o.name, "--network", "host", "-e", `PORT=${port}`, "-v", `${o.volume}:/data`,
    "-v", `${o.cert}:/certs/cert.pem:ro`, "-v", `${o.key}:/certs/key.pem:ro`,
    "-e", "TLS_CERT_FILE=/certs/cert.pem", "-e", "TLS_KEY_FILE=/certs/key.pem", o.image,
  ];
}

export interface RunningContainer {
  name: string;
  /** https://127.0.0.1:<port> */
  url: string;
  /** fetch trusting the container's certificate. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** `podman inspect --format` of the container. */
  inspect(format: string): string;
  /** `podman exec`, as the image's user. */
  exec(args: string[], stdin?: string): { code: number; stdout: string; stderr: string };
  /** Waits until the server answers /healthz again (after `podman start`, say). */
  ready(): Promise<void>;
}

/** Starts the image detached on a free port and waits until it answers over HTTPS. */
export async function runContainer(o: RunOptions): Promise<RunningContainer> {
  const port = freePort();
  podmanOk(["run", "-d", ...runArgs(o, port)]);
  const url = `https://127.0.0.1:${port}`;
  const ca = readFileSync(o.cert, "utf8");
  const call = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, { ...init, tls: { ca } });
  const inspect = (format: string) => podmanOk(["inspect", "--format", format, o.name]).trim();
  const ready = async () => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await call("/healthz").then((r) => r.status, () => 0);
      if (answer === 200) return;
      if (inspect("{{.State.Status}}") === "exited" || Date.now() > deadline) {
        const logs = podman(["logs", o.name]);
        throw new Error(`${o.name} did not become ready (last /healthz: ${answer || "no answer"}):\n${logs.stdout}${logs.stderr}`);
      }
      await Bun.sleep(100);
    }
  };
  await ready();
  return {
    name: o.name,
    url,
    call,
    inspect,
    exec: (args, stdin) => podman(["exec", ...(stdin === undefined ? [] : ["-i"]), o.name, ...args], { stdin }),
    ready,
  };
}
