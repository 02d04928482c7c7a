import { depthOf, isPlainObject, MAX_DEPTH, type Doc } from "../lib/json.ts";
import { badRequest, ERRORS, HttpError } from "./errors.ts";
import { searchParams } from "./url.ts";

const tooLarge = () => new HttpError(413, ERRORS.payloadTooLarge);

// Invalid UTF-8 is refused, never replaced with U+FFFD and stored as if the client had sent that.
const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest(ERRORS.invalidUtf8);
  }
}

/** A body the client stopped sending (fewer bytes than declared, then gone) is its own refusal, not a server failure. */
function incomplete(e: unknown): never {
  if (e instanceof HttpError) throw e;
  throw badRequest(ERRORS.incompleteBody);
}

/**
 * The body as text, refused with 413 as soon as it passes `maxBytes` (declared or streamed), with 400
 * when it is not UTF-8 or ends early. A body of declared length is read in one await, not a chain.
 */
export function readText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return Promise.reject(tooLarge());
  // A declared length is read at once; `request.body` is touched only without one, since reading the
  // property makes a ReadableStream (more work than the rest of a small PATCH's reading).
  if (declared > 0) return request.bytes().then(decode, incomplete);
  return request.body ? readStream(request.body, maxBytes).catch(incomplete) : Promise.resolve("");
}

async function readStream(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return decode(Buffer.concat(chunks));
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * A JSON object body from its text. Undefined when there is no body at all. A body needs a JSON
 * content type or none; malformed, too deeply nested or non-object JSON is refused with 400.
 */
function parseJsonObject(raw: string, contentType: string | null, maxBytes: number): Doc | undefined {
  if (raw.length > maxBytes) throw tooLarge();
  if (raw.trim() === "") return undefined;
  if (contentType && !JSON_TYPE.test(contentType)) throw new HttpError(415, ERRORS.unsupportedMediaType);
  return jsonObjectOf(raw);
}

/** A JSON object from non-blank text; malformed, too deeply nested or non-object JSON is refused with 400. */
export function jsonObjectOf(raw: string): Doc {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(ERRORS.invalidJson);
  }
  // Nesting past MAX_DEPTH takes an opening and a closing bracket per level: shorter text cannot have it.
  if (raw.length > 2 * MAX_DEPTH && depthOf(parsed) > MAX_DEPTH) throw badRequest(ERRORS.bodyTooDeep);
  if (!isPlainObject(parsed)) throw badRequest(ERRORS.bodyNotObject);
  return parsed;
}

export function readJsonObject(request: Request, maxBytes: number): Promise<Doc | undefined> {
  return readText(request, maxBytes).then((raw) => parseJsonObject(raw, request.headers.get("content-type"), maxBytes));
}

/**
 * PATCH input: the JSON body, or, when there is none, the query parameters as strings (clients of the
 * hosted service send `PATCH …?status=Conditioning` with no body). The body wins when both exist. Read
 * now, with its refusal kept for later: a missing record answers 404 before any 400. One promise, the
 * body's own: the rest happens in its callback.
 */
export function readPatchInput(request: Request, maxBytes: number): Promise<BodyOrRefusal<Doc | undefined>> {
  return readText(request, maxBytes).then((raw) => {
    try {
      const body = parseJsonObject(raw, request.headers.get("content-type"), maxBytes);
      if (body) return { value: body };
      let fromQuery: Doc | undefined;
      for (const [name, v] of searchParams(request.url)) (fromQuery ??= {})[name] = v;
      return { value: fromQuery };
    } catch (e) {
      return refusal(e);
    }
  }, refusal);
}

/** A request body read now, or its refusal held: a missing record answers 404 before any 400. */
export type BodyOrRefusal<T> = { value: T } | { error: HttpError };

/** The body a read gives, or its refusal held for later. */
export async function heldBody<T>(read: Promise<T>): Promise<BodyOrRefusal<T>> {
  try {
    return { value: await read };
  } catch (e) {
    return refusal(e);
  }
}

/** An HTTP refusal kept for later; anything else is a defect and goes on up. */
function refusal(e: unknown): { error: HttpError } {
  if (e instanceof HttpError) return { error: e };
  throw e;
}

/** The body, or its held refusal thrown now. */
export function bodyOrThrow<T>(input: BodyOrRefusal<T>): T {
  if ("error" in input) throw input.error;
  return input.value;
}
