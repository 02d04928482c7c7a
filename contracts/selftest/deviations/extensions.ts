// Deviations in the additions beyond the document (the extensions area): starting batches, writing
// readings, since/until, status_in, the devices and webhooks. Each breaks one thing only one check looks at.
import { json, mapJson, retext, text, type Call, type Deviation } from "../deviation.ts";

const ON = { CONTRACTS_EXTENSIONS: "1" };
const BATCH_ONE = /^\/v2\/batches\/([^/]+)$/;
const READINGS = /^\/v2\/batches\/([^/]+)\/readings$/;
const READING_AT = /^\/v2\/batches\/([^/]+)\/readings\/([^/]+)$/;
const DEVICE_ITEM = /^\/v2\/batches\/([^/]+)\/devices\/(stream|iSpindel|tilt)\/([^/]+)$/;

const create = (c: Call) => c.method === "POST" && c.path === "/v2/batches";
const asMain = (c: Call) => c.headers.get("authorization") === c.mainAuthorization;
/** The kit names ids it knows to be absent `…missing`. */
const missing = (id: string | undefined) => !!id?.endsWith("missing");
const issues = (path: string) => json([{ path, message: `${path} is not accepted` }], 400);
/** The body sent, changed by `f`. */
const body = (c: Call, f: (b: any) => unknown) => c.forward({ body: JSON.stringify(f({ ...c.json() })) });
const without = (key: string) => (b: any) => { delete b[key]; return b; };
/** The query's `status_in` values. */
const statusIn = (c: Call) => c.query.get("status_in")?.split(",");
const KNOWN = ["Planning", "Brewing", "Fermenting", "Conditioning", "Completed", "Archived"];

const dev = (d: Omit<Deviation, "area" | "settings">): Deviation => ({ ...d, area: "extensions", settings: ON });

const BATCH_CREATION: Deviation[] = [
  dev({
    name: "batch-create-200", caughtBy: "POST /v2/batches {recipeId} answers 201", what: "a batch started from a recipeId answers 200, not 201",
    async handle(c) {
      if (!create(c) || c.json()?.name !== undefined || c.json()?.recipeId === undefined) return;
      const u = await c.forward();
      return u.status === 201 ? { ...u, status: 200 } : u;
    },
  }),
  dev({
    name: "batch-copy-loses-field", caughtBy: "holds a copy of every field of the recipe", what: "a batch's copy of its recipe lacks boilTime",
    async handle(c) { if (c.method === "GET" && BATCH_ONE.test(c.path)) return mapJson(await c.forward(), (b) => { delete b.recipe?.boilTime; return b; }); },
  }),
  dev({
    name: "batch-default-brewing", caughtBy: "is Planning and named as its recipe", what: "a batch started without status is Brewing",
    async handle(c) { if (create(c) && c.json() && c.json().status === undefined) return body(c, (b) => ({ ...b, status: "Brewing" })); },
  }),
  dev({
    name: "batch-drops-brewer", caughtBy: "brewer and brewDate sent with POST /v2/batches read back", what: "the brewer sent is not kept",
    async handle(c) { if (create(c) && c.json()?.brewer !== undefined) return body(c, without("brewer")); },
  }),
  dev({
    name: "batch-number-skips", caughtBy: "batchNo is one above the account's greatest", what: "a batch read alone shows its batchNo one too high",
    async handle(c) { if (c.method === "GET" && BATCH_ONE.test(c.path)) return mapJson(await c.forward(), (b) => ({ ...b, batchNo: b.batchNo + 1 })); },
  }),
  dev({
    name: "batch-whole-recipe-refused", caughtBy: "with a whole recipe creates a batch", what: "a whole recipe in POST /v2/batches is refused",
    async handle(c) { if (create(c) && c.json()?.recipe !== undefined) return issues("recipe"); },
  }),
  dev({
    name: "batch-no-recipe-text", caughtBy: "with neither recipeId nor recipe is 400 with a JSON array", what: "a body without a recipe answers plain text `Missing recipe`",
    async handle(c) { if (create(c) && c.json() && c.json().recipe === undefined && c.json().recipeId === undefined) return text("Missing recipe", 400); },
  }),
  dev({
    name: "batch-bad-status-text", caughtBy: "with a status outside the six is 400 with a JSON array", what: "a bad status answers plain text `Invalid status`",
    async handle(c) { if (create(c) && c.json()?.status === "Done") return text("Invalid status", 400); },
  }),
  dev({
    name: "batch-missing-body-text", caughtBy: "without a body answers 400 `Missing body`", what: "an empty body answers `Missing Body`",
    async handle(c) { if (create(c)) return retext(c, 400, "Missing body", "Missing Body"); },
  }),
  dev({
    name: "batch-unknown-recipe-created", caughtBy: "with a recipeId of no recipe of the account is refused", what: "a recipeId of no recipe answers 201",
    async handle(c) { if (create(c) && asMain(c) && missing(c.json()?.recipeId)) return json({ id: "no-such-batch" }, 201); },
  }),
  dev({
    name: "batch-anonymous-body-first", caughtBy: "POST /v2/batches: 401 `Unauthorized` without credentials", what: "the body is judged before the credentials",
    async handle(c) { if (create(c) && !c.headers.get("authorization")) return issues("recipeId"); },
  }),
  dev({
    name: "batch-refusal-creates", caughtBy: "refused POSTs create nothing", what: "a bad status is refused, but the batch is created all the same",
    async handle(c) {
      if (!create(c) || c.json()?.status !== "Done") return;
      await body(c, without("status"));
      return issues("status");
    },
  }),
];

