// The three logging formats read into one normalized post (README, Devices; docs/decisions.md, Devices).
import { describe, expect, test } from "bun:test";
import { HttpError } from "../../src/http/errors.ts";
import { parsePost, timepointToMs, type DevicePost, type DeviceType } from "../../src/devices/parse.ts";
import { platoToSg, toCelsius, toPsi } from "../../src/devices/units.ts";

const ACCEPTED: Array<{ name: string; type: DeviceType; body: Record<string, unknown>; post: Omit<DevicePost, "type"> }> = [
  {
    name: "iSpindel firmware JSON: gravity in Plato converted to SG, chip id and token ignored",
    type: "iSpindel",
    body: { name: "iSpindel000", ID: 6851234, token: "t", angle: 52.8, temperature: 19.5, temp_units: "C", battery: 4.08, gravity: 12.5, interval: 900, RSSI: -75 },
    post: { name: "iSpindel000", key: "ISPINDEL000", values: { sg: 1.0505, temp: 19.5, battery: 4.08, rssi: -75, angle: 52.8 } },
  },
  {
    name: "iSpindel named with [SG]: gravity is SG and the mark is not part of the name",
    type: "iSpindel",
    body: { name: "Red Spindle [SG]", ID: 1, angle: 40.1, temperature: 66.2, temp_units: "F", battery: 3.9, gravity: 1.046, RSSI: -60 },
    post: { name: "Red Spindle", key: "RED SPINDLE", values: { sg: 1.046, temp: 19, battery: 3.9, rssi: -60, angle: 40.1 } },
  },
  {
    name: "GravityMon before 1.0: its iSpindel format's temp-units (kebab-case) and lower-case rssi are read",
    type: "iSpindel",
    body: { name: "gravmonF[SG]", ID: "2E6753", token: "gravitmon", interval: 900, temperature: 68.0, "temp-units": "F", gravity: 1.045, "corr-gravity": 1.045, angle: 45.34, battery: 3.67, rssi: -62, "gravity-unit": "G", "run-time": 2.3 },
    post: { name: "gravmonF", key: "GRAVMONF", values: { sg: 1.045, temp: 20, battery: 3.67, rssi: -62, angle: 45.34 } },
  },
  {
    name: "an RSSI sent with a fraction is rounded to whole dBm, as clients read it as an integer",
    type: "iSpindel",
    body: { name: "r", gravity: 1, RSSI: "-67.6" },
    post: { name: "r", key: "R", values: { sg: 1.0039, rssi: -68 } },
  },
  {
    name: "iSpindel at 0 °P is water, SG 1",
    type: "iSpindel",
    body: { name: "s", gravity: 0, temperature: 20 },
    post: { name: "s", key: "S", values: { sg: 1, temp: 20 } },
  },
  {
    name: "Custom Stream in C, SG and PSI keeps the values as sent",
    type: "stream",
    body: { name: "Fermenter 1", temp: 18.25, aux_temp: 4.5, ext_temp: 21, temp_unit: "C", gravity: 1.0123, gravity_unit: "G", pressure: 12.4, pressure_unit: "PSI", ph: 4.4, bpm: 12, comment: "hi", beer: "Pils", battery: 3.7 },
    post: { name: "Fermenter 1", key: "FERMENTER 1", values: { sg: 1.0123, temp: 18.25, auxTemp: 4.5, extTemp: 21, pressure: 12.4, ph: 4.4, bpm: 12, comment: "hi", beer: "Pils", battery: 3.7 } },
  },
  {
    name: "Custom Stream in F, Plato and BAR is converted to C, SG and PSI",
    type: "stream",
    body: { name: "f", temp: 68, aux_temp: 50, ext_temp: 77, temp_unit: "F", gravity: 10, gravity_unit: "P", pressure: 1, pressure_unit: "BAR" },
    post: { name: "f", key: "F", values: { sg: 1.04, temp: 20, auxTemp: 10, extTemp: 25, pressure: 14.504 } },
  },
  {
    name: "Custom Stream in K and KPA is converted to C and PSI",
    type: "stream",
    body: { name: "k", temp: 293.15, temp_unit: "K", pressure: 100, pressure_unit: "KPA" },
    post: { name: "k", key: "K", values: { temp: 20, pressure: 14.504 } },
  },
  {
    name: "gravity units named as hobby senders name them: SG, Plato, °P",
    type: "stream",
    body: { name: "g", gravity: 1.05, gravity_unit: "SG" },
    post: { name: "g", key: "G", values: { sg: 1.05 } },
  },
  {
    name: "Plato spelled out, in any case",
    type: "stream",
    body: { name: "p", gravity: 12.5, gravity_unit: "plato", temp: 20 },
    post: { name: "p", key: "P", values: { sg: 1.0505, temp: 20 } },
  },
  {
    name: "unit names in lower case are accepted",
    type: "stream",
    body: { name: "l", temp: 212, temp_unit: "f", gravity: 5, gravity_unit: "p", pressure: 2, pressure_unit: "bar" },
    post: { name: "l", key: "L", values: { sg: 1.0197, temp: 100, pressure: 29.008 } },
  },
  {
    name: "numbers sent as strings are numbers (TiltBridge)",
    type: "stream",
    body: { name: "Tilt Red", temp: "68.2", temp_unit: "F", gravity: "1.050", gravity_unit: "G", report_source: "TiltBridge" },
    post: { name: "Tilt Red", key: "TILT RED", values: { sg: 1.05, temp: 20.11 } },
  },
  {
    name: "camelCase twins read as the documented names",
    type: "stream",
    body: { name: "c", temp: 50, tempUnit: "F", auxTemp: 41, extTemp: 59, gravity: 12, gravityUnit: "P", pressure: 1, pressureUnit: "BAR" },
    post: { name: "c", key: "C", values: { sg: 1.0484, temp: 10, auxTemp: 5, extTemp: 15, pressure: 14.504 } },
  },
  {
    name: "a misspelled gravity_unity is ignored: the default SG applies",
    type: "stream",
    body: { name: "pitch", temp: 20, gravity: 1.040, gravity_unity: "P" },
    post: { name: "pitch", key: "PITCH", values: { sg: 1.04, temp: 20 } },
  },
  {
    name: "the zero template: 0 for aux_temp, ext_temp, pressure, ph and battery means not sent, 0 bpm and 0 °C are values",
    type: "stream",
    body: { name: "GravityMon", temp: 0, aux_temp: 0, ext_temp: 0, gravity: 1.02, pressure: 0, ph: 0, bpm: 0, battery: 0, comment: "", beer: "" },
    post: { name: "GravityMon", key: "GRAVITYMON", values: { sg: 1.02, temp: 0, bpm: 0 } },
  },
  {
    name: "a gravity of 0 in SG is not sent; name and bpm alone are a post (Brew Bubbles)",
    type: "stream",
    body: { name: "bubbles", bpm: 3, gravity: 0 },
    post: { name: "bubbles", key: "BUBBLES", values: { bpm: 3 } },
  },
  {
    name: "device_* and *_target keys are ignored",
    type: "stream",
    body: { name: "x", temp: 19, device_integration: "default", device_source: "Tilt", device_state: "cooling", temp_target: 18, gravity_target: 1.01, hysteresis: 0.5 },
    post: { name: "x", key: "X", values: { temp: 19 } },
  },
  {
    name: "TiltPi form fields as strings: Temp in F, Color the identity, Timepoint read in the server's zone",
    type: "tilt",
    body: { Timepoint: "45658.5", Temp: "68", SG: "1.052", Beer: "Saison", Color: "RED", Comment: "" },
    post: { name: "RED", key: "RED", time: new Date(2025, 0, 1, 12, 0, 0).getTime(), values: { sg: 1.052, temp: 20, beer: "Saison" } },
  },
  {
    name: "Tilt JSON with lower-case keys and a colour in mixed case, read in capitals",
    type: "tilt",
    body: { color: "Blue", temp: 50, sg: "1.010" },
    post: { name: "BLUE", key: "BLUE", values: { sg: 1.01, temp: 10 } },
  },
];

