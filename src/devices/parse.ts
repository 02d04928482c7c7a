import { badRequest, ERRORS } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { MAX_TEXT, numberField, rawField, textField, unitField } from "./fields.ts";
import { GRAVITY_UNIT_ALIASES, GRAVITY_UNITS, platoToSg, PRESSURE_UNITS, TEMP_UNITS, toCelsius, toPsi, type TempUnit } from "./units.ts";

// The three logging formats (README, Devices), each read into one normalized post in the Reading
// Object's units. Unknown keys are ignored, so a misspelled unit key leaves the default unit.

/** Device types as a batch's `devices` names them, and as a stored reading's `type`. */
export const DEVICE_TYPES = ["iSpindel", "tilt", "stream"] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** What a post measured, in SG, °C and PSI; absent values are left out. */
export interface DeviceValues {
  sg?: number;
  temp?: number;
  auxTemp?: number;
  extTemp?: number;
  pressure?: number;
  ph?: number;
  bpm?: number;
  battery?: number;
  rssi?: number;
  angle?: number;
  comment?: string;
  beer?: string;
}

/** Values that count as a measurement: a post needs at least one. */
const MEASURED: readonly (keyof DeviceValues)[] = ["sg", "temp", "auxTemp", "extTemp", "pressure", "ph", "bpm", "battery", "angle"];

export interface DevicePost {
  type: DeviceType;
  /** The device's identity within its type: the name as sent (an iSpindel's without its `[SG]` mark; a Tilt's colour in capitals). */
  name: string;
  /** The name in capitals, as the hosted service keys a batch's items and a reading's `id`. */
  key: string;
  /** The sender's own time of the reading (Unix ms), where it sends one. */
  time?: number;
  values: DeviceValues;
}

export function deviceKey(name: string): string {
  return name.toUpperCase();
}

function devicePost(type: DeviceType, name: string, values: DeviceValues, time?: number): DevicePost {
  return { type, name, key: deviceKey(name), ...(time === undefined ? {} : { time }), values: withoutAbsent(values) };
}

/** Reads a post of the given type; a malformed one is 400 with the first problem named. */
export function parsePost(type: DeviceType, body: Doc): DevicePost {
  const post = type === "iSpindel" ? parseISpindel(body) : type === "tilt" ? parseTilt(body) : parseStream(body);
  if (!MEASURED.some((k) => post.values[k] !== undefined)) throw badRequest(ERRORS.noDeviceValue);
  return post;
}

/** A copy without the members whose value is undefined. */
export function withoutAbsent<T extends object>(values: T): T {
  const out = {} as T;
  for (const [k, v] of Object.entries(values)) if (v !== undefined) (out as Doc)[k] = v;
  return out;
}

// Printable characters only: a name is shown on pages and is part of a URL of the API.
const NAME = /^[^\u0000-\u001f\u007f/]+$/;

/** Whether a device may have this name: 1 to `maxLength` printable characters, no `/`. Posts and the API's paths alike. */
export const isDeviceName = (name: string, maxLength: number = MAX_TEXT.name): boolean => name.length > 0 && name.length <= maxLength && NAME.test(name);

function deviceName(body: Doc, field: string, maxLength: number = MAX_TEXT.name): string {
  if (rawField(body, field) === undefined) throw badRequest(ERRORS.missingDeviceName(field));
  const name = textField(body, field, maxLength + 8);
  if (!name || !isDeviceName(name, maxLength)) throw badRequest(ERRORS.invalidField(field));
  return name;
}

/** pH between 0 and 14, as the Reading Object bounds it; 0 means not sent. */
function phField(body: Doc): number | undefined {
  const ph = numberField(body, "ph", true);
  if (ph !== undefined && (ph < 0 || ph > 14)) throw badRequest(ERRORS.invalidField("ph"));
  return ph;
}

/** RSSI is whole dBm, and clients read it as an integer: a fraction sent is rounded. */
const wholeNumber = (value: number | undefined) => (value === undefined ? undefined : Math.round(value));

const inCelsius = (value: number | undefined, unit: TempUnit) => (value === undefined ? undefined : toCelsius(value, unit));