const READING_WRITES: Deviation[] = [
  dev({
    name: "readings-in-posting-order", caughtBy: "readings posted out of order list in time order", what: "readings are listed newest first",
    async handle(c) { if (c.method === "GET" && READINGS.test(c.path)) return mapJson(await c.forward(), (l) => (Array.isArray(l) ? l.reverse() : l)); },
  }),
  dev({
    name: "readings-last-is-first", caughtBy: "readings/last is the one with the greatest time", what: "readings/last answers the oldest reading",
    async handle(c) {
      if (c.method !== "GET" || !c.path.endsWith("/readings/last")) return;
      const all = await c.forward({ path: c.path.replace(/\/last$/, "") });
      return mapJson(all, (l) => (Array.isArray(l) && l.length ? l[0] : l));
    },
  }),
  dev({
    name: "readings-same-time-added", caughtBy: "at the time of an earlier one replaces it", what: "a reading at a time already posted is added a millisecond later",
    async handle(c) {
      const m = c.method === "POST" ? READINGS.exec(c.path) : null;
      const time = c.json()?.time;
      if (!m || time === undefined) return;
      const key = `time ${m[1]} ${time}`;
      if (!c.state.has(key)) return void c.state.set(key, true);
      return body(c, (b) => ({ ...b, time: Number(time) + 1 }));
    },
  }),
  dev({
    name: "readings-numeric-strings-refused", caughtBy: "numeric strings in a POSTed reading are stored", what: "`\"1.021\"` as sg is refused",
    async handle(c) { if (c.method === "POST" && READINGS.test(c.path) && /^\d+(\.\d+)?$/.test(String(c.json()?.sg))) return typeof c.json().sg === "string" ? text("Invalid sg", 400) : undefined; },
  }),
  dev({
    name: "readings-delete-text", caughtBy: "answers 200 `Deleted` and the reading is gone", what: "deleting a reading answers `Reading deleted`",
    async handle(c) { if (c.method === "DELETE" && READING_AT.test(c.path)) return retext(c, 200, "Deleted", "Reading deleted"); },
  }),
  dev({
    name: "readings-delete-absent-200", caughtBy: "of a time without a reading is 404", what: "deleting a time without a reading answers 200",
    async handle(c) {
      const m = c.method === "DELETE" ? READING_AT.exec(c.path) : null;
      if (!m || missing(m[1])) return;
      const u = await c.forward();
      return u.status === 404 ? text("Deleted", 200) : u;
    },
  }),
  dev({
    name: "readings-refused-but-stored", caughtBy: "a value that is no number is 400 and stores nothing", what: "a reading with a bad sg is refused but stored without it",
    async handle(c) {
      const m = c.method === "POST" ? READINGS.exec(c.path) : null;
      if (!m || missing(m[1]) || c.json()?.sg !== "thick") return;
      await body(c, without("sg"));
      return text("Invalid sg", 400);
    },
  }),
  dev({
    name: "readings-body-before-batch", caughtBy: "POST readings to a missing batch is 404", what: "a bad reading is 400 before its batch is looked up",
    async handle(c) { if (c.method === "POST" && READINGS.test(c.path) && c.json()?.sg === "thick") return text("Invalid sg", 400); },
  }),
  dev({
    name: "readings-time-before-batch", caughtBy: "DELETE readings/{time} of a missing batch is 404", what: "a bad time is 400 before its batch is looked up",
    async handle(c) { const m = c.method === "DELETE" ? READING_AT.exec(c.path) : null; if (m && !/^\d+$/.test(m[2]!)) return text("Invalid time", 400); },
  }),
  dev({
    name: "readings-readonly-404", caughtBy: "POST and DELETE of readings need batches.write", what: "a read-only key's reading write is 404 (the batch looked up first)",
    async handle(c) { if ((c.method === "POST" && READINGS.test(c.path) || c.method === "DELETE" && READING_AT.test(c.path)) && !asMain(c)) return text("Not Found", 404); },
  }),
];