describe("accepted posts", () => {
  for (const { name, type, body, post } of ACCEPTED) {
    test(name, () => {
      expect(parsePost(type, body)).toEqual({ type, ...post });
    });
  }
});

const REFUSED: Array<{ name: string; type: DeviceType; body: Record<string, unknown>; text: string }> = [
  { name: "no name is 400 Missing name", type: "stream", body: { temp: 20 }, text: "Missing name" },
  { name: "an empty name is 400 Missing name", type: "stream", body: { name: "  ", temp: 20 }, text: "Missing name" },
  { name: "a name that is not text is 400 Invalid name", type: "stream", body: { name: { a: 1 }, temp: 20 }, text: "Invalid name" },
  { name: "a name of 65 characters is 400 Invalid name", type: "stream", body: { name: "n".repeat(65), temp: 20 }, text: "Invalid name" },
  { name: "a name with a slash is 400 Invalid name", type: "stream", body: { name: "a/b", temp: 20 }, text: "Invalid name" },
  { name: "a Tilt without Color is 400 Missing Color", type: "tilt", body: { Temp: 68, SG: 1.05 }, text: "Missing Color" },
  { name: "an iSpindel named [SG] alone is 400 Invalid name", type: "iSpindel", body: { name: "[SG]", gravity: 1.05 }, text: "Invalid name" },
  { name: "a name with no value is 400 No value", type: "stream", body: { name: "n", comment: "just words" }, text: "No value: send at least one of temp, gravity, pressure, ph, bpm, battery, angle" },
  { name: "only zeros of the template is 400 No value", type: "stream", body: { name: "n", aux_temp: 0, pressure: 0, ph: 0 }, text: "No value: send at least one of temp, gravity, pressure, ph, bpm, battery, angle" },
  { name: "a non-numeric temp is 400 Invalid temp", type: "stream", body: { name: "n", temp: "warm" }, text: "Invalid temp" },
  { name: "a boolean gravity is 400 Invalid gravity", type: "stream", body: { name: "n", gravity: true }, text: "Invalid gravity" },
  { name: "a hex string is not a number", type: "stream", body: { name: "n", temp: "0x10" }, text: "Invalid temp" },
  { name: "an unknown temp_unit is 400 Invalid temp_unit", type: "stream", body: { name: "n", temp: 1, temp_unit: "R" }, text: "Invalid temp_unit" },
  { name: "an unknown gravity_unit is 400 Invalid gravity_unit", type: "stream", body: { name: "n", gravity: 1.05, gravity_unit: "BRIX" }, text: "Invalid gravity_unit" },
  { name: "an unknown pressure_unit is 400 Invalid pressure_unit", type: "stream", body: { name: "n", pressure: 1, pressure_unit: "ATM" }, text: "Invalid pressure_unit" },
  { name: "a pH of 15 is 400 Invalid ph", type: "stream", body: { name: "n", ph: 15 }, text: "Invalid ph" },
  { name: "a non-numeric iSpindel RSSI is 400 Invalid RSSI", type: "iSpindel", body: { name: "n", gravity: 10, RSSI: "strong" }, text: "Invalid RSSI" },
  { name: "a non-numeric Tilt SG is 400 Invalid SG", type: "tilt", body: { Color: "RED", SG: "1,050" }, text: "Invalid SG" },
  { name: "a Timepoint before 2000 is 400 Invalid Timepoint", type: "tilt", body: { Color: "RED", SG: 1.05, Timepoint: 100 }, text: "Invalid Timepoint" },
];

