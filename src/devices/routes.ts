import type { Deps } from "../http/deps.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { badRequest, ERRORS, jsonText } from "../http/errors.ts";
import { searchParams } from "../http/url.ts";
import { readDeviceBody } from "./body.ts";
import { LoggingIds } from "./logging-id.ts";
import { LOGGING_DOCS } from "./docs.ts";
import { parsePost, type DeviceType } from "./parse.ts";
import { ignoredBody, recordPost, STORED_BODY } from "./service.ts";

/** The logging endpoints and the device type each takes (README, Devices). */
export const LOGGING_PATHS: ReadonlyArray<readonly [path: string, type: DeviceType]> = [
  ["/stream", "stream"],
  ["/ispindel", "iSpindel"],
  ["/tilt", "tilt"],
];

/**
 * `POST /stream|/ispindel|/tilt?id=<logging id>`: the id first (400 when missing or unknown, which a
 * real client reads as "logging id may be invalid"), then the body (413, 400), then the post is
 * recorded or, inside the minimum interval, answered and not stored. No API key is involved, so no
 * key's rate limit is spent.
 */
export function loggingRoutes(deps: Deps): void {
  const { store, config } = deps;
  const ids = new LoggingIds(store);
  const routes = new ApiRoutes(deps, { tag: "Devices", addition: true });
  for (const [path, type] of LOGGING_PATHS) {
    routes.post(path, { answer: "reply", doc: LOGGING_DOCS[type] }, async ({ request }) => {
      const id = searchParams(request.url).get("id");
      if (!id) throw badRequest(ERRORS.missingLoggingId);
      const userId = await ids.userOf(id);
      if (!userId) throw badRequest(ERRORS.invalidLoggingId);
      const post = parsePost(type, await readDeviceBody(request));
      const outcome = await recordPost(store, userId, post, config.loggingMinIntervalSeconds);
      return jsonText(outcome.stored ? STORED_BODY : ignoredBody(outcome.retryAfterSeconds));
    });
  }
}
