#!/usr/bin/env bun
import { ConfigError, loadConfig } from "../config.ts";
import { openStore } from "../store/open.ts";
import { runCommand } from "./commands.ts";
import { UsageError } from "./usage-error.ts";

try {
  const config = loadConfig();
  const code = await runCommand(process.argv.slice(2), config, (url) => openStore(url, config));
  if (code !== undefined) process.exit(code);
} catch (e) {
  if (e instanceof UsageError || e instanceof ConfigError) {
    console.error(`brewrecords: ${e.message}`);
    process.exit(e instanceof UsageError ? e.exitCode : 2);
  }
  throw e;
}