/** Custom Stream: `name` plus any of the documented values, each with its unit key. */
function parseStream(body: Doc): DevicePost {
  const name = deviceName(body, "name");
  const tempUnit = unitField(body, "temp_unit", TEMP_UNITS, "C");
  const gravityUnit = unitField(body, "gravity_unit", GRAVITY_UNITS, "G", GRAVITY_UNIT_ALIASES);
  const pressureUnit = unitField(body, "pressure_unit", PRESSURE_UNITS, "PSI");
  // 0 °P is water, a real reading; a specific gravity of 0 is not.
  const gravity = numberField(body, "gravity", gravityUnit === "G");
  const pressure = numberField(body, "pressure", true);
  return devicePost("stream", name, {
    sg: gravity === undefined ? undefined : gravityUnit === "P" ? platoToSg(gravity) : gravity,
    temp: inCelsius(numberField(body, "temp"), tempUnit),
    auxTemp: inCelsius(numberField(body, "aux_temp", true), tempUnit),
    extTemp: inCelsius(numberField(body, "ext_temp", true), tempUnit),
    pressure: pressure === undefined ? undefined : toPsi(pressure, pressureUnit),
    ph: phField(body),
    bpm: numberField(body, "bpm"),
    battery: numberField(body, "battery", true),
    rssi: wholeNumber(numberField(body, "rssi", true)),
    angle: numberField(body, "angle"),
    comment: textField(body, "comment"),
    beer: textField(body, "beer"),
  });
}

const SG_MARK = /\s*\[SG\]$/i;

/** iSpindel firmware's JSON: gravity in °P unless the name ends in `[SG]`, which is not part of the name. */
function parseISpindel(body: Doc): DevicePost {
  const marked = deviceName(body, "name", MAX_TEXT.name + 4);
  const inSg = SG_MARK.test(marked);
  const name = marked.replace(SG_MARK, "");
  if (!name || name.length > MAX_TEXT.name) throw badRequest(ERRORS.invalidField("name"));
  const gravity = numberField(body, "gravity", inSg);
  return devicePost("iSpindel", name, {
    sg: gravity === undefined ? undefined : inSg ? gravity : platoToSg(gravity),
    temp: inCelsius(numberField(body, "temperature"), unitField(body, "temp_units", TEMP_UNITS, "C")),
    battery: numberField(body, "battery", true),
    rssi: wholeNumber(numberField(body, "RSSI", true)),
    angle: numberField(body, "angle"),
  });
}

/** TiltPi's form (or the same keys as JSON): `Color` is the identity, `Temp` is °F. */
function parseTilt(body: Doc): DevicePost {
  // Colours are a closed set; senders differ in their letter case (RED, Red).
  const name = deviceName(body, "Color").toUpperCase();
  const timepoint = numberField(body, "Timepoint", true);
  const values = {
    sg: numberField(body, "SG", true),
    temp: inCelsius(numberField(body, "Temp"), "F"),
    comment: textField(body, "Comment"),
    beer: textField(body, "Beer"),
  };
  return devicePost("tilt", name, values, timepoint === undefined ? undefined : timepointToMs(timepoint));
}

const SPREADSHEET_DAY_ZERO = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;
// Serial days of 2000-01-01 and 2100-01-01: a Timepoint outside them is not a time a Tilt logged.
const TIMEPOINT_RANGE = [36_526, 73_051] as const;

/**
 * A spreadsheet serial day (days since 1899-12-30, the fraction the time of day) in the sender's local
 * time, read in this server's time zone (`TZ`): TiltPi sends no zone, and sits beside the server far
 * more often than not (docs/decisions.md, Devices).
 */
export function timepointToMs(serial: number): number {
  if (serial < TIMEPOINT_RANGE[0] || serial > TIMEPOINT_RANGE[1]) throw badRequest(ERRORS.invalidField("Timepoint"));
  const wall = new Date(SPREADSHEET_DAY_ZERO + Math.round(serial * DAY_MS));
  return new Date(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
  ).getTime();
}