/** Reading list calls with since/until changed by `f` when `when` holds. */
const bounds = (when: (since?: string, until?: string) => boolean, f: (q: { since?: string; until?: string }) => Record<string, string | undefined>): Deviation["handle"] =>
  async (c) => {
    if (c.method !== "GET" || !READINGS.test(c.path)) return;
    const since = c.query.get("since") ?? undefined;
    const until = c.query.get("until") ?? undefined;
    if (when(since, until)) return c.forward({ search: c.search(f({ since, until })) });
  };

const SINCE_UNTIL: Deviation[] = [
  dev({
    name: "since-exclusive", caughtBy: "readings?since=t keeps the reading at t", what: "since alone leaves out the reading at its time",
    handle: bounds((s, u) => s !== undefined && u === undefined, (q) => ({ since: String(Number(q.since) + 1) })),
  }),
  dev({
    name: "until-exclusive", caughtBy: "readings?until=t keeps the reading at t", what: "until alone leaves out the reading at its time",
    handle: bounds((s, u) => s === undefined && u !== undefined, (q) => ({ until: String(Number(q.until) - 1) })),
  }),
  dev({
    name: "until-ignored-with-since", caughtBy: "with both since and until", what: "until is ignored when since is given too",
    handle: bounds((s, u) => s !== undefined && u !== undefined, () => ({ until: undefined })),
  }),
];

const batchList = (c: Call) => c.method === "GET" && c.path === "/v2/batches";

const STATUS_IN: Deviation[] = [
  dev({
    name: "status-in-invalid-text", caughtBy: "status_in with a value outside the six statuses answers 400", what: "an unknown status_in answers `Invalid status`",
    async handle(c) { if (batchList(c) && statusIn(c)?.length === 1) return retext(c, 400, "Invalid status_in", "Invalid status"); },
  }),
  dev({
    name: "status-in-skips-unknown", caughtBy: "status_in with one unknown value among known ones", what: "unknown values among known ones are ignored",
    async handle(c) {
      const v = batchList(c) ? statusIn(c) : undefined;
      if (v && v.length > 1 && v.some((s) => !KNOWN.includes(s))) return c.forward({ search: c.search({ status_in: v.filter((s) => KNOWN.includes(s)).join(",") }) });
    },
  }),
  dev({
    name: "status-in-drops-conditioning", caughtBy: "status_in=A,B lists exactly the batches", what: "Conditioning is left out of a status_in of several values",
    async handle(c) {
      const v = batchList(c) ? statusIn(c) : undefined;
      if (v && v.length > 1 && v.includes("Conditioning")) return c.forward({ search: c.search({ status_in: v.filter((s) => s !== "Conditioning").join(",") }) });
    },
  }),
  dev({
    name: "status-in-ignores-start-after", caughtBy: "status_in pages with limit and start_after", what: "start_after is ignored with status_in",
    async handle(c) { if (batchList(c) && statusIn(c) && c.query.has("start_after")) return c.forward({ search: c.search({ start_after: undefined }) }); },
  }),
  dev({
    name: "status-comma-list", caughtBy: "status=Fermenting,Conditioning stays 400", what: "status takes a comma list like status_in",
    async handle(c) { const s = batchList(c) ? c.query.get("status") : null; if (s?.includes(",")) return c.forward({ search: c.search({ status: undefined, status_in: s }) }); },
  }),
];

