import { Type } from "@sinclair/typebox";
import { badRequest, ERRORS } from "../http/errors.ts";
import type { Doc } from "../lib/json.ts";
import { boundedNumeric } from "../lib/numeric.ts";
import type { ItemSettings } from "./items.ts";
import { DEVICE_TYPES } from "./parse.ts";

// Schemas of the device endpoints beyond the hosted API (README, Beyond the hosted API): written once,
// for the OpenAPI document, with the bounds the checks below use.

export const OFFSET_BOUNDS = { gravityOffset: 100, tempOffset: 20 } as const;

export const DeviceSettingsSchema = Type.Object(
  {
    gravityOffset: Type.Optional(Type.Union([Type.Number({ minimum: -OFFSET_BOUNDS.gravityOffset, maximum: OFFSET_BOUNDS.gravityOffset }), Type.Null()], { description: "Added to every gravity, in SG points (0.001); null for none" })),
    tempOffset: Type.Optional(Type.Union([Type.Number({ minimum: -OFFSET_BOUNDS.tempOffset, maximum: OFFSET_BOUNDS.tempOffset }), Type.Null()], { description: "Added to every temperature, in °C; null for none" })),
  },
  { description: "Calibration offsets; sent fields change, numeric strings count as numbers" },
);

const LastData = Type.Object({}, { additionalProperties: true, description: "The last stored post's values: the Reading Object's, and auxTemp, extTemp, bpm, beer where sent" });

export const DeviceItemSchema = Type.Object({
  name: Type.String(),
  key: Type.String({ description: "The name in capitals: the device's identity within its type" }),
  type: Type.Union(DEVICE_TYPES.map((t) => Type.Literal(t))),
  batchId: Type.String(),
  enabled: Type.Boolean(),
  hidden: Type.Boolean(),
  series: Type.Array(Type.String()),
  lastLog: Type.Union([Type.Number(), Type.Null()], { description: "When the last stored post was received (Unix ms)" }),
  lastData: Type.Union([LastData, Type.Null()]),
  settings: DeviceSettingsSchema,
}, { description: "A device item of a batch (the batch's `devices.<type>.items`)" });

export const DeviceSchema = Type.Object({
  type: Type.String({ description: "iSpindel, tilt or stream" }),
  name: Type.String({ description: "The device's identity within its type: its name (a Tilt's colour)" }),
  batchId: Type.Union([Type.String(), Type.Null()], { description: "The batch it feeds; null: its posts are kept with the device" }),
  firstSeen: Type.Number(),
  lastLog: Type.Union([Type.Number(), Type.Null()]),
  lastData: Type.Union([LastData, Type.Null()]),
  settings: Type.Object({ gravityOffset: Type.Number(), tempOffset: Type.Number() }, { description: "The device's own offsets (0 for none), used while attached to no batch" }),
}, { description: "A device of the account, attached or not" });

/** The device schemas of the OpenAPI document. */
export const DEVICE_SCHEMAS = { Device: DeviceSchema, DeviceItem: DeviceItemSchema, DeviceSettings: DeviceSettingsSchema };

/** Offsets from a PUT body: each sent one a number (or numeric string) within its bounds, or null. */
export function checkSettings(body: Doc | undefined): Partial<ItemSettings> {
  const out: Partial<ItemSettings> = {};
  if (!body) return out;
  for (const field of ["gravityOffset", "tempOffset"] as const) {
    if (!(field in body)) continue;
    const n = boundedNumeric(body[field], -OFFSET_BOUNDS[field], OFFSET_BOUNDS[field]);
    if (n === undefined) throw badRequest(ERRORS.invalidField(field));
    out[field] = n === 0 ? null : n;
  }
  return out;
}
