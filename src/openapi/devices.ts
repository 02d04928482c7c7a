import { DeviceItemSchema, DeviceSchema, DeviceSettingsSchema } from "../devices/model.ts";
import { MAX_POST_BYTES } from "../devices/body.ts";
import { json, NOT_FOUND, ok, operation, ref, badRequestText, jsonBody, ID_PARAMETER } from "./operations.ts";

// The device endpoints: additions beyond the hosted API's document, each marked as such
// (`x-brewrecords-addition`) under a tag of its own (README, Beyond the hosted API).

type Obj = Record<string, unknown>;
export const DEVICES_TAG = "Devices (beyond the hosted API)";
const ADDITION = { "x-brewrecords-addition": true };

export const DEVICE_SCHEMAS: Obj = { Device: DeviceSchema, DeviceItem: DeviceItemSchema, DeviceSettings: DeviceSettingsSchema };

const path = (name: string, description: string): Obj => ({ name, in: "path", required: true, schema: { type: "string" }, description });
const ITEM_PARAMETERS = [
  ID_PARAMETER,
  { name: "type", in: "path", required: true, schema: { type: "string", enum: ["iSpindel", "tilt", "stream"] }, description: "Device type; another is 404" },
  path("name", "The device's name (a Tilt's colour), any letter case"),
];

const add = (op: Obj): Obj => ({ ...op, ...ADDITION });

const loggingPost = (type: string, body: string): Obj => ({
  tags: [DEVICES_TAG],
  summary: `Log a ${type} post`,
  operationId: `log${type.replace(/[^A-Za-z]/g, "")}`,
  security: [],
  description:
    `${body} No API key: the account's logging id (\`logging-id\` command) is the credential, and no key's rate limit is spent. ` +
    `One post per device is stored per \`LOGGING_MIN_INTERVAL_SECONDS\` (default 900); a post inside it is answered 200 and not stored. ` +
    `Also served alone, over plain HTTP, on \`LOGGING_PORT\` when set.`,
  parameters: [{ name: "id", in: "query", required: true, schema: { type: "string" }, description: "The account's logging id" }],
  requestBody: { required: true, content: { "application/json": { schema: { type: "object", additionalProperties: true } }, "application/x-www-form-urlencoded": { schema: { type: "object", additionalProperties: true } } } },
  responses: {
    "200": {
      description: 'Stored: `{"result":"OK"}`. Inside the interval, not stored: `{"result":"OK","stored":false,"retryAfter":<seconds>}`',
      content: { "application/json": { schema: { type: "object", properties: { result: { type: "string" }, stored: { type: "boolean" }, retryAfter: { type: "integer" } } } } },
    },
    "400": { description: "`Missing logging id`, `Invalid logging id`, or a malformed post (`Missing name`, `Invalid temp`, `No value: …`)", content: { "text/plain": { schema: { type: "string" }, example: "Invalid logging id" } } },
    "413": { description: `Body over ${MAX_POST_BYTES} bytes`, content: { "text/plain": { schema: { type: "string" }, example: "Payload Too Large" } } },
  },
  ...ADDITION,
});

export function devicePaths(): Obj {
  const tag = DEVICES_TAG;
  return {
    "/stream": { post: loggingPost("Custom Stream", "JSON: `name` and values (`temp`, `aux_temp`, `ext_temp`, `temp_unit`, `gravity`, `gravity_unit`, `pressure`, `pressure_unit`, `ph`, `bpm`, `battery`, `comment`, `beer`).") },
    "/ispindel": { post: loggingPost("iSpindel", "JSON as iSpindel firmware sends it; `gravity` in °P unless the name ends in `[SG]`.") },
    "/tilt": { post: loggingPost("Tilt", "TiltPi's form (or JSON): `Color`, `SG`, `Temp` (°F), `Timepoint`, `Beer`, `Comment`.") },
    "/v2/devices": {
      get: add(operation({ summary: "List devices", tag, version: 2, scope: "batches.read", description: "Every device that posted or was attached, with the batch it feeds (null: its posts are kept with the device).", responses: { "200": json({ type: "array", items: ref("Device") }, "The account's devices") } })),
    },
    "/v2/devices/{type}/{name}/readings": {
      get: add(operation({
        summary: "List readings a device kept", tag, version: 2, scope: "batches.read", parameters: ITEM_PARAMETERS.slice(1),
        description: "Readings the device posted while attached to no batch, in time order (its posts while attached are the batch's readings).",
        responses: { "200": json({ type: "array", items: ref("Reading") }, "Reading Objects"), "404": NOT_FOUND },
      })),
    },
    "/v2/batches/{id}/devices/{type}/{name}": {
      get: add(operation({ summary: "Read a device of a batch", tag, version: 2, scope: "batches.read", parameters: ITEM_PARAMETERS, responses: { "200": json(ref("DeviceItem"), "The batch's item for the device"), "404": NOT_FOUND } })),
      put: add(operation({
        summary: "Attach a device to a batch", tag, version: 2, scope: "batches.write", parameters: ITEM_PARAMETERS,
        description: "Attaches the device (moving it from the batch it fed) and sets sent offsets; new posts go to this batch, earlier ones stay where they are. The body may be empty.",
        requestBody: { ...jsonBody(ref("DeviceSettings"), "Calibration offsets"), required: false },
        responses: { "200": json(ref("DeviceItem"), "The batch's item for the device"), "400": badRequestText("Invalid gravityOffset"), "404": NOT_FOUND },
      })),
      delete: add(operation({ summary: "Detach a device from a batch", tag, version: 2, scope: "batches.write", parameters: ITEM_PARAMETERS, description: "New posts are kept with the device; the batch's readings stay.", responses: { "200": ok("Deleted"), "404": NOT_FOUND } })),
    },
  };
}