const logging = (c: Call, path: string) => c.method === "POST" && c.path === path;
const item = (c: Call, method: string) => (c.method === method ? DEVICE_ITEM.exec(c.path) : null);

const DEVICES: Deviation[] = [
  dev({
    name: "device-item-without-batch", caughtBy: "attaches the device: 200 with its item", what: "the attach answer's item lacks batchId",
    async handle(c) { if (item(c, "PUT")) return mapJson(await c.forward(), (i) => { delete i.batchId; return i; }); },
  }),
  dev({
    name: "stream-result-lowercase", caughtBy: "POST /stream?id=<logging id> of an attached device", what: "a stored stream post answers {\"result\":\"ok\"}",
    async handle(c) { if (logging(c, "/stream")) return mapJson(await c.forward(), (r) => (r?.result === "OK" ? { ...r, result: "ok" } : r)); },
  }),
  dev({
    name: "ispindel-temperature-fahrenheit", caughtBy: "POST /ispindel of an attached device", what: "an iSpindel's °C temperature is read as °F",
    async handle(c) { if (logging(c, "/ispindel")) return body(c, (b) => ({ ...b, temp_units: "F" })); },
  }),
  dev({
    name: "tilt-temp-celsius", caughtBy: "POST /tilt of an attached Tilt", what: "a Tilt's Temp is read as °C",
    async handle(c) {
      if (!logging(c, "/tilt")) return;
      const form = new URLSearchParams(c.body ?? "");
      form.set("Temp", String(((Number(form.get("Temp")) - 32) * 5) / 9));
      return c.forward({ body: form.toString() });
    },
  }),
  dev({
    name: "devices-list-no-batch", caughtBy: "GET /v2/devices lists an attached device", what: "GET /v2/devices shows every device feeding no batch",
    async handle(c) { if (c.method === "GET" && c.path === "/v2/devices") return mapJson(await c.forward(), (l) => (Array.isArray(l) ? l.map((d) => ({ ...d, batchId: null })) : l)); },
  }),
  dev({
    name: "device-item-404", caughtBy: "reads an attached device's item", what: "a batch's device item is 404",
    async handle(c) { if (item(c, "GET")) return text("Not Found", 404); },
  }),
  dev({
    name: "device-offsets-unchecked", caughtBy: "gravityOffset 101 or tempOffset -21", what: "offsets outside their bounds are ignored and the device attached",
    async handle(c) { if (item(c, "PUT") && c.json() && Object.keys(c.json()).length) return c.forward({ body: "" }); },
  }),
  dev({
    name: "device-detach-ignored", caughtBy: "answers 200 `Deleted`; then the item is 404", what: "DELETE of a device item answers `Deleted` and detaches nothing",
    async handle(c) { if (item(c, "DELETE") && asMain(c)) return text("Deleted", 200); },
  }),
  dev({
    name: "device-put-missing-batch", caughtBy: "PUT of a device on a missing batch is 404", what: "attaching to a missing batch answers 200",
    async handle(c) { const m = item(c, "PUT"); if (m && missing(m[1]) && asMain(c)) return json({ name: decodeURIComponent(m[3]!), type: m[2], batchId: m[1] }); },
  }),
  dev({
    name: "logging-unknown-id-ok", caughtBy: "a post with an unknown or without a logging id is refused", what: "a stream post with an unknown or no logging id answers {\"result\":\"OK\"}",
    async handle(c) {
      if (!logging(c, "/stream")) return;
      const u = await c.forward();
      return u.status >= 400 && u.status < 500 ? json({ result: "OK" }) : u;
    },
  }),
  dev({
    name: "device-readonly-404", caughtBy: "device endpoints need their scopes", what: "a read-only key's device write is 404 (the batch looked up first)",
    async handle(c) { if ((item(c, "PUT") || item(c, "DELETE")) && c.headers.get("authorization") && !asMain(c)) return text("Not Found", 404); },
  }),
];

