import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { podman, podmanOk } from "./podman.ts";
import { tempDir } from "./process.ts";

// A local stand-in for the official Bun base image, which a test host cannot pull: built from this
// machine's files, for the container test only. Users build on the official image.

const BUSYBOX = "/bin/busybox";
/** Set on the stand-in only: an image under the official name without it is the real one. */
const STAND_IN_LABEL = "org.brewrecords.stand-in";

/** The image a Dockerfile's first stage starts from, fully qualified as podman names it. */
export function baseImageOf(dockerfile: string): string {
  const from = /^FROM\s+(?:--\S+\s+)*(\S+)/m.exec(dockerfile)?.[1];
  if (!from) throw new Error("the Dockerfile has no FROM line");
  return from.split("/").length === 2 ? `docker.io/${from}` : from;
}

/** The Bun version an official image's tag names: `oven/bun:1.4.5-slim` is 1.4.5. */
export const bunVersionOf = (image: string) => /:(\d+\.\d+\.\d+)/.exec(image)?.[1];

/**
 * Makes `image` (the official Bun image's name) resolvable without a registry. An image already
 * there under that name without the stand-in label is the real one and is used as it is; a stand-in
 * built from an older recipe (its label holds the bun version and a hash of this file) is replaced.
 * Returns true when a stand-in is used.
 */
export function ensureBaseImage(image: string, bunBinary: string): boolean {
  const version = Bun.spawnSync([bunBinary, "--version"]).stdout.toString().trim();
  const key = `${version}-${Bun.hash(readFileSync(import.meta.path)).toString(16)}`;
  const found = podman(["image", "inspect", "--format", `{{index .Labels "${STAND_IN_LABEL}"}}`, image]);
  if (found.code === 0) {
    const label = found.stdout.trim();
    if (label === "" || label === "<no value>") return false;
    if (label === key) return true;
  }
  if (bunVersionOf(image) !== version) throw new Error(`${image} cannot be stood in for by bun ${version} (${bunBinary}): the versions differ`);
  const dir = tempDir("brewrecords-stand-in-");
  try {
    const root = join(dir.path, "root");
    buildRootFs(root, bunBinary);
    const tar = join(dir.path, "root.tar");
    const packed = Bun.spawnSync(["tar", "--numeric-owner", "-C", root, "-cf", tar, "."]);
    if (packed.exitCode !== 0) throw new Error(`tar failed: ${packed.stderr.toString()}`);
    podmanOk(["import", "--message", "brewrecords test stand-in for the official Bun image", ...importChanges(key), tar, image], { timeoutMs: 120_000 });
  } finally {
    dir.remove();
  }
  return true;
}

// The official slim image's settings that a Dockerfile built on it may rely on.
function importChanges(key: string): string[] {
  const changes = [
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/bun-node-fallback-bin",
    "ENV BUN_RUNTIME_TRANSPILER_CACHE_PATH=0",
    "ENV BUN_INSTALL_BIN=/usr/local/bin",
    "WORKDIR /home/bun/app",
    'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]',
    'CMD ["/usr/local/bin/bun"]',
    `LABEL ${STAND_IN_LABEL}=${key}`,
  ];
  return changes.flatMap((c) => ["--change", c]);
}

/**
 * A root filesystem with what the official image offers a Dockerfile: bun (and bunx, and node as a
 * fallback name) in /usr/local/bin, the C libraries bun links, a shell and the usual tools (busybox,
 * with /usr/bin/env for `#!/usr/bin/env bun`), a `bun` user and group with id 1000, and an entrypoint
 * that runs a command found on PATH and hands anything else to bun.
 */
function buildRootFs(root: string, bunBinary: string): void {
  for (const d of ["bin", "usr/bin", "usr/local/bin", "usr/local/bun-node-fallback-bin", "etc", "root", "home/bun/app", "tmp"]) {
    mkdirSync(join(root, d), { recursive: true });
  }
  chmodSync(join(root, "tmp"), 0o1777);
  chownSync(join(root, "home", "bun"), 1000, 1000);
  chownSync(join(root, "home", "bun", "app"), 1000, 1000);

  copyFileSync(bunBinary, join(root, "usr/local/bin/bun"));
  chmodSync(join(root, "usr/local/bin/bun"), 0o755);
  symlinkSync("/usr/local/bin/bun", join(root, "usr/local/bin/bunx"));
  symlinkSync("/usr/local/bin/bun", join(root, "usr/local/bun-node-fallback-bin/node"));
  for (const lib of linkedLibraries(bunBinary)) {
    mkdirSync(join(root, dirname(lib)), { recursive: true });
    copyFileSync(realpathSync(lib), join(root, lib));
  }

  copyFileSync(BUSYBOX, join(root, "bin/busybox"));
  chmodSync(join(root, "bin/busybox"), 0o755);
  const applets = Bun.spawnSync([BUSYBOX, "--list"]).stdout.toString().split("\n").filter((a) => a && a !== "busybox");
  for (const applet of applets) symlinkSync("busybox", join(root, "bin", applet));
  symlinkSync("/bin/busybox", join(root, "usr/bin/env"));

  writeFileSync(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\nbun:x:1000:1000::/home/bun:/bin/sh\n");
  writeFileSync(join(root, "etc/group"), "root:x:0:\nbun:x:1000:\n");
  const entrypoint = join(root, "usr/local/bin/docker-entrypoint.sh");
  writeFileSync(
    entrypoint,
    [
      "#!/bin/sh",
      "set -e",
      '# An option, or a name not found on PATH, is an argument to bun; anything else runs as given.',
      'if [ "${1#-}" != "$1" ] || ! command -v "$1" >/dev/null 2>&1; then set -- bun "$@"; fi',
      'exec "$@"',
      "",
    ].join("\n"),
  );
  chmodSync(entrypoint, 0o755);
}

/** The shared libraries and loader `ldd` names for a binary, as absolute paths. */
function linkedLibraries(binary: string): string[] {
  const res = Bun.spawnSync(["ldd", binary]);
  if (res.exitCode !== 0) throw new Error(`ldd ${binary} failed: ${res.stderr.toString()}`);
  return [...res.stdout.toString().matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((m) => m[1]);
}
