// LOGGING_PORT and LOGGING_MIN_INTERVAL_SECONDS (README, Configuration).
import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

test("without LOGGING_PORT there is no logging listener, and the interval is 900 s", () => {
  const config = loadConfig({});
  expect([config.loggingPort, config.loggingMinIntervalSeconds]).toEqual([undefined, 900]);
});

test("LOGGING_PORT=0 picks a free port; LOGGING_MIN_INTERVAL_SECONDS=0 stores every post", () => {
  const config = loadConfig({ LOGGING_PORT: "0", LOGGING_MIN_INTERVAL_SECONDS: "0" });
  expect([config.loggingPort, config.loggingMinIntervalSeconds]).toEqual([0, 0]);
});

for (const [name, value] of [["LOGGING_PORT", "70000"], ["LOGGING_PORT", "http"], ["LOGGING_MIN_INTERVAL_SECONDS", "-1"], ["LOGGING_MIN_INTERVAL_SECONDS", "15m"]] as const) {
  test(`${name}=${value} stops the start with a ConfigError naming it`, () => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
}
