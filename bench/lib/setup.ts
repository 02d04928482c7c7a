import { existsSync } from "node:fs";
import { join } from "node:path";

// What the benchmark needs beyond the repository: wrk from Debian and the peers' own packages.

async function run(cmd: string[], log: (s: string) => void): Promise<void> {
  log(`$ ${cmd.join(" ")}`);
  const proc = Bun.spawn(cmd, { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`failed: ${cmd.join(" ")}`);
}

const has = (bin: string) => Bun.which(bin) !== null;

export async function ensureTools(log: (s: string) => void): Promise<void> {
  if (!has("taskset")) throw new Error("taskset (util-linux) is required to pin processes to cores");
  if (!has("wrk")) {
    const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
    // A fresh machine may have no package lists yet.
    await run([...sudo, "apt-get", "update"], log);
    await run([...sudo, "apt-get", "install", "-y", "wrk"], log);
  }
}

/** Installs bench/peers (Fastify, better-sqlite3 built by node-gyp, json-server) when missing. */
export async function ensurePeers(log: (s: string) => void): Promise<void> {
  const dir = join(import.meta.dir, "..", "peers");
  const built = join(dir, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
  const ready = [built, join(dir, "node_modules", "fastify"), join(dir, "node_modules", "json-server")].every((p) => existsSync(p));
  if (ready) return;
  if (!has("node") || !has("npm")) throw new Error("node and npm are required for the peers in bench/peers");
  await run(["npm", "install", "--prefix", dir, "--no-audit", "--no-fund"], log);
}
