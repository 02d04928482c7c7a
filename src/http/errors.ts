// Every exact response text of the API in one table, and the one error type the handlers throw.
// Strings in backticks in the API document (Errors table) are reproduced to the letter.

export const TEXT = {
  updated: "Updated",
  deleted: "Deleted",
  nothingToUpdate: "Nothing to update",
} as const;

export const ERRORS = {
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  notFound: "Not Found",
  missingId: "Missing ID",
  missingBody: "Missing body",
  invalidStatus: "Invalid status",
  invalidOrderByDirection: "Invalid order by direction",
  invalidInventory: "Invalid inventory",
  invalidInventoryAdjust: "Invalid inventory_adjust",
  // Choices of this implementation where the document is silent (docs/decisions.md).
  invalidOrderBy: "Invalid order by",
  invalidLimit: "Invalid limit",
  invalidOffset: "Invalid offset",
  invalidComplete: "Invalid complete",
  invalidBoolean: (name: string) => `Invalid ${name}`,
  invalidStartAfter: "Invalid start_after",
  invalidJson: "Invalid JSON",
  bodyTooDeep: "Invalid JSON: nested too deeply",
  bodyNotObject: "Body must be a JSON object",
  unsupportedMediaType: "Content-Type must be application/json",
  payloadTooLarge: "Payload Too Large",
  tooManyRequests: "Too Many Requests",
  internal: "Internal Server Error",
  serviceUnavailable: "Service Unavailable",
  incompleteBody: "Incomplete body: the connection ended before Content-Length bytes arrived",
  invalidUtf8: "Invalid JSON: the body is not valid UTF-8",
  invalidField: (field: string) => `Invalid ${field}`,
  // Device logging (docs/decisions.md, Devices).
  missingLoggingId: "Missing logging id",
  invalidLoggingId: "Invalid logging id",
  missingDeviceName: (field: string) => `Missing ${field}`,
  noDeviceValue: "No value: send at least one of temp, gravity, pressure, ph, bpm, battery, angle",
  // Webhooks (docs/decisions.md, Webhooks).
  invalidWebhookUrl: "Invalid url: give the receiver's absolute https URL",
  webhookNotHttps: "Invalid url: only https URLs are accepted",
  webhookUrlTooLong: (max: number) => `Invalid url: longer than ${max} characters`,
  webhookUnresolvable: (host: string) => `Invalid url: ${host} does not resolve`,
  webhookResolveTimeout: (host: string, ms: number) => `Invalid url: ${host} does not resolve within ${ms / 1000} s`,
  webhookRefusedAddress: (host: string, address: string) =>
    `Invalid url: ${host} is a loopback, private, link-local or metadata address (${address}); the operator may allow the host with WEBHOOK_ALLOW_HOSTS`,
  invalidWebhookEvents: "Invalid events: give a non-empty array of event names",
  unknownWebhookEvent: (name: string) => `Invalid events: unknown event ${name}`,
  tooManyWebhooks: (max: number) => `Too many webhooks: at most ${max} per account`,
} as const;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
    readonly json = false,
  ) {
    super(body);
  }
}

export const badRequest = (text: string) => new HttpError(400, text);
export const notFound = () => new HttpError(404, ERRORS.notFound);
export const unauthorized = () =>
  new HttpError(401, ERRORS.unauthorized, { "www-authenticate": 'Basic realm="brewrecords", charset="UTF-8"' });
/** The value, or 404 `Not Found` when there is none: the one meaning of a missing record. */
export function orNotFound<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}
export const forbidden = () => new HttpError(403, ERRORS.forbidden);
/** 400 with a JSON array of validation errors (recipe and inventory schema failures). */
export const validationFailed = (issues: unknown[]) => new HttpError(400, JSON.stringify(issues), {}, true);

const TEXT_TYPE = "text/plain; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * An API answer before the headers every response carries (request id, rate limit) are added: the app
 * builds the Response once, with all its headers together (src/app.ts), instead of setting them one by
 * one on a Response built here.
 */
export class Reply {
  constructor(
    readonly body: string | Uint8Array<ArrayBuffer>,
    readonly status: number,
    readonly type: string,
    readonly headers?: Record<string, string>,
  ) {}
}

export function text(body: string, status = 200, headers?: Record<string, string>): Reply {
  return new Reply(body, status, TEXT_TYPE, headers);
}

/** JSON already serialised (stored canonical text is spliced, never re-encoded). */
export function jsonText(body: string | Uint8Array<ArrayBuffer>, status = 200): Reply {
  return new Reply(body, status, JSON_TYPE);
}

export function errorReply(error: HttpError): Reply {
  return new Reply(error.body, error.status, error.json ? JSON_TYPE : TEXT_TYPE, error.headers);
}
