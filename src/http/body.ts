import { depthOf, isPlainObject, MAX_DEPTH, type Doc } from "../lib/json.ts";
import { badRequest, ERRORS, HttpError } from "./errors.ts";

const tooLarge = () => new HttpError(413, ERRORS.payloadTooLarge);

/** The body as text, refused with 413 as soon as it passes `maxBytes` (declared or streamed). */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return "";
  if (declared > 0) {
    const raw = await request.text();
    if (raw.length > maxBytes) throw tooLarge();
    return raw;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON object body. Returns undefined when there is no body at all. A body needs a JSON
 * content type or none; malformed, too deeply nested or non-object JSON is refused with 400.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Doc | undefined> {
  const raw = await readText(request, maxBytes);
  if (raw.trim() === "") return undefined;
  const type = request.headers.get("content-type");
  if (type && !JSON_TYPE.test(type)) throw new HttpError(415, ERRORS.unsupportedMediaType);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(ERRORS.invalidJson);
  }
  if (depthOf(parsed) > MAX_DEPTH) throw badRequest(ERRORS.bodyTooDeep);
  if (!isPlainObject(parsed)) throw badRequest(ERRORS.bodyNotObject);
  return parsed;
}

/**
 * PATCH input: the JSON body, or, when there is none, the query parameters as strings (clients of the
 * hosted service send `PATCH …?status=Conditioning` with no body). The body wins when both exist.
 */
export async function readPatchInput(request: Request, params: URLSearchParams, maxBytes: number): Promise<Doc | undefined> {
  const body = await readJsonObject(request, maxBytes);
  if (body) return body;
  let fromQuery: Doc | undefined;
  for (const [name, v] of params) (fromQuery ??= {})[name] = v;
  return fromQuery;
}

/** A request body read now whose refusal waits: a missing record answers 404 before any 400. */
export type Deferred<T> = { value: T } | { error: HttpError };

export async function deferred<T>(read: Promise<T>): Promise<Deferred<T>> {
  try {
    return { value: await read };
  } catch (e) {
    if (e instanceof HttpError) return { error: e };
    throw e;
  }
}

export function unwrap<T>(input: Deferred<T>): T {
  if ("error" in input) throw input.error;
  return input.value;
}
