import { revision, type Random } from "./random.ts";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** App version the hosted service stamps on records it writes (`_version`). */
export const APP_VERSION = "2.20.3";

/** The hosted service's own timestamp objects carry seconds and nanoseconds. */
export function serviceTime(ms: number): { _seconds: number; _nanoseconds: number } {
  return { _seconds: Math.floor(ms / 1000), _nanoseconds: (ms % 1000) * 1_000_000 };
}

/** Undocumented metadata every stored record carries in real responses. */
export function recordMeta(random: Random, created: number, updated: number): Record<string, unknown> {
  return {
    _created: serviceTime(created),
    _rev: revision(random),
    _timestamp: serviceTime(updated),
    _timestamp_ms: updated,
    _version: APP_VERSION,
  };
}
