// Reading values out of stored documents, and printing them, the same way on every page.

export const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
export const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const fixed = (digits: number, unit = "") => (v: number) => `${v.toFixed(digits)}${unit}`;

export const formatSg = (sg: number) => sg.toFixed(3);
export const formatTemp = (t: number) => `${t.toFixed(1)} °C`;
/** A gravity change with its sign: "−0.004", "+0.001", "±0.000". */
export function formatSgChange(delta: number): string {
  const rounded = Math.round(delta * 1000);
  return rounded === 0 ? "±0.000" : `${rounded < 0 ? "−" : "+"}${Math.abs(rounded / 1000).toFixed(3)}`;
}

/** A stock amount as it is kept (6 decimals at most), without trailing zeros. */
export const formatAmount = (v: number) => String(Number(v.toFixed(6)));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A duration in the largest units a person reads at a glance: "5 min", "3 h 20 min", "2 days 4 h". */
export function duration(ms: number): string {
  const m = Math.max(0, Math.floor(ms / MINUTE));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return `${d} ${d === 1 ? "day" : "days"}${h % 24 ? ` ${h % 24} h` : ""}`;
}

/** "3 h ago"; a time ahead of the clock (a device with a wrong clock) reads "just now". */
export function ago(time: number, now: number): string {
  return now - time < MINUTE ? "just now" : `${duration(now - time)} ago`;
}

export { DAY, HOUR };
