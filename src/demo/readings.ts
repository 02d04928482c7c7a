import { HOUR, MINUTE } from "./meta.ts";
import { createRandom, jitter, round } from "./random.ts";

// Fermentation readings as a hydrometer device and the brewer log them: gravity
// follows a logistic attenuation curve from OG to FG, the temperature rises a
// little while the yeast is most active, and the device battery slowly drains.

type Reading = Record<string, unknown>;

export interface ManualReading {
  afterHours: number;
  comment: string;
  /** false logs a temperature only: real manual readings may carry `sg: null`. */
  withGravity: boolean;
}

export interface ReadingSeries {
  seed: number;
  start: number;
  og: number;
  fg: number;
  /** Hours until half of the fermentable sugar is gone, and how steep the curve is. */
  halfwayHours: number;
  spreadHours: number;
  /** Fermenter temperature before the yeast's own heat is added. */
  baseTemp: (hours: number) => number;
  tempRange: readonly [number, number];
  device?: { type: string; id: string; everyHours: number; days: number };
  manual: ManualReading[];
}

export function buildReadings(series: ReadingSeries): Reading[] {
  const random = createRandom(series.seed);
  const logistic = (hours: number) => 1 / (1 + Math.exp(-(hours - series.halfwayHours) / series.spreadHours));
  const atStart = logistic(0);
  const gravityAt = (hours: number) =>
    series.og - (series.og - series.fg) * ((logistic(hours) - atStart) / (1 - atStart));
  const tempAt = (hours: number) => {
    const activity = 4 * logistic(hours) * (1 - logistic(hours));
    const [low, high] = series.tempRange;
    return round(Math.min(high, Math.max(low, series.baseTemp(hours) + 0.8 * activity + jitter(random, 0.15))), 1);
  };

  const readings: Reading[] = [];
  const device = series.device;
  if (device) {
    const count = Math.floor((device.days * 24) / device.everyHours);
    for (let i = 0; i < count; i++) {
      const hours = i * device.everyHours;
      const time = series.start + hours * HOUR + 5 * MINUTE + Math.floor(random() * 10 * MINUTE);
      const sg = round(gravityAt(hours) + jitter(random, 0.0006), 3);
      readings.push({
        time,
        sg,
        temp: tempAt(hours),
        // A calibrated iSpindel tilts about 25 degrees in water and 4 more per 10 points.
        angle: round(25 + (sg - 1) * 400 + jitter(random, 0.3), 5),
        battery: round(4.1 - 0.004 * (hours / 24) + jitter(random, 0.003), 6),
        rssi: -62 + Math.round(jitter(random, 6)),
        id: device.id,
        type: device.type,
      });
    }
  }
  for (const entry of series.manual) {
    readings.push({
      time: series.start + Math.round(entry.afterHours * HOUR),
      sg: entry.withGravity ? round(gravityAt(entry.afterHours), 3) : null,
      temp: tempAt(entry.afterHours),
      comment: entry.comment,
      id: "manual",
      type: "manual",
    });
  }
  return readings.sort((a, b) => (a.time as number) - (b.time as number));
}
