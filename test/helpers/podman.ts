import { existsSync } from "node:fs";
import { join } from "node:path";

// Podman as it runs on hosts like ours: crun refuses their hybrid cgroups, so runc; no systemd manages
// cgroups, so cgroupfs. scripts/ensure-podman.sh installs what this needs.

const ROOT = join(import.meta.dir, "..", "..");
const RUNC = "/usr/sbin/runc";
/** The stand-in base image's shell and tools (test/helpers/bun-image-stand-in.ts). */
const BUSYBOX = "/bin/busybox";
const GLOBAL_FLAGS = ["--runtime", RUNC, "--cgroup-manager=cgroupfs"];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Why the container test cannot run here, or undefined when it can. */
export function podmanMissing(): string | undefined {
  const missing = [Bun.which("podman") ? "" : "podman", existsSync(RUNC) ? "" : "runc", existsSync(BUSYBOX) ? "" : "busybox-static"].filter(Boolean);
  if (missing.length > 0) return `${missing.join(", ")} not installed; as root run: bash scripts/ensure-podman.sh`;
  // Rootless podman needs subordinate ids set up, and the test hands the container's user a key file.
  if (process.getuid?.() !== 0) return "podman runs here as root only; run the tests as root";
  return undefined;
}

/** Runs podman to completion; `timeoutMs` bounds it (a build that reaches the registry, say). */
export function podman(args: string[], options: { stdin?: string; timeoutMs?: number } = {}): Run {
  const res = Bun.spawnSync(["podman", ...GLOBAL_FLAGS, ...args], {
    cwd: ROOT,
    stdin: options.stdin === undefined ? "ignore" : Buffer.from(options.stdin),
    timeout: options.timeoutMs ?? 60_000,
  });
  return { code: res.exitCode ?? -1, stdout: res.stdout.toString(), stderr: res.stderr.toString() };
}

/** As `podman`, and a failure throws with everything podman said. */
export function podmanOk(args: string[], options: { stdin?: string; timeoutMs?: number } = {}): string {
  const res = podman(args, options);
  if (res.code !== 0) throw new Error(`podman ${args.join(" ")} exited ${res.code}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

