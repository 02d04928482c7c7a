// Unit conversions into the Reading Object's units (API document, Reading Object: SG and Celsius) and
// the stored pressure unit, PSI (docs/decisions.md, Devices).

export type TempUnit = "C" | "F" | "K";
export type GravityUnit = "G" | "P";
export type PressureUnit = "PSI" | "BAR" | "KPA";

export const TEMP_UNITS: readonly TempUnit[] = ["C", "F", "K"];
export const GRAVITY_UNITS: readonly GravityUnit[] = ["G", "P"];
/** Other names hobby senders give the two gravity units (read in capitals): the meaning is plain. */
export const GRAVITY_UNIT_ALIASES: Readonly<Record<string, GravityUnit>> = { SG: "G", PLATO: "P", "°P": "P" };
export const PRESSURE_UNITS: readonly PressureUnit[] = ["PSI", "BAR", "KPA"];

/** Decimal places kept of a value that was converted or offset (float noise such as 1.0479999 dropped). */
export const PLACES = { sg: 4, temp: 2, pressure: 3 } as const;

export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

export function toCelsius(value: number, unit: TempUnit): number {
  if (unit === "C") return value;
  return roundTo(unit === "F" ? ((value - 32) * 5) / 9 : value - 273.15, PLACES.temp);
}

/** Degrees Plato to specific gravity (the usual brewing approximation, exact to 0.0001 over 0 to 30 °P). */
export function platoToSg(plato: number): number {
  return roundTo(1 + plato / (258.6 - (plato / 258.2) * 227.1), PLACES.sg);
}

const PSI_PER: Record<PressureUnit, number> = { PSI: 1, BAR: 14.5037738, KPA: 0.145037738 };

export function toPsi(value: number, unit: PressureUnit): number {
  return unit === "PSI" ? value : roundTo(value * PSI_PER[unit], PLACES.pressure);
}
