import { issueLoggingId } from "../devices/logging-id.ts";
import { LOGGING_PATHS } from "../devices/routes.ts";
import { DEFAULT_MIN_INTERVAL_SECONDS } from "../devices/rules.ts";
import { signedInPost, viewerOf, type Web } from "./guard.ts";
import { page, type Viewer } from "./layout.ts";
import { devicesWithBatches } from "./device-data.ts";
import { devicesMain, type DevicesView, type LoggingUrl } from "./pages/devices.ts";
import { baseUrl } from "./settings.ts";

// Settings › Devices: the logging id (made or regenerated here as the `logging-id` command does it),
// the URLs for this server, and the devices seen.

const PLACEHOLDER = "<logging id>";

/**
 * The three logging URLs as a device reaches this server: the host the page was asked on, and the
 * plain-HTTP logging listener on the same host where LOGGING_PORT is set.
 */
export function loggingUrls(request: Request, loggingPort: number | undefined, id = PLACEHOLDER): LoggingUrl[] {
  const bases = [baseUrl(request)];
  if (loggingPort) bases.push(`http://${new URL(request.url).hostname}:${loggingPort}`);
  return LOGGING_PATHS.map(([path, type]) => ({ type, urls: bases.map((base) => `${base}${path}?id=${id}`) }));
}

async function devicesPage(web: Web, request: Request, viewer: Viewer, extra: Pick<DevicesView, "created" | "error"> = {}, status = 200): Promise<Response> {
  const view: DevicesView = {
    csrf: viewer.csrf,
    current: await web.store.getLoggingId(viewer.userId),
    urls: loggingUrls(request, web.options.loggingPort, extra.created?.id),
    loggingPort: web.options.loggingPort || undefined,
    minIntervalSeconds: web.options.loggingMinIntervalSeconds ?? DEFAULT_MIN_INTERVAL_SECONDS,
    devices: await devicesWithBatches(web.store, viewer.userId),
    now: web.options.now(),
    ...extra,
  };
  return page({ title: "Devices", section: "settings", viewer, main: devicesMain(view), scripts: view.created ? ["copy.js"] : [] }, status);
}

export async function getDevices(web: Web, request: Request): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  return devicesPage(web, request, viewer);
}

export const CONFIRM_REGENERATE = "Tick the box to confirm: devices using the current logging id stop being accepted at once. Nothing was changed.";

/** Makes the logging id, or replaces it once the form confirms that the old one stops at once. */
export async function postLoggingId(web: Web, request: Request): Promise<Response> {
  const posted = await signedInPost(web, request);
  if (posted instanceof Response) return posted;
  const { viewer, form } = posted;
  const regenerated = (await web.store.getLoggingId(viewer.userId)) !== undefined;
  if (regenerated && form.get("confirm") !== "yes") return devicesPage(web, request, viewer, { error: CONFIRM_REGENERATE }, 400);
  const id = await issueLoggingId(web.store, viewer.userId);
  return devicesPage(web, request, viewer, { created: { id, regenerated } });
}