describe("refused posts", () => {
  for (const { name, type, body, text } of REFUSED) {
    test(name, () => {
      let caught: unknown;
      try {
        parsePost(type, body);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(HttpError);
      expect((caught as HttpError).status).toBe(400);
      expect((caught as HttpError).body).toBe(text);
    });
  }
});

describe("units", () => {
  test("0 °P is SG 1, 10 °P is 1.04, 12 °P 1.0484, 20 °P 1.083", () => {
    expect([platoToSg(0), platoToSg(10), platoToSg(12), platoToSg(20)]).toEqual([1, 1.04, 1.0484, 1.083]);
  });
  test("32 °F is 0 °C and 273.15 K is 0 °C; °C stays as sent", () => {
    expect([toCelsius(32, "F"), toCelsius(273.15, "K"), toCelsius(18.123456, "C")]).toEqual([0, 0, 18.123456]);
  });
  test("1 bar is 14.504 PSI, 100 kPa is 14.504 PSI, PSI stays as sent", () => {
    expect([toPsi(1, "BAR"), toPsi(100, "KPA"), toPsi(12.3456, "PSI")]).toEqual([14.504, 14.504, 12.3456]);
  });
});

describe("Tilt Timepoint", () => {
  test("a serial day is read as the server's local wall-clock time", () => {
    // 45658 is 2025-01-01; .25 is 06:00.
    expect(timepointToMs(45658.25)).toBe(new Date(2025, 0, 1, 6, 0, 0).getTime());
  });
  test("in UTC the serial day 45658.5 is 2025-01-01T12:00:00Z", () => {
    expect(inZone("UTC", () => timepointToMs(45658.5))).toBe(Date.UTC(2025, 0, 1, 12));
  });
  test("in Europe/Amsterdam the serial day 45658.5 is 11:00 UTC (winter time)", () => {
    expect(inZone("Europe/Amsterdam", () => timepointToMs(45658.5))).toBe(Date.UTC(2025, 0, 1, 11));
  });
});

function inZone<T>(zone: string, run: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return run();
  } finally {
    process.env.TZ = before ?? "";
  }
}
