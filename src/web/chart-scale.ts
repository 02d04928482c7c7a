// Axis arithmetic for the reading chart: round tick steps and calendar-aligned time ticks.

export interface Ticks {
  lo: number;
  hi: number;
  step: number;
  values: number[];
}

/** Decimals needed to print multiples of `step` exactly. */
export function decimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/**
 * An axis from a rounded value at or below `min` to one at or above `max`, in steps of 1, 2 or 5
 * times a power of ten, with about `count` intervals. A flat range is widened by `pad` each way.
 */
export function niceTicks(min: number, max: number, count = 5, pad = 1): Ticks {
  if (max - min < 1e-12) {
    min -= pad;
    max += pad;
  }
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  const digits = decimalsOf(step);
  const round = (v: number) => Number(v.toFixed(digits));
  const lo = round(Math.floor(min / step + 1e-9) * step);
  const hi = round(Math.ceil(max / step - 1e-9) * step);
  const values: number[] = [];
  for (let i = 0; lo + i * step <= hi + step / 2; i++) values.push(round(lo + i * step));
  return { lo, hi, step, values };
}

/**
 * The range widened about its middle to at least `span`, so that noise of a few tenths of a degree
 * is drawn as the small thing it is rather than across the whole height of the chart.
 */
export function atLeastSpan(min: number, max: number, span: number): [number, number] {
  if (max - min >= span) return [min, max];
  const mid = (min + max) / 2;
  return [mid - span / 2, mid + span / 2];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TIME_STEPS = [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 91 * DAY, 364 * DAY];

/** Time ticks (Unix ms, aligned to UTC hours or midnights) inside [from, to], at most `max` of them. */
export function timeTicks(from: number, to: number, max = 8): { step: number; values: number[] } {
  const span = Math.max(to - from, 1);
  const step = TIME_STEPS.find((s) => span / s <= max) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
  const values: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) values.push(t);
  return { step, values };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Mar 5" for day steps, "Mar 5 06:00" for hour steps (UTC). */
export function timeLabel(t: number, step: number): string {
  const d = new Date(t);
  const day = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  return step < DAY ? `${day} ${String(d.getUTCHours()).padStart(2, "0")}:00` : day;
}

/** "2024-03-05 14:30 UTC". */
export function dateTimeUtc(t: number): string {
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "2024-03-05" (UTC). */
export function dateUtc(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
