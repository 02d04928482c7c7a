import type { OperationDoc } from "../http/endpoint.ts";
import { ID_PARAMETER, json, jsonBody, NOT_FOUND, ok, ref } from "../openapi/operations.ts";
import { MAX_POST_BYTES } from "./body.ts";
import type { DeviceType } from "./parse.ts";

// The OpenAPI descriptions of the device endpoints, additions beyond the hosted API's document.

const plain = (example: string, description: string) => ({ description, content: { "text/plain": { schema: { type: "string" }, example } } });

const logging = (summary: string, body: string): OperationDoc => ({
  summary,
  description:
    `${body} No API key: the account's logging id (\`logging-id\` command) is the credential, and no key's rate limit is spent. ` +
    "One post per device is stored per `LOGGING_MIN_INTERVAL_SECONDS` (default 900); a post inside it is answered 200 and not stored. " +
    "Also served alone, over plain HTTP, on `LOGGING_PORT` when set.",
  parameters: [{ name: "id", in: "query", required: true, schema: { type: "string" }, description: "The account's logging id" }],
  requestBody: {
    required: true,
    content: { "application/json": { schema: { type: "object", additionalProperties: true } }, "application/x-www-form-urlencoded": { schema: { type: "object", additionalProperties: true } } },
  },
  responses: {
    "200": {
      description: 'Stored: `{"result":"OK"}`. Inside the interval, not stored: `{"result":"OK","stored":false,"retryAfter":<seconds>}`',
      content: { "application/json": { schema: { type: "object", properties: { result: { type: "string" }, stored: { type: "boolean" }, retryAfter: { type: "integer" } } } } },
    },
    "400": plain("Invalid logging id", "`Missing logging id`, `Invalid logging id`, or a malformed post (`Missing name`, `Invalid temp`, `No value: …`)"),
    "413": plain("Payload Too Large", `Body over ${MAX_POST_BYTES} bytes`),
  },
});

export const LOGGING_DOCS: Record<DeviceType, OperationDoc> = {
  stream: logging("Log a Custom Stream post", "JSON: `name` and values (`temp`, `aux_temp`, `ext_temp`, `temp_unit`, `gravity`, `gravity_unit`, `pressure`, `pressure_unit`, `ph`, `bpm`, `battery`, `comment`, `beer`)."),
  iSpindel: logging("Log an iSpindel post", "JSON as iSpindel firmware sends it; `gravity` in °P unless the name ends in `[SG]`."),
  tilt: logging("Log a Tilt post", "TiltPi's form (or JSON): `Color`, `SG`, `Temp` (°F), `Timepoint`, `Beer`, `Comment`."),
};

const TYPE = { name: "type", in: "path", required: true, schema: { type: "string", enum: ["iSpindel", "tilt", "stream"] }, description: "Device type; another is 404" };
const NAME = {
  name: "name",
  in: "path",
  required: true,
  schema: { type: "string", minLength: 1, maxLength: 64 },
  description: "The device's name, percent-encoded once, in any letter case (the account's device whose name in capitals is this one's); 1 to 64 printable characters without `/`",
};
const ITEM_PARAMETERS = [ID_PARAMETER, TYPE, NAME];

export const DEVICE_DOCS = {
  list: { summary: "List devices", description: "Every device that posted, was attached or is named by a batch, with the batch it feeds (null: its posts are kept with the device).", responses: { "200": json({ type: "array", items: ref("Device") }, "The account's devices") } },
  readings: {
    summary: "List readings a device kept",
    description: "Readings the device posted while attached to no batch, in time order (its posts while attached are the batch's readings).",
    parameters: [TYPE, NAME],
    responses: { "200": json({ type: "array", items: ref("Reading") }, "Reading Objects"), "404": NOT_FOUND },
  },
  item: { summary: "Read a device of a batch", parameters: ITEM_PARAMETERS, responses: { "200": json(ref("DeviceItem"), "The batch's item for the device"), "404": NOT_FOUND } },
  attach: {
    summary: "Attach a device to a batch",
    description: "Attaches the device (moving it from the batch it fed) and sets sent offsets; new posts go to this batch, earlier ones stay where they are. The body may be empty.",
    parameters: ITEM_PARAMETERS,
    requestBody: { ...jsonBody(ref("DeviceSettings"), "Calibration offsets"), required: false },
    responses: { "200": json(ref("DeviceItem"), "The batch's item for the device"), "400": plain("Invalid name", "`Invalid name` (a name no device may have), `Invalid gravityOffset`, `Invalid tempOffset`, or a malformed body"), "404": NOT_FOUND },
  },
  detach: { summary: "Detach a device from a batch", description: "New posts are kept with the device; the batch's readings stay.", parameters: ITEM_PARAMETERS, responses: { "200": ok("Deleted"), "404": NOT_FOUND } },
} satisfies Record<string, OperationDoc>;