const HOOKS = "/v2/webhooks";
const HOOK_ONE = /^\/v2\/webhooks\/([^/]+)$/;
const HOOK_TEST = /^\/v2\/webhooks\/([^/]+)\/test$/;
const HOOK_SECRET = /^\/v2\/webhooks\/([^/]+)\/secret$/;
const subscribing = (c: Call) => c.method === "POST" && c.path === HOOKS;
/** A subscription answered as made, without making it. */
const fakeSubscription = () => json({ id: "wh_not_made", secret: "whsec_bm90IG1hZGU=" }, 201);

const WEBHOOKS: Deviation[] = [
  dev({
    name: "webhook-http-accepted", caughtBy: "with a plain http:// receiver is refused", what: "a plain http receiver on a public address is accepted",
    async handle(c) { if (subscribing(c) && /^http:\/\/(?!127\.0\.0\.1)/.test(String(c.json()?.url))) return fakeSubscription(); },
  }),
  dev({
    name: "webhook-private-accepted", caughtBy: "on a private address (10.0.0.7) is refused", what: "a receiver on a private address is accepted",
    async handle(c) { if (subscribing(c) && String(c.json()?.url).includes("//10.")) return fakeSubscription(); },
  }),
  dev({
    name: "webhook-unknown-event-accepted", caughtBy: "asking for an event that is none of the documented ones", what: "unknown event names are dropped and the rest subscribed to",
    async handle(c) { if (subscribing(c) && Array.isArray(c.json()?.events) && c.json().events.includes("batch.exploded")) return body(c, (b) => ({ ...b, events: ["inventory.negative"] })); },
  }),
  dev({
    name: "webhook-anonymous-body-first", caughtBy: "POST /v2/webhooks: 401 `Unauthorized` without credentials", what: "the body is judged before the credentials",
    async handle(c) { if (subscribing(c) && !c.headers.get("authorization")) return text("Invalid url: only https URLs are accepted", 400); },
  }),
  dev({
    name: "webhook-delete-missing-200", caughtBy: "DELETE /v2/webhooks/{id} of no subscription", what: "deleting a subscription that does not exist answers `Deleted`",
    async handle(c) { const m = c.method === "DELETE" ? HOOK_ONE.exec(c.path) : null; if (m && missing(m[1])) return text("Deleted", 200); },
  }),
  dev({
    name: "webhook-test-missing-202", caughtBy: "POST /v2/webhooks/{id}/test of no subscription", what: "a test event for a subscription that does not exist answers 202",
    async handle(c) { const m = c.method === "POST" ? HOOK_TEST.exec(c.path) : null; if (m && missing(m[1])) return json({ eventId: "msg_not_sent" }, 202); },
  }),
  dev({
    name: "webhook-list-shows-secret", caughtBy: "is listed with its url and events, never its secret", what: "the list shows each subscription's secret",
    async handle(c) { if (c.method === "GET" && c.path === HOOKS) return mapJson(await c.forward(), (l) => (Array.isArray(l) ? l.map((w) => ({ ...w, secret: "whsec_c2hvd24=" })) : l)); },
  }),
  dev({
    name: "webhook-test-200", caughtBy: "POST /v2/webhooks/{id}/test answers 202", what: "a test event answers 200, not 202",
    async handle(c) {
      if (c.method !== "POST" || !HOOK_TEST.test(c.path)) return;
      const u = await c.forward();
      return u.status === 202 ? { ...u, status: 200 } : u;
    },
  }),
  dev({
    name: "webhook-patch-missing-200", caughtBy: "PATCH /v2/webhooks/{id} of no subscription", what: "changing a subscription that does not exist answers 200",
    async handle(c) { const m = c.method === "PATCH" ? HOOK_ONE.exec(c.path) : null; if (m && missing(m[1])) return json({ id: m[1], events: c.json()?.events }); },
  }),
  dev({
    name: "webhook-patch-keeps-events", caughtBy: "with new events answers the subscription as listed", what: "a change of events answers 200 and keeps the old ones",
    async handle(c) {
      const m = c.method === "PATCH" ? HOOK_ONE.exec(c.path) : null;
      if (!m || missing(m[1])) return;
      const list = await c.forward({ method: "GET", path: HOOKS });
      return mapJson(list, (l) => (Array.isArray(l) ? l.find((w) => w.id === m[1]) ?? l : l));
    },
  }),
  dev({
    name: "webhook-secret-missing-200", caughtBy: "POST /v2/webhooks/{id}/secret of no subscription", what: "a new secret for a subscription that does not exist answers 200",
    async handle(c) { const m = c.method === "POST" ? HOOK_SECRET.exec(c.path) : null; if (m && missing(m[1])) return json({ id: m[1], secret: "whsec_bm90IG1hZGU=", previousSecretUntil: new Date(Date.now() + 86_400_000).toISOString() }); },
  }),
  dev({
    name: "webhook-secret-unchanged", caughtBy: "answers 200 with a new whsec_ secret", what: "a new secret answers the one the subscription already had",
    async handle(c) {
      if (subscribing(c)) {
        // The secret each subscription was made with, to answer again.
        const u = await c.forward();
        const made = (() => { try { return JSON.parse(u.body); } catch { return undefined; } })();
        if (typeof made?.id === "string" && typeof made?.secret === "string") c.state.set(`secret ${made.id}`, made.secret);
        return u;
      }
      const m = c.method === "POST" ? HOOK_SECRET.exec(c.path) : null;
      if (!m || missing(m[1])) return;
      const first = c.state.get(`secret ${m[1]}`);
      return mapJson(await c.forward(), (r) => (typeof first === "string" ? { ...r, secret: first } : r));
    },
  }),
  dev({
    name: "webhook-delete-ignored", caughtBy: "answers 200 `Deleted`; then it is not listed", what: "deleting a subscription answers `Deleted` and keeps it",
    async handle(c) { const m = c.method === "DELETE" ? HOOK_ONE.exec(c.path) : null; if (m && !missing(m[1]) && asMain(c)) return text("Deleted", 200); },
  }),
];

export const EXTENSIONS: Deviation[] = [...BATCH_CREATION, ...READING_WRITES, ...SINCE_UNTIL, ...STATUS_IN, ...DEVICES, ...WEBHOOKS];

/**
 * Not a deviation: a target that follows the document only. Every path of the additions is 404 and
 * their parameters are ignored, so the extensions area must skip every check, saying why.
 */
export const WITHOUT_ADDITIONS: Deviation = {
  name: "without-additions", area: "extensions", caughtBy: "", what: "a target without the additions beyond the document",
  async handle(c) {
    const added = create(c) || (c.method !== "GET" && (READINGS.test(c.path) || READING_AT.test(c.path))) || DEVICE_ITEM.test(c.path) ||
      c.path.startsWith("/v2/devices") || c.path === HOOKS || c.path.startsWith(`${HOOKS}/`) || ["/stream", "/ispindel", "/tilt"].includes(c.path);
    if (added) return text("Not Found", 404);
    if (batchList(c) && c.query.has("status_in")) return c.forward({ search: c.search({ status_in: undefined }) });
    if (READINGS.test(c.path) && (c.query.has("since") || c.query.has("until"))) return c.forward({ search: c.search({ since: undefined, until: undefined }) });
  },
};
